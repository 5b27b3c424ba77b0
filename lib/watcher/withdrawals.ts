import 'server-only';
/**
 * The outgoing side of a watcher step: a transfer that leaves a deposit address, or on UTXO chains
 * spends a deposit's output, is the withdrawal of the deposits the deposit state machine lets it
 * withdraw (lib/deposits `onOutgoing`, decision 019): one statement per batch of blocks for each.
 */
import type { ChainSpend, ChainTransfer } from '../chains';
import type { Network } from '../catalog';
import type { Queryable } from '../db';
import { OUT_STATUS, WITHDRAWALS } from '../deposits';
import type { Mode } from '../protocol';

/** The withdrawals the state machine allows, as a table each statement joins the deposits on: $8 to $11, and the out status $12. */
const WITHDRAWAL_TABLE = 'unnest($8::text[], $9::text[], $10::text[], $11::text[]) as w(from_stage, from_status, to_stage, to_status)';
const WITHDRAWAL_PARAMS = [
  WITHDRAWALS.map((w) => w.from.stage), WITHDRAWALS.map((w) => w.from.status), WITHDRAWALS.map((w) => w.to.stage),
  WITHDRAWALS.map((w) => w.to.status), OUT_STATUS,
];

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
async function recordOutgoing(tx: Queryable, network: Network, mode: Mode, transfers: readonly ChainTransfer[]): Promise<void> {
  // A tag network's one shared address sends for everyone: its outgoing transfers belong to no deposit.
  const outgoing = network.usesTags ? [] : transfers.filter((t) => t.from !== null);
  if (outgoing.length === 0) return;
  await tx.query(
    `update deposits d set stage = w.to_stage, status = w.to_status, out_address = o.to_address, out_tx_hash = o.tx_hash,
            out_amount = o.amount, out_status = $12, out_created_at = o.seen_at
       from unnest($3::text[], $4::text[], $5::text[], $6::numeric[], $7::timestamptz[]) as o(sender, to_address, tx_hash, amount, seen_at),
            addresses a, ${WITHDRAWAL_TABLE}
      where a.network = $1 and a.mode = $2 and a.address = o.sender and d.address_id = a.id
        and d.stage = w.from_stage and d.status = w.from_status`,
    [
      network.name, mode, outgoing.map((t) => t.from), outgoing.map((t) => t.to), outgoing.map((t) => t.txHash),
      outgoing.map((t) => t.amount.toString()), outgoing.map((t) => t.seenAt), ...WITHDRAWAL_PARAMS,
    ],
  );
}

/**
 * UTXO chains: an input spending the output of a deposit is that deposit's withdrawal (inputs do
 * not always name their address; the outpoint is exact). Matched on the deposits' unique
 * (network, mode, tx, output) key, so the cost follows the block's inputs, not the deposits.
 */
async function recordSpends(tx: Queryable, network: string, mode: Mode, spends: readonly ChainSpend[]): Promise<void> {
  if (spends.length === 0) return;
  await tx.query(
    `update deposits d set stage = w.to_stage, status = w.to_status, out_address = s.to_address, out_tx_hash = s.tx_hash,
            out_amount = d.amount, out_status = $12, out_created_at = s.seen_at
       from unnest($3::text[], $4::int[], $5::text[], $6::text[], $7::timestamptz[]) as s(spent_tx, spent_index, tx_hash, to_address, seen_at),
            ${WITHDRAWAL_TABLE}
      where d.network = $1 and d.mode = $2 and d.in_tx_hash = s.spent_tx and d.in_output_index = s.spent_index
        and d.stage = w.from_stage and d.status = w.from_status`,
    [
      network, mode, spends.map((s) => s.spentTxHash), spends.map((s) => s.spentOutputIndex), spends.map((s) => s.txHash),
      spends.map((s) => s.to), spends.map((s) => s.seenAt), ...WITHDRAWAL_PARAMS,
    ],
  );
}
