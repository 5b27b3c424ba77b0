import 'server-only';
/**
 * A refund the merchant sent by hand, from any wallet, completed by its transaction id
 * (docs/decisions/092). The gateway looks the transaction up on the refund's network through the
 * family's adapter (ChainAdapter.transaction), judges it (./transfer-check.ts: it pays the
 * confirmed address, and tag, at least what the refund owes) and, only then, writes: the refund
 * `sent` (or `confirmed` at once with the network's confirmations), its event, the transaction id
 * that no other refund may carry (the database's unique index), in one transaction. A refusal
 * writes nothing. Until confirmed, the watcher re-checks it at each pass (`recheckRefundsSentByHand`),
 * and entering the same id again re-checks it at once. A transaction the re-check no longer finds
 * is recorded missing (`missing_since`); after an hour the merchant may mark the refund not sent
 * (`markRefundNotSent`, docs/decisions/129).
 */
import {
  enabledNetworks,
  liveAdapters,
  normalizeTxHash,
  requiredConfirmations,
  sandboxAdapter,
  type ChainAdapter,
  type FoundTransaction,
} from '../chains';
import { bare, param, refunds, sql, statement, type Database, type Queryable } from '../db';
import { log } from '../log';
import { type MerchantScope } from '../merchants';
import { decimalsOf } from '../orders';
import { openRefundPlan } from '../payouts';
import type { Mode, RefundResponse } from '../protocol';
import { RefundNetworkUnavailable, RefundStateConflict, RefundTransactionRefused } from './errors';
import { nextRefundState } from './lifecycle';
import { countsAsMissing, mayMarkNotSent } from './missing';
import { refundPayRefusal } from './pay-ways';
import { applyRefundAction, lockRefund, serializeRefund, type RefundRow } from './store';
import { judgeRefundTransaction, type RefundTransactionJudgement } from './transfer-check';

/** The adapter that looks a transaction up on `network` in `mode`; tests pass their own. */
export type RefundChain = (db: Database, mode: Mode, network: string) => ChainAdapter | undefined;

/** The sandbox ledger in test mode, the live network's nodes (with failover) in live mode. */
export const refundChain: RefundChain = (db, mode, network) => {
  if (mode === 'live') return liveAdapters().find((adapter) => adapter.network.name === network);
  const test = enabledNetworks('test').find((n) => n.name === network);
  return test && sandboxAdapter(db, test, requiredConfirmations('test', test));
};

const USED_BY_ANOTHER = statement<{ id: string }, { network: string; mode: string; txid: string; id: string }>(
  sql`select ${refunds.id} from ${refunds}
   where ${refunds.network} = ${param('network')} and ${refunds.mode} = ${param('mode')} and ${refunds.txid} = ${param('txid')}
     and ${refunds.id} <> ${param('id')}`,
);
/** One transaction id at a time: two refunds completed with one id at once are judged one after the other. */
const LOCK_TXID = statement<unknown, { network: string; txid: string }>(
  sql`select 1 as locked from (select pg_advisory_xact_lock(hashtext('refund_txid'), hashtext(${param('network')} || ':' || ${param('txid')}))) l`,
);
const MARK_SENT_BY_HAND = statement<RefundRow, { id: string; blockHash: string | null }>(
  sql`update ${refunds} set ${bare(refunds.sentByHand)} = true, ${bare(refunds.txBlockHash)} = ${param('blockHash')},
     ${bare(refunds.missingSince)} = null
   where ${refunds.id} = ${param('id')} returning *`,
);

function refused(judgement: RefundTransactionJudgement & { ok: false }): RefundTransactionRefused {
  return new RefundTransactionRefused(judgement.problem, judgement.message);
}

/**
 * Why `row` cannot be completed by `txid` now, before anything is asked of the chain and again
 * under its lock; null when it can. A refund an open plan pays is the plan's to pay (./pay-ways.ts).
 */
async function stateRefusal(db: Queryable, row: RefundRow, txid: string): Promise<Error | null> {
  if (row.state === 'sent') {
    if (row.txid === txid) return null; // entered again: a re-check
    return new RefundTransactionRefused(
      'sent',
      `This refund was sent by transaction ${row.txid}: only that transaction completes it.`,
    );
  }
  const openPlanId = row.state === 'ready' ? await openRefundPlan(db, row.id) : null;
  const refusal = refundPayRefusal({ ...row, openPlanId }, 'by_hand');
  return refusal === null ? null : new RefundStateConflict(refusal);
}

/**
 * Completes the caller's refund `id` by the transaction `txId` sent by hand: verified on chain,
 * then `sent` or `confirmed`. Refused, with nothing written, for an id that is not one of the
 * network's, a transaction the node does not know (or, on account chains, not in a block yet),
 * one that pays another address or tag or less than the refund owes, one that completes another
 * refund, and a refund that is not ready (or already sent by another transaction) or that an open
 * plan pays (docs/decisions/116: paid once).
 */
