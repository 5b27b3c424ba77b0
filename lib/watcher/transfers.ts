import 'server-only';
/**
 * The incoming side of a watcher step: transfers to our deposit addresses, matched and recorded in
 * `chain_transfers` (the order state machine's input), the ones the chain dropped, and the ones
 * still gaining confirmations. Each adds the ids it touched to the step's `touched` set, which
 * the step then settles.
 */
import type { ChainTransfer } from '../chains';
import {
  addresses,
  alias,
  bare,
  chainTransfers,
  orders,
  param,
  sql,
  statement,
  unnest,
  type Queryable,
  type RowOf,
} from '../db';
import type { Mode } from '../protocol';

type Id = Pick<RowOf<typeof chainTransfers>, 'id'>;

const INCOMING = unnest('t', {
  tx_hash: chainTransfers.txHash,
  output_index: chainTransfers.outputIndex,
  sender: chainTransfers.sender,
  address: 'text',
  tag: chainTransfers.tag,
  currency: chainTransfers.currency,
  amount: 'numeric',
  block_height: chainTransfers.blockHeight,
  block_hash: chainTransfers.blockHash,
  seen_at: 'timestamptz',
  // The outpoints joined by spaces: an array per row does not fit an unnest of arrays.
  spent_outpoints: 'text',
});
const a = alias(addresses, 'a');
const o = alias(orders, 'o');
const r = alias(chainTransfers, 'r');
/** The columns the insert writes, in the order of its select list. */
const RECORDED = sql.join(
  [
    chainTransfers.network,
    chainTransfers.mode,
    chainTransfers.txHash,
    chainTransfers.outputIndex,
    chainTransfers.addressId,
    chainTransfers.orderId,
    chainTransfers.merchantId,
    chainTransfers.currency,
    chainTransfers.amount,
    chainTransfers.sender,
    chainTransfers.blockHeight,
    chainTransfers.firstSeenAt,
    chainTransfers.tag,
    chainTransfers.spentOutpoints,
    chainTransfers.blockHash,
  ].map(bare),
  sql`, `,
);
// `incoming`, `matched` and their columns are the statement's own (no schema object names them).
const RECORD_INCOMING = statement<Id, { network: string; mode: Mode }>(sql`with incoming as (
    select * from ${INCOMING.from}
  ), matched as (
    select i.*, ${a.id} as address_id, ${a.kind}, ${a.merchantId} as address_merchant,
           case when ${a.kind} = 'PERSONAL' then
             (select ${o.id} from ${orders} o where ${o.addressId} = ${a.id} and ${o.currency} = i.currency and ${o.status} = 'pending'
                 and ${o.createdAt} <= i.seen_at order by ${o.createdAt} desc limit 1)
           else (select ${o.id} from ${orders} o where ${o.addressId} = ${a.id} limit 1) end as order_id
      from incoming i
      -- Two seeks of the unique index on (network, mode, address, coalesce(tag, '')): the exact
      -- destination, then the untagged row. One condition with an OR would read every row of
      -- the address, every open order's tag on a shared receiving account.
      join lateral (
        select * from (
          (select * from ${addresses} a
            where ${a.network} = ${param('network')} and ${a.mode} = ${param('mode')} and ${a.address} = i.address and coalesce(${a.tag}, '') = coalesce(i.tag, '') limit 1)
          union all
          (select * from ${addresses} a
            where ${a.network} = ${param('network')} and ${a.mode} = ${param('mode')} and ${a.address} = i.address and coalesce(${a.tag}, '') = '' limit 1)
        ) c
        order by c.tag is null limit 1
      ) a on true
  )
  insert into ${chainTransfers} (${RECORDED})
  select ${param('network')}, ${param('mode')}, m.tx_hash, m.output_index, m.address_id, m.order_id, coalesce(${o.merchantId}, m.address_merchant), m.currency,
         m.amount, m.sender, m.block_height,
         -- A replacement (fee bump) of an earlier transfer to the same order and address, which
         -- spent some of the same outputs, is the same payment: it keeps the earlier sighting.
         least(m.seen_at, (select min(${r.firstSeenAt}) from ${chainTransfers} r
                            where ${r.orderId} = m.order_id and ${r.addressId} = m.address_id and ${r.txHash} <> m.tx_hash
                              and ${r.spentOutpoints} && string_to_array(m.spent_outpoints, ' '))),
         m.tag, string_to_array(m.spent_outpoints, ' '), m.block_hash
    from matched m left join ${orders} o on ${o.id} = m.order_id
   where coalesce(${o.merchantId}, m.address_merchant) is not null
  on conflict (${bare(chainTransfers.network)}, ${bare(chainTransfers.mode)}, ${bare(chainTransfers.txHash)}, ${bare(chainTransfers.outputIndex)}) do update
    set ${bare(chainTransfers.blockHeight)} = coalesce(excluded.${bare(chainTransfers.blockHeight)}, ${chainTransfers.blockHeight}),
        ${bare(chainTransfers.blockHash)} = coalesce(excluded.${bare(chainTransfers.blockHash)}, ${chainTransfers.blockHash}),
        ${bare(chainTransfers.firstSeenAt)} = least(${chainTransfers.firstSeenAt}, excluded.${bare(chainTransfers.firstSeenAt)}),
        ${bare(chainTransfers.sender)} = coalesce(excluded.${bare(chainTransfers.sender)}, ${chainTransfers.sender}),
        ${bare(chainTransfers.spentOutpoints)} = coalesce(excluded.${bare(chainTransfers.spentOutpoints)}, ${chainTransfers.spentOutpoints}),
        ${bare(chainTransfers.dropped)} = false
  returning ${bare(chainTransfers.id)}`);

