import { describe, expect, it } from 'vitest';
import { hashPassword, passwordProblem, PASSWORD_MIN_LENGTH, verifyPassword } from './passwords';

describe('password hashes', () => {
  it('verifies the password a hash was made from, and nothing else', async () => {
    const hash = await hashPassword('correct horse battery staple');
    expect(hash).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(await verifyPassword('correct horse battery staple', hash)).toBe(true);
    expect(await verifyPassword('correct horse battery stapl', hash)).toBe(false);
    expect(await verifyPassword('Correct horse battery staple', hash)).toBe(false);
    // A new salt each time: the same password never gives the same text.
    expect(await hashPassword('correct horse battery staple')).not.toBe(hash);
  });

  it('reads the parameters from the stored text (older, cheaper hashes stay verifiable)', async () => {
    const cheap = 'scrypt$1024$8$1$' + Buffer.from('0123456789abcdef').toString('base64url') + '$';
    const { scryptSync } = await import('node:crypto');
    const key = scryptSync('an older password', Buffer.from('0123456789abcdef'), 32, { N: 1024, r: 8, p: 1 }).toString(
      'base64url',
    );
    expect(await verifyPassword('an older password', cheap + key)).toBe(true);
  });

  it('refuses malformed hashes without throwing', async () => {
    for (const bad of [
      '',
      'plain',
      'bcrypt$x$y$z$a$b',
      'scrypt$x$8$1$AAAA$AAAA',
      'scrypt$1024$8$1$AAAA',
      'scrypt$1024$8$1$AAAA$AAAA$extra',
    ]) {
      expect(await verifyPassword('whatever password', bad)).toBe(false);
    }
  });
});

describe('password policy', () => {
  it('wants at least 12 characters and at most 256', () => {
    expect(PASSWORD_MIN_LENGTH).toBe(12);
    expect(passwordProblem('short-pw-1!')).toMatch(/at least 12 characters/);
    expect(passwordProblem('x9!'.repeat(86))).toMatch(/at most 256/);
    expect(passwordProblem('a-fine-long-passphrase')).toBeUndefined();
  });

  it('refuses common passwords whatever their case', () => {
    expect(passwordProblem('qwerty123456')).toMatch(/common passwords/);
    expect(passwordProblem('QWERTY123456')).toMatch(/common passwords/);
    expect(passwordProblem('1q2w3e4r5t6y')).toMatch(/common passwords/);
  });

  it('refuses a common password with digits or symbols added before or after it', () => {
    expect(passwordProblem('password12345')).toMatch(/common passwords/);
    expect(passwordProblem('!!Sunshine2026!!')).toMatch(/common passwords/);
    expect(passwordProblem('2026-dragon-2026')).toMatch(/common passwords/);
    // Letters around a common word make another word: not refused for it.
    expect(passwordProblem('password-manager-on')).toBeUndefined();
  });

  it('refuses the e-mail address and its local part', () => {
    expect(passwordProblem('alice.merchant@shop.example', 'alice.merchant@shop.example')).toMatch(/e-mail/);
    expect(passwordProblem('Alice.Merchant', 'alice.merchant@shop.example')).toMatch(/e-mail/);
    expect(passwordProblem('alice.merchant-2026', 'alice.merchant@shop.example')).toBeUndefined();
  });
});