export interface CompleteRefundOptions {
  now: Date;
  /** Where the transaction is looked up (`refundChain` by default). */
  chain?: RefundChain;
  /** Run in the completion's own transaction after it is written: the API's nonce and the audit entry. */
  within?: (tx: Queryable, refund: RefundRow) => Promise<void>;
}

export async function completeRefundByTransaction(
  db: Database,
  scope: MerchantScope,
  id: string,
  txId: string,
  { now, chain: chainOf = refundChain, within }: CompleteRefundOptions,
): Promise<RefundResponse> {
  const row = await db.transaction((tx) => lockRefund(tx, scope, id));
  const chain = chainOf(db, scope.mode, row.network);
  const txid = chain && normalizeTxHash(chain.network, txId.trim());
  if (!chain?.transaction)
    throw new RefundTransactionRefused(
      'txId',
      `Refunds on ${row.network} cannot be completed by a transaction id yet.`,
    );
  if (!txid) throw new RefundTransactionRefused('txId', `This is not a transaction id of ${row.network}.`);
  const early = await stateRefusal(db, row, txid);
  if (early) throw early;
  if ((await USED_BY_ANOTHER.run(db, { network: row.network, mode: row.mode, txid, id: row.id })).length > 0)
    throw new RefundTransactionRefused('used', 'This transaction already completes another refund.');
  const judgement = await lookUp(chain, row, txid);
  if (!judgement.ok) throw refused(judgement);
  const written = await db.transaction(async (tx) => {
    await LOCK_TXID.run(tx, { network: row.network, txid });
    const locked = await lockRefund(tx, scope, id);
    const again = await stateRefusal(tx, locked, txid);
    if (again) throw again;
    if ((await USED_BY_ANOTHER.run(tx, { network: row.network, mode: row.mode, txid, id: row.id })).length > 0)
      throw new RefundTransactionRefused('used', 'This transaction already completes another refund.');
    const seen = await recordSeen(tx, locked, txid, judgement, chain.requiredConfirmations, now);
    await within?.(tx, seen);
    return seen;
  });
  return serializeRefund(written);
}

/** The transaction looked up and judged against `row`; a node that does not answer is a refusal to retry. */
async function lookUp(chain: ChainAdapter, row: RefundRow, txid: string): Promise<RefundTransactionJudgement> {
  return judged(chain, row, await find(chain, row, txid));
}

/** The transaction as the node shows it (null: unknown); a node that does not answer is a refusal to retry. */
async function find(chain: ChainAdapter, row: RefundRow, txid: string): Promise<FoundTransaction | null> {
  try {
    return await chain.transaction!(txid, {
      ...(row.tx_block_hash ? { blockHash: row.tx_block_hash } : {}),
      since: row.address_confirmed_at ?? row.created_at,
    });
  } catch (error) {
    log.warn('refund transaction lookup failed', { refundId: row.id, network: row.network, error });
    throw new RefundNetworkUnavailable(row.network);
  }
}

function judged(chain: ChainAdapter, row: RefundRow, found: FoundTransaction | null): RefundTransactionJudgement {
  const native = chain.network.currencies.find((c) => !c.contract)!.ticker;
  return judgeRefundTransaction(
    {
      address: row.address!,
      tag: row.tag,
      currency: row.currency,
      amount: BigInt(row.amount),
      feeFromRefund: row.fee_from_refund,
      decimals: decimalsOf(row.network, row.currency),
      nativeCurrency: native,
    },
    found,
  );
}

/**
 * Writes what the chain showed for the locked refund `row` in `tx`: its state (`sent`, or
 * `confirmed` with the confirmations), its transaction and block; a re-check that changes nothing
 * writes nothing (no second `refund.sent`).
 */
async function recordSeen(
  tx: Queryable,
  row: RefundRow,
  txid: string,
  judgement: RefundTransactionJudgement & { ok: true },
  required: number,
  now: Date,
): Promise<RefundRow> {
  const action = { type: 'seen' as const, confirmations: judgement.confirmations, required };
  const next = nextRefundState(row.state, action);
  if (!next.ok) throw new RefundStateConflict(next.reason);
  const moved = next.state === row.state ? row : await applyRefundAction(tx, row, action, { txid }, now);
  // A refund its plan sent stays the plan's (the watcher moves it with the plan); a re-check only moved it sooner.
  if (row.state !== 'ready' && !row.sent_by_hand) return moved;
  const [marked] = await MARK_SENT_BY_HAND.run(tx, { id: row.id, blockHash: judgement.blockHash });
  return marked ?? moved;
}

