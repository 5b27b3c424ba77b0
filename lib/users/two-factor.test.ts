import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { acceptedStep, PERIOD_SECONDS } from './two-factor';

const secret = new Secret({ size: 20 }).base32;
const app = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: PERIOD_SECONDS, algorithm: 'SHA1' });
const now = new Date('2030-05-05T12:00:10Z');
const step = Math.floor(now.getTime() / 1000 / PERIOD_SECONDS);
const codeAt = (offset: number) => app.generate({ timestamp: now.getTime() + offset * PERIOD_SECONDS * 1000 });

describe('TOTP codes', () => {
  it('accepts the code of now and one step either side, answering its step', () => {
    expect(acceptedStep(secret, codeAt(0), null, now)).toBe(step);
    expect(acceptedStep(secret, codeAt(-1), null, now)).toBe(step - 1);
    expect(acceptedStep(secret, codeAt(1), null, now)).toBe(step + 1);
    expect(acceptedStep(secret, ` ${codeAt(0).slice(0, 3)} ${codeAt(0).slice(3)} `, null, now)).toBe(step);
  });

  it('refuses codes two steps away', () => {
    for (const offset of [-2, 2, 10])
      if (codeAt(offset) !== codeAt(0)) expect(acceptedStep(secret, codeAt(offset), null, now)).toBeUndefined();
  });

  it('refuses a code of a step already used, or earlier', () => {
    expect(acceptedStep(secret, codeAt(0), step, now)).toBeUndefined();
    expect(acceptedStep(secret, codeAt(-1), step, now)).toBeUndefined();
    expect(acceptedStep(secret, codeAt(1), step, now)).toBe(step + 1);
  });

  it('refuses what is no code', () => {
    for (const bad of ['', '12345', '1234567', 'abcdef', '12 34 5'])
      expect(acceptedStep(secret, bad, null, now)).toBeUndefined();
  });
});
