import { describe, expect, it } from 'vitest';
import { signingKeyFor, signsWebhooksAt, type SigningKeyRow } from './signing';

const NOW = new Date('2026-12-01T12:00:00.000Z');
const at = (hours: number) => new Date(NOW.getTime() + hours * 3_600_000);

function key(id: string, fields: Partial<SigningKeyRow> = {}): SigningKeyRow {
  return {
    id,
    merchant_id: 'm',
    mode: 'test',
    public_key: `pk_${id}`,
    secret_ciphertext: `sealed-${id}`,
    revoked_at: null,
    expires_at: null,
    webhook_key: false,
    successor_key_id: null,
    signs_webhooks_until: null,
    ...fields,
  };
}
const signer = (keys: SigningKeyRow[], madeBy: string | null, now = NOW) => {
  const choice = signingKeyFor(keys, madeBy, now, 'test');
  return 'key' in choice ? choice.key.id : choice.refused;
};

describe('signsWebhooksAt', () => {
  it('an active key signs; a revoked one only within its stated hours; an expired one never', () => {
    expect(signsWebhooksAt(key('a'), NOW)).toBe(true);
    expect(signsWebhooksAt(key('a', { revoked_at: at(-1) }), NOW)).toBe(false);
    expect(signsWebhooksAt(key('a', { revoked_at: at(-1), signs_webhooks_until: at(2) }), NOW)).toBe(true);
    expect(signsWebhooksAt(key('a', { revoked_at: at(-1), signs_webhooks_until: NOW }), NOW)).toBe(false);
    expect(signsWebhooksAt(key('a', { expires_at: at(1) }), NOW)).toBe(true);
    expect(signsWebhooksAt(key('a', { expires_at: NOW }), NOW)).toBe(false);
    expect(
      signsWebhooksAt(key('a', { expires_at: at(-1), revoked_at: at(-2), signs_webhooks_until: at(5) }), NOW),
    ).toBe(false);
  });
});

describe('signingKeyFor: the key that signs an object’s webhook', () => {
  const webhookKey = key('first', { webhook_key: true });

  it('is the key that made the object, whatever keys were made later', () => {
    const keys = [webhookKey, key('maker'), key('newer'), key('newest')];
    expect(signer(keys, 'maker')).toBe('maker');
    expect(signer(keys, 'first')).toBe('first');
  });

  it('is the webhook key for an object no key made, however new other keys are', () => {
    expect(signer([webhookKey, key('newer'), key('newest')], null)).toBe('first');
  });

  it('stays with a rolled key until its overlap ends, then is its replacement', () => {
    const keys = [webhookKey, key('old', { expires_at: at(1), successor_key_id: 'new' }), key('new')];
    expect(signer(keys, 'old')).toBe('old');
    expect(signer(keys, 'old', at(1))).toBe('new');
    // Rolled twice: the chain is followed to the key that signs.
    const twice = [
      webhookKey,
      key('old', { expires_at: at(-2), successor_key_id: 'mid' }),
      key('mid', { expires_at: at(-1), successor_key_id: 'new' }),
      key('new'),
    ];
    expect(signer(twice, 'old')).toBe('new');
  });

  it('moves to the chosen key at once, or after the revoked key’s stated hours', () => {
    const moved = [webhookKey, key('gone', { revoked_at: at(-1), successor_key_id: 'other' }), key('other')];
    expect(signer(moved, 'gone')).toBe('other');
    const kept = [
      webhookKey,
      key('gone', { revoked_at: at(-1), signs_webhooks_until: at(24), successor_key_id: 'other' }),
      key('other'),
    ];
    expect(signer(kept, 'gone')).toBe('gone');
    expect(signer(kept, 'gone', at(24))).toBe('other');
  });

  it('falls back to the webhook key when the chain of the key that made it ends', () => {
    expect(signer([webhookKey, key('gone', { revoked_at: at(-1) })], 'gone')).toBe('first');
    expect(signer([webhookKey], 'a-key-of-another-merchant')).toBe('first');
  });

  it('refuses, saying what to do, when no key of the chain or the webhook key signs', () => {
    expect(signer([key('first', { webhook_key: true, revoked_at: at(-1) })], null)).toMatch(
      /no test key signs this webhook.*choose a webhook key/,
    );
    expect(signer([], null)).toMatch(/^refused:/);
    // A cycle of successors ends rather than loops.
    const cycle = [
      key('a', { revoked_at: at(-1), successor_key_id: 'b' }),
      key('b', { revoked_at: at(-1), successor_key_id: 'a' }),
    ];
    expect(signer(cycle, 'a')).toMatch(/^refused:/);
  });
});
