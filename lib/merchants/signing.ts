import 'server-only';
/**
 * Which key signs a webhook's `x-api-signature` (docs/decisions/048): the key that made the order
 * or invoice, so that a receiver verifying with the key it calls with keeps verifying whatever
 * keys are made later; the mode's webhook key for objects no key made. A key that no longer signs
 * hands over to its successor (the key a roll made, or the key a revocation moved its webhooks
 * to); when the chain ends, the webhook key's chain is tried. The rule is pure (`signingKeyFor`,
 * unit-tested); the dispatcher's claim reads the keys it chooses from (lib/webhooks/claims.ts).
 */
import type { apiKeys, RowOf } from '../db';
import type { Mode } from '../protocol';

/** The columns of a key the choice reads (the claim selects them as JSON, `signingKeysFromJson`). */
export const SIGNING_KEY_COLUMNS = [
  'id',
  'merchant_id',
  'mode',
  'public_key',
  'secret_ciphertext',
  'revoked_at',
  'expires_at',
  'webhook_key',
  'successor_key_id',
  'signs_webhooks_until',
] as const satisfies readonly (keyof RowOf<typeof apiKeys>)[];
/** A key as the choice of a webhook's signing key reads it. */
export type SigningKeyRow = Pick<RowOf<typeof apiKeys>, (typeof SIGNING_KEY_COLUMNS)[number]>;

/** Keys as `json_agg` of their SIGNING_KEY_COLUMNS answers them (times as text), as rows. */
export function signingKeysFromJson(json: unknown): SigningKeyRow[] {
  const time = (value: unknown) => (value === null || value === undefined ? null : new Date(String(value)));
  return ((json ?? []) as Record<string, unknown>[]).map((key) => ({
    ...(key as unknown as SigningKeyRow),
    revoked_at: time(key.revoked_at),
    expires_at: time(key.expires_at),
    signs_webhooks_until: time(key.signs_webhooks_until),
  }));
}

/**
 * Whether a key signs webhooks at `now`: not past its expiry (a chosen one, or the end of a roll's
 * overlap), and not revoked unless the revocation kept it signing until later.
 */
export function signsWebhooksAt(
  key: Pick<SigningKeyRow, 'revoked_at' | 'expires_at' | 'signs_webhooks_until'>,
  now: Date,
): boolean {
  if (key.expires_at !== null && key.expires_at <= now) return false;
  if (key.revoked_at === null) return true;
  return key.signs_webhooks_until !== null && key.signs_webhooks_until > now;
}

export type SigningChoice = { key: SigningKeyRow } | { refused: string };

/**
 * The key that signs a webhook of an object made by `madeBy` (null: by no key), among `keys` (the
 * merchant's keys of the object's mode), at `now`.
 */
export function signingKeyFor(
  keys: readonly SigningKeyRow[],
  madeBy: string | null,
  now: Date,
  mode: Mode,
): SigningChoice {
  const byId = new Map(keys.map((key) => [key.id, key]));
  const seen = new Set<string>();
  /** The first key of the chain from `start` that signs now. */
  const follow = (start: SigningKeyRow | undefined): SigningKeyRow | undefined => {
    for (
      let key = start;
      key && !seen.has(key.id);
      key = key.successor_key_id ? byId.get(key.successor_key_id) : undefined
    ) {
      seen.add(key.id);
      if (signsWebhooksAt(key, now)) return key;
    }
    return undefined;
  };
  const signer =
    (madeBy !== null ? follow(byId.get(madeBy)) : undefined) ?? follow(keys.find((key) => key.webhook_key));
  if (signer) return { key: signer };
  return {
    refused: `refused: no ${mode} key signs this webhook (${madeBy !== null ? 'the key that made it and ' : ''}the ${mode} webhook key no longer sign): choose a webhook key on the keys page`,
  };
}