/**
 * Records the transfers that reach one of our deposit addresses (one query to match them all),
 * linking each to its order on first sight. A sighting that names the sender fills in one that
 * did not: a UTXO mempool entry comes without its inputs' addresses, its block names them, and
 * risk screening needs the sender (an unknown one never screens clean: lib/orders/lifecycle).
 * A replacement by fee keeps the first sighting of the transaction it replaced (same order and
 * address, some of the same outputs spent): a bump after the deadline leaves a payment broadcast
 * before it in time. Answers how many matched; adds their ids to `touched`.
 * On a tag network a transfer to the receiving account whose tag is no order's (or that has none)
 * falls back to the account's untagged row, whose merchant gets it as an orphan deposit
 * (docs/decisions/034); elsewhere every tag is null and the match is exact. The tag the transfer
 * carried is kept on its row either way, so the merchant sees which one the payer used.
 */
export async function recordIncoming(
  tx: Queryable,
  network: string,
  mode: Mode,
  transfers: readonly ChainTransfer[],
  touched: Set<string>,
): Promise<number> {
  if (transfers.length === 0) return 0;
  const rows = await RECORD_INCOMING.run(tx, {
    network,
    mode,
    ...INCOMING.values(
      transfers.map((t) => ({
        tx_hash: t.txHash,
        output_index: t.outputIndex,
        sender: t.from,
        address: t.to,
        tag: t.tag,
        currency: t.currency,
        amount: t.amount.toString(),
        block_height: t.blockHeight,
        block_hash: t.blockHash ?? null,
        seen_at: t.seenAt,
        spent_outpoints: t.spentOutpoints?.join(' ') ?? null,
      })),
    ),
  });
  for (const row of rows) touched.add(row.id);
  return rows.length;
}

const IN_MEMPOOL = unnest('m', { tx_hash: chainTransfers.txHash, output_index: chainTransfers.outputIndex });
const DROP_VANISHED = statement<
  Id,
  { network: string; mode: Mode }
>(sql`update ${chainTransfers} set ${bare(chainTransfers.dropped)} = true
  where ${chainTransfers.network} = ${param('network')} and ${chainTransfers.mode} = ${param('mode')} and ${chainTransfers.blockHeight} is null
    and ${chainTransfers.dropped} = false
    and not exists (select 1 from ${IN_MEMPOOL.from} where ${IN_MEMPOOL.ref.tx_hash} = ${chainTransfers.txHash} and ${IN_MEMPOOL.ref.output_index} = ${chainTransfers.outputIndex})
  returning ${bare(chainTransfers.id)}`);

/**
 * Once the watcher is at the tip: a transfer that is in no scanned block and no longer in the
 * mempool was dropped (replaced, expired from the mempool, or lost in a reorganisation).
 */
export async function dropVanished(
  tx: Queryable,
  network: string,
  mode: Mode,
  mempool: readonly ChainTransfer[],
  touched: Set<string>,
): Promise<void> {
  const rows = await DROP_VANISHED.run(tx, {
    network,
    mode,
    ...IN_MEMPOOL.values(mempool.map((t) => ({ tx_hash: t.txHash, output_index: t.outputIndex }))),
  });
  for (const row of rows) touched.add(row.id);
}

const STILL_CONFIRMING = statement<
  Id,
  { network: string; mode: Mode; above: number }
>(sql`select ${chainTransfers.id} from ${chainTransfers}
  where ${chainTransfers.network} = ${param('network')} and ${chainTransfers.mode} = ${param('mode')} and ${chainTransfers.dropped} = false
    and (${chainTransfers.blockHeight} is null or ${chainTransfers.blockHeight} > ${param('above')})`);

/**
 * Transfers that may have gained their confirmations in this step, which started from the block
 * at `fromHeight`: those in no block, and those in a block fewer than the required confirmations
 * below it.
 */
export async function stillConfirming(
  tx: Queryable,
  network: string,
  mode: Mode,
  fromHeight: number,
  requiredConfirmations: number,
  touched: Set<string>,
): Promise<void> {
  const rows = await STILL_CONFIRMING.run(tx, { network, mode, above: fromHeight - requiredConfirmations });
  for (const row of rows) touched.add(row.id);
}