const SENT_BY_HAND = statement<RefundRow, { network: string; mode: string }>(
  sql`select * from ${refunds}
   where ${refunds.network} = ${param('network')} and ${refunds.mode} = ${param('mode')}
     and ${refunds.state} = 'sent' and ${refunds.sentByHand}
   order by ${refunds.updatedAt} limit 100`,
);
const LOCK_SENT = statement<RefundRow, { id: string }>(
  sql`select * from ${refunds} where ${refunds.id} = ${param('id')} and ${refunds.state} = 'sent' for update`,
);
/** The first pass that misses the transaction records when; later passes keep that time. */
const RECORD_MISSING = statement<unknown, { id: string; txid: string; now: Date }>(
  sql`update ${refunds} set ${bare(refunds.missingSince)} = ${param('now')}
   where ${refunds.id} = ${param('id')} and ${refunds.state} = 'sent' and ${refunds.txid} = ${param('txid')}
     and ${refunds.missingSince} is null`,
);

/**
 * In each watcher pass over `chain`: the refunds sent by hand that wait for confirmations are
 * looked up again; one with the network's confirmations is confirmed (its event, and the payer's
 * mail, in its own transaction). One the node no longer finds, or that no longer pays, stays sent:
 * the first such pass records since when (`missing_since`, shown on the refund), and a pass that
 * finds it again clears it. A node that does not answer changes nothing (docs/decisions/129).
 */
export async function recheckRefundsSentByHand(
  db: Database,
  chain: ChainAdapter,
  mode: Mode,
  now: Date,
): Promise<void> {
  if (!chain.transaction) return;
  for (const row of await SENT_BY_HAND.run(db, { network: chain.network.name, mode })) {
    const judgement = await lookUp(chain, row, row.txid!).catch((error: unknown) => {
      log.warn('refund sent by hand not re-checked', { refundId: row.id, error });
      return null;
    });
    if (!judgement) continue;
    if (!judgement.ok) {
      log.warn('refund sent by hand no longer verifies', { refundId: row.id, problem: judgement.problem });
      if (countsAsMissing(judgement.problem)) await RECORD_MISSING.run(db, { id: row.id, txid: row.txid!, now });
      continue;
    }
    const unchanged =
      judgement.confirmations < chain.requiredConfirmations &&
      judgement.blockHash === row.tx_block_hash &&
      row.missing_since === null;
    if (unchanged) continue;
    await db.transaction(async (tx) => {
      const [locked] = await LOCK_SENT.run(tx, { id: row.id });
      if (locked?.txid === row.txid)
        await recordSeen(tx, locked, row.txid!, judgement, chain.requiredConfirmations, now);
    });
  }
}

/**
 * "Mark as not sent" on a refund sent by hand whose transaction has been missing for an hour
 * (./missing.ts): the transaction is looked up once more, now. Found, it is refused (the refund
 * stays sent, recorded found as the watcher would); otherwise the refund `failed` (its amount
 * released: a new refund of the payment may be made) with its `refund.failed` event, in one
 * transaction. The refund keeps its transaction id: that transaction completes no other refund.
 */
export async function markRefundNotSent(
  db: Database,
  scope: MerchantScope,
  id: string,
  { now, chain: chainOf = refundChain }: { now: Date; chain?: RefundChain },
): Promise<RefundResponse> {
  const row = await db.transaction((tx) => lockRefund(tx, scope, id));
  const refusal = notSentRefusal(row, now);
  if (refusal) throw refusal;
  const chain = chainOf(db, scope.mode, row.network);
  if (!chain?.transaction) throw new RefundStateConflict(`refunds on ${row.network} cannot be looked up now`);
  const found = await find(chain, row, row.txid!);
  if (found) {
    const judgement = judged(chain, row, found);
    // Found again: the refund stays sent, recorded as found (or confirmed) as the watcher would.
    if (judgement.ok)
      await db.transaction(async (tx) => {
        const [locked] = await LOCK_SENT.run(tx, { id: row.id });
        if (locked?.txid === row.txid)
          await recordSeen(tx, locked, row.txid!, judgement, chain.requiredConfirmations, now);
      });
    throw new RefundStateConflict(
      `your node finds transaction ${row.txid} now${judgement.ok ? '' : ` (${judgement.message.replace(/\.$/, '')})`}: the refund stays sent`,
    );
  }
  const written = await db.transaction(async (tx) => {
    const locked = await lockRefund(tx, scope, id);
    const again = notSentRefusal(locked, now);
    if (again) throw again;
    return applyRefundAction(tx, locked, { type: 'dropped' }, {}, now);
  });
  return serializeRefund(written);
}

/** Why `row` cannot be marked not sent at `now`; null when it can. */
function notSentRefusal(row: RefundRow, now: Date): RefundStateConflict | null {
  if (row.state !== 'sent' || !row.sent_by_hand || !row.txid)
    return new RefundStateConflict('only a refund sent by hand, and not confirmed, can be marked not sent');
  if (!mayMarkNotSent(row.missing_since, now))
    return new RefundStateConflict(
      row.missing_since === null
        ? `your node finds transaction ${row.txid}: the refund stays sent`
        : `your node has missed transaction ${row.txid} for less than an hour: it may still reappear`,
    );
  return null;
}
