import 'server-only';
/**
 * What a Tron plan's token transfer burned from its deposit address (docs/decisions/117). Without
 * stake, a plan's `fund` step sends the address the TRX its `transfer` burns for energy and
 * bandwidth (with stake, an `activate` or `fund` step sends the bandwidth it burns); the watcher
 * records the fund as a TRX transfer in, and the address's TRX Funds line sums it. When the watcher
 * sees that transfer in a scanned block, its fee (the node's TransactionInfo `fee`) is what left
 * the address: the fund it burned whole is spent by that transaction, as a collected deposit is
 * (`spent_by_tx`, undone by a reorganisation like any spend), and leaves the line; of a fund it
 * burned in part, the fee is recorded spent (`partial_spends`, decision 122), and the line keeps
 * the rest, what the node says is left. Once per transaction: seeing the block again changes nothing.
 */
import type { Network } from '../catalog';
import type { ChainTransfer } from '../chains';
import {
  bare,
  chainTransfers,
  collectionPlans,
  param,
  partialSpends,
  sql,
  statement,
  unnest,
  type Queryable,
} from '../db';
import type { Mode } from '../protocol';

const BURNED = unnest('b', { sender: 'text', tx_hash: 'text', fee: 'numeric', block_height: 'bigint' });
const b = BURNED.ref;
/**
 * The TRX rows a plan's `fund` (or `activate`) step paid to an address whose `transfer` step, sent
 * by that address, burned TRX (`b.fee`). Plan, address and both steps come from the stored plan the
 * signer signed: no other transfer in is taken for a fund. Every token transfer of a block burns
 * its sender's TRX; only an open plan's own transfer matches one.
 */
const FUNDS_BURNED = {
  from: sql`${BURNED.from}, ${collectionPlans},
        jsonb_array_elements(${collectionPlans.body}->'addresses') item,
        jsonb_array_elements(item->'steps') fund, jsonb_array_elements(item->'steps') spender`,
  where: sql`${chainTransfers.network} = ${param('network')} and ${chainTransfers.mode} = ${param('mode')}
    and ${chainTransfers.currency} = ${param('coin')} and ${chainTransfers.spentByTx} is null and ${chainTransfers.dropped} = false
    and ${collectionPlans.network} = ${param('network')} and ${collectionPlans.mode} = ${param('mode')}
    and ${collectionPlans.format} = 'tron' and ${collectionPlans.merchantId} = ${chainTransfers.merchantId}
    -- Seen before the step moves its plan: the plan is open then, and the open ones are few.
    and ${collectionPlans.status} in ('prepared', 'broadcast')
    and item->>'address' = ${b.sender}
    and fund->>'step' in ('fund', 'activate') and lower(fund->>'txID') = lower(${chainTransfers.txHash})
    and spender->>'step' = 'transfer' and lower(spender->>'txID') = lower(${b.tx_hash})`,
};
type BurnParams = { network: string; mode: Mode; coin: string };

/** A fund burned whole (its amount at most the fee) is spent by the transfer, as a collected deposit is. */
const SPEND_BURNED_FUNDS = statement<unknown, BurnParams>(sql`update ${chainTransfers}
    set ${bare(chainTransfers.spentByTx)} = ${b.tx_hash}, ${bare(chainTransfers.spentAtHeight)} = ${b.block_height}
   from ${FUNDS_BURNED.from}
  where ${FUNDS_BURNED.where} and ${chainTransfers.amount} <= ${b.fee}`);

/**
 * A fund burned in part (the energy price fell between the plan and its broadcast) keeps what the
 * fee left of it: the fee is recorded as spent from it (decision 122), once per transfer.
 */
const SPEND_PART_OF_FUNDS = statement<unknown, BurnParams>(sql`insert into ${partialSpends}
    (${bare(partialSpends.transferId)}, ${bare(partialSpends.txHash)}, ${bare(partialSpends.amount)}, ${bare(partialSpends.spentAtHeight)})
  select ${chainTransfers.id}, ${b.tx_hash}, ${b.fee}, ${b.block_height}
   from ${chainTransfers}, ${FUNDS_BURNED.from}
  where ${FUNDS_BURNED.where} and ${chainTransfers.amount} > ${b.fee}
  on conflict do nothing`);

/**
 * In a watcher step of Tron, before its plans move: each scanned token transfer that burned its
 * sender's TRX spends the fund a plan sent it for that.
 */
export async function spendBurnedFunds(
  tx: Queryable,
  network: Network,
  mode: Mode,
  transfers: readonly ChainTransfer[],
): Promise<void> {
  if (network.family !== 'tron') return;
  const burned = transfers.filter((t) => t.from !== null && t.blockHeight !== null && (t.senderFee ?? 0n) > 0n);
  if (burned.length === 0) return;
  const params = {
    network: network.name,
    mode,
    coin: network.currencies.find((c) => !c.contract)!.ticker,
    ...BURNED.values(
      burned.map((t) => ({
        sender: t.from,
        tx_hash: t.txHash,
        fee: t.senderFee!.toString(),
        block_height: t.blockHeight,
      })),
    ),
  };
  await SPEND_BURNED_FUNDS.run(tx, params);
  await SPEND_PART_OF_FUNDS.run(tx, params);
}
