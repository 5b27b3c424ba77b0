import 'server-only';
/**
 * The payer's side of a claim link (docs/decisions/071): what the page shows once the link is
 * checked, and the address the payer confirms. The link opens nothing of its refund's merchant
 * beyond the refund's amount, coin and network; it submits once: after the payer confirms, the
 * address cannot change unless the merchant reopens the claim (a new link; this one dies).
 */
import { z } from 'zod';
import { isValidAddress, networkFor } from '../chains';
import { refunds, param, sql, statement, type Database, type Queryable } from '../db';
import { formatUnits } from '../money';
import { decimalsOf } from '../orders';
import type { RefundState } from '../protocol';
import { isTokenShaped } from '../security';
import { claimTokenHash } from './claims';
import { ClaimAddressInvalid, ClaimLinkInvalid } from './errors';
import { applyRefundAction, type RefundRow } from './store';

/** What the payer's page shows of a checked link. */
export interface ClaimView {
  state: RefundState;
  network: string;
  currency: string;
  /** In the coin, canonical decimal string. */
  amount: string;
  /** Whether the network tells deposits apart by a destination tag (the page asks for one). */
  usesTags: boolean;
  /** As the payer confirmed them, once they did. */
  address: string | null;
  tag: string | null;
  expiresAt: Date;
}

const BY_TOKEN = statement<RefundRow, { hash: string }>(
  sql`select * from ${refunds} where ${refunds.claimTokenHash} = ${param('hash')}`,
);
const LOCK_BY_TOKEN = statement<RefundRow, { hash: string }>(
  sql`select * from ${refunds} where ${refunds.claimTokenHash} = ${param('hash')} for update`,
);

/** The refund a link names while the link works (not expired, not replaced, not canceled). */
async function refundOfLink(db: Queryable, token: string, now: Date, lock: boolean): Promise<RefundRow> {
  if (!isTokenShaped(token)) throw new ClaimLinkInvalid();
  const [row] = await (lock ? LOCK_BY_TOKEN : BY_TOKEN).run(db, { hash: claimTokenHash(token) });
  if (!row || row.state === 'canceled' || row.claim_expires_at.getTime() <= now.getTime()) throw new ClaimLinkInvalid();
  return row;
}

function viewOf(row: RefundRow): ClaimView {
  return {
    state: row.state,
    network: row.network,
    currency: row.currency,
    amount: formatUnits(BigInt(row.amount), decimalsOf(row.network, row.currency)),
    usesTags: networkFor(row.mode, row.network)?.usesTags ?? false,
    address: row.address,
    tag: row.tag,
    expiresAt: row.claim_expires_at,
  };
}

/** What a link shows, once checked (ClaimLinkInvalid for a link that does not work). */
export async function openClaim(db: Queryable, token: string, now: Date): Promise<ClaimView> {
  return viewOf(await refundOfLink(db, token, now, false));
}

/** A destination tag of the XRP Ledger: an unsigned 32-bit integer. */
const TAG = z
  .string()
  .regex(/^(0|[1-9]\d{0,9})$/)
  .refine((text) => BigInt(text) <= 4_294_967_295n);

/**
 * The address (and tag) a payer gives, checked for the refund's network: its checksum, and a tag
 * only where the network has tags. Answers them as they will be stored (trimmed, the tag absent when empty).
 */
export function checkClaimAddress(
  row: Pick<RefundRow, 'mode' | 'network'>,
  given: { address: string; tag: string },
): { address: string; tag: string | null } {
  const network = networkFor(row.mode, row.network);
  const address = given.address.trim();
  const tag = given.tag.trim();
  if (!network || address.length === 0 || address.length > 128 || !isValidAddress(network, address)) {
    throw new ClaimAddressInvalid('address', `This is not a valid ${network?.displayName ?? row.network} address.`);
  }
  if (tag === '') return { address, tag: null };
  if (!network.usesTags) throw new ClaimAddressInvalid('no-tag', `${network.displayName} addresses take no tag.`);
  if (!TAG.safeParse(tag).success) {
    throw new ClaimAddressInvalid('tag', 'A destination tag is a whole number from 0 to 4294967295.');
  }
  return { address, tag };
}

/**
 * The address (and tag) a payer typed, checked for the refund's network without storing anything:
 * the page's review step before the payer confirms. Refused as `checkClaimAddress` refuses, and an
 * invalid link as `openClaim` does.
 */
export async function reviewClaimAddress(
  db: Queryable,
  token: string,
  given: { address: string; tag: string },
  now: Date,
): Promise<{ address: string; tag: string | null }> {
  return checkClaimAddress(await refundOfLink(db, token, now, false), given);
}

/**
 * The payer confirms the address (and tag) to refund to: checked for the network, stored, and the
 * refund is ready to send (`refund.ready`). A link submits once: a second submission (a replay, or
 * another address after confirming) is refused as an invalid link.
 */
export async function confirmClaim(
  db: Database,
  token: string,
  given: { address: string; tag: string },
  now: Date,
): Promise<ClaimView> {
  const row = await db.transaction(async (tx) => {
    const refund = await refundOfLink(tx, token, now, true);
    if (refund.state !== 'awaiting_address') throw new ClaimLinkInvalid();
    const checked = checkClaimAddress(refund, given);
    return applyRefundAction(
      tx,
      refund,
      { type: 'confirm_address' },
      { address: checked.address, tag: checked.tag, addressConfirmedAt: now },
      now,
    );
  });
  return viewOf(row);
}
