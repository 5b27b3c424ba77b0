import { describe, expect, it } from 'vitest';
import { decryptSecret, encryptSecret } from './secrets';

const APP_SECRET = 'a'.repeat(40);

describe('private keys at rest', () => {
  it('round-trips and never contains the plain key', () => {
    const sealed = encryptSecret('sk_test_plain_private_key', APP_SECRET);
    expect(sealed).not.toContain('sk_test_plain_private_key');
    expect(sealed.startsWith('v1.')).toBe(true);
    expect(decryptSecret(sealed, APP_SECRET)).toBe('sk_test_plain_private_key');
  });

  it('uses a fresh IV each time', () => {
    expect(encryptSecret('same', APP_SECRET)).not.toBe(encryptSecret('same', APP_SECRET));
  });

  it('refuses another APP_SECRET and a tampered ciphertext', () => {
    const sealed = encryptSecret('sk_live_x', APP_SECRET);
    expect(() => decryptSecret(sealed, 'b'.repeat(40))).toThrow();
    const parts = sealed.split('.');
    const flipped = Buffer.from(parts[3]!, 'base64url');
    flipped[0]! ^= 1;
    expect(() => decryptSecret([...parts.slice(0, 3), flipped.toString('base64url')].join('.'), APP_SECRET)).toThrow();
  });
});
