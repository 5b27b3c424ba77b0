import 'server-only';
/**
 * The outgoing side of a watcher step: a transfer that leaves a deposit address, or on UTXO chains
 * spends a deposit's output, is the withdrawal of the deposits the deposit state machine lets it
 * withdraw (lib/deposits `onOutgoing`, decision 019): one statement per batch of blocks for each.
 */
import type { ChainSpend, ChainTransfer } from '../chains';
import type { Network } from '../catalog';
import { addresses, bare, chainTransfers, deposits, param, sql, statement, unnest, type Queryable } from '../db';
import { OUT_STATUS, WITHDRAWALS } from '../deposits';
import type { Mode } from '../protocol';

/**
 * The withdrawals the state machine allows, as a table each statement joins the deposits on (its
 * arrays the same on every call), and the out status each writes (a value fixed in the template).
 */
const WITHDRAWAL_TABLE = unnest('w', { from_stage: 'text', from_status: 'text', to_stage: 'text', to_status: 'text' });
const WITHDRAWAL_VALUES = WITHDRAWAL_TABLE.values(
  WITHDRAWALS.map((w) => ({
    from_stage: w.from.stage,
    from_status: w.from.status,
    to_stage: w.to.stage,
    to_status: w.to.status,
  })),
);
const w = WITHDRAWAL_TABLE.ref;
/** What a withdrawal writes on its deposit, but for the outgoing transfer's own columns. */
const WITHDRAWN = sql`${bare(deposits.stage)} = ${w.to_stage}, ${bare(deposits.status)} = ${w.to_status}, ${bare(deposits.outStatus)} = ${OUT_STATUS}`;

const OUTGOING = unnest('o', {
  sender: 'text',
  to_address: 'text',
  tx_hash: 'text',
  amount: 'numeric',
  seen_at: 'timestamptz',
});
const o = OUTGOING.ref;
const RECORD_OUTGOING = statement<unknown, { network: string; mode: Mode }>(sql`update ${deposits}
    set ${WITHDRAWN}, ${bare(deposits.outAddress)} = ${o.to_address}, ${bare(deposits.outTxHash)} = ${o.tx_hash}, ${bare(deposits.outAmount)} = ${o.amount},
        ${bare(deposits.outCreatedAt)} = ${o.seen_at}
   from ${OUTGOING.from}, ${addresses}, ${WITHDRAWAL_TABLE.from}
  where ${addresses.network} = ${param('network')} and ${addresses.mode} = ${param('mode')} and ${addresses.address} = ${o.sender}
    and ${deposits.addressId} = ${addresses.id} and ${deposits.stage} = ${w.from_stage} and ${deposits.status} = ${w.from_status}`);

const SPENDS = unnest('s', {
  spent_tx: 'text',
  spent_index: 'integer',
  tx_hash: 'text',
  to_address: 'text',
  seen_at: 'timestamptz',
  block_height: 'bigint',
});
const s = SPENDS.ref;
const RECORD_SPENDS = statement<unknown, { network: string; mode: Mode }>(sql`update ${deposits}
    set ${WITHDRAWN}, ${bare(deposits.outAddress)} = ${s.to_address}, ${bare(deposits.outTxHash)} = ${s.tx_hash},
        ${bare(deposits.outAmount)} = ${deposits.amount}, ${bare(deposits.outCreatedAt)} = ${s.seen_at}
   from ${SPENDS.from}, ${WITHDRAWAL_TABLE.from}
  where ${deposits.network} = ${param('network')} and ${deposits.mode} = ${param('mode')} and ${deposits.inTxHash} = ${s.spent_tx}
    and ${deposits.inOutputIndex} = ${s.spent_index} and ${deposits.stage} = ${w.from_stage} and ${deposits.status} = ${w.from_status}`);

/**
 * Every spent output of ours, whatever it paid (an order, a deposit): funds are the outputs not
 * spent, and a collection plan is confirmed, or stale, by what spent its inputs (lib/payouts).
 */
const MARK_SPENT = statement<unknown, { network: string; mode: Mode }>(sql`update ${chainTransfers}
    set ${bare(chainTransfers.spentByTx)} = ${s.tx_hash}, ${bare(chainTransfers.spentAtHeight)} = ${s.block_height}
   from ${SPENDS.from}
  where ${chainTransfers.network} = ${param('network')} and ${chainTransfers.mode} = ${param('mode')}
    and ${chainTransfers.txHash} = ${s.spent_tx} and ${chainTransfers.outputIndex} = ${s.spent_index}`);

/** Records the withdrawals in a batch of blocks: outgoing transfers from deposit addresses, and spent deposit outputs. */
export async function recordWithdrawals(
  tx: Queryable,
  network: Network,
  mode: Mode,
  transfers: readonly ChainTransfer[],
  spends: readonly ChainSpend[],
): Promise<void> {
  await recordOutgoing(tx, network, mode, transfers);
  await recordSpends(tx, network.name, mode, spends);
}

/** An outgoing transfer from a deposit address is the withdrawal of that address's deposits. */
async function recordOutgoing(
  tx: Queryable,
  network: Network,
  mode: Mode,
  transfers: readonly ChainTransfer[],
): Promise<void> {
  // A tag network's one shared address sends for everyone: its outgoing transfers belong to no deposit.
  const outgoing = network.usesTags ? [] : transfers.filter((t) => t.from !== null);
  if (outgoing.length === 0) return;
  await RECORD_OUTGOING.run(tx, {
    network: network.name,
    mode,
    ...OUTGOING.values(
      outgoing.map((t) => ({
        sender: t.from,
        to_address: t.to,
        tx_hash: t.txHash,
        amount: t.amount.toString(),
        seen_at: t.seenAt,
      })),
    ),
    ...WITHDRAWAL_VALUES,
  });
}

/**
 * UTXO chains: an input spending the output of a deposit is that deposit's withdrawal (inputs do
 * not always name their address; the outpoint is exact). Matched on the deposits' unique
 * (network, mode, tx, output) key, so the cost follows the block's inputs, not the deposits.
 */
async function recordSpends(tx: Queryable, network: string, mode: Mode, spends: readonly ChainSpend[]): Promise<void> {
  if (spends.length === 0) return;
  const values = SPENDS.values(
    spends.map((s) => ({
      spent_tx: s.spentTxHash,
      spent_index: s.spentOutputIndex,
      tx_hash: s.txHash,
      to_address: s.to,
      seen_at: s.seenAt,
      block_height: s.blockHeight ?? null,
    })),
  );
  await RECORD_SPENDS.run(tx, { network, mode, ...values, ...WITHDRAWAL_VALUES });
  await MARK_SPENT.run(tx, { network, mode, ...values });
}
