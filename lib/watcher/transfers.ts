import 'server-only';
/**
 * The incoming side of a watcher step: transfers to our deposit addresses, matched and recorded in
 * `chain_transfers` (the order state machine's input), the ones the chain dropped, and the ones
 * still gaining confirmations. Each adds the ids it touched to the step's `touched` set, which
 * the step then settles.
 */
import type { ChainTransfer } from '../chains';
import type { chainTransfers, Queryable, RowOf } from '../db';
import type { Mode } from '../protocol';

type Id = Pick<RowOf<typeof chainTransfers>, 'id'>;

/**
 * Records the transfers that reach one of our deposit addresses (one query to match them all),
 * linking each to its order on first sight. Answers how many matched; adds their ids to `touched`.
 * On a tag network a transfer to the receiving account whose tag is no order's (or that has none)
 * falls back to the account's untagged row, whose merchant gets it as an orphan deposit
 * (docs/decisions/034); elsewhere every tag is null and the match is exact. The tag the transfer
 * carried is kept on its row either way, so the merchant sees which one the payer used.
 */
export async function recordIncoming(tx: Queryable, network: string, mode: Mode, transfers: readonly ChainTransfer[], touched: Set<string>): Promise<number> {
  if (transfers.length === 0) return 0;
  const rows = await tx.query<Id>(
    `with incoming as (
       select * from unnest($3::text[], $4::int[], $5::text[], $6::text[], $7::text[], $8::text[], $9::numeric[], $10::bigint[], $11::timestamptz[])
         as t(tx_hash, output_index, sender, address, tag, currency, amount, block_height, seen_at)
     ), matched as (
       select i.*, a.id as address_id, a.kind, a.merchant_id as address_merchant,
              case when a.kind = 'PERSONAL' then
                (select o.id from orders o where o.address_id = a.id and o.currency = i.currency and o.status = 'pending'
                    and o.created_at <= i.seen_at order by o.created_at desc limit 1)
              else (select o.id from orders o where o.address_id = a.id limit 1) end as order_id
         from incoming i
         -- Two seeks of the unique index on (network, mode, address, coalesce(tag, '')): the exact
         -- destination, then the untagged row. One condition with an OR would read every row of
         -- the address, every open order's tag on a shared receiving account.
         join lateral (
           select * from (
             (select * from addresses a
               where a.network = $1 and a.mode = $2 and a.address = i.address and coalesce(a.tag, '') = coalesce(i.tag, '') limit 1)
             union all
             (select * from addresses a
               where a.network = $1 and a.mode = $2 and a.address = i.address and coalesce(a.tag, '') = '' limit 1)
           ) c
           order by c.tag is null limit 1
         ) a on true
     )
     insert into chain_transfers (network, mode, tx_hash, output_index, address_id, order_id, merchant_id, currency, amount, sender,
                                  block_height, first_seen_at, tag)
     select $1, $2, m.tx_hash, m.output_index, m.address_id, m.order_id, coalesce(o.merchant_id, m.address_merchant), m.currency, m.amount,
            m.sender, m.block_height, m.seen_at, m.tag
       from matched m left join orders o on o.id = m.order_id
      where coalesce(o.merchant_id, m.address_merchant) is not null
     on conflict (network, mode, tx_hash, output_index) do update
       set block_height = coalesce(excluded.block_height, chain_transfers.block_height),
           first_seen_at = least(chain_transfers.first_seen_at, excluded.first_seen_at),
           dropped = false
     returning id`,
    [
      network, mode,
      transfers.map((t) => t.txHash), transfers.map((t) => t.outputIndex), transfers.map((t) => t.from), transfers.map((t) => t.to),
      transfers.map((t) => t.tag), transfers.map((t) => t.currency), transfers.map((t) => t.amount.toString()),
      transfers.map((t) => t.blockHeight), transfers.map((t) => t.seenAt),
    ],
  );
  for (const row of rows) touched.add(row.id);
  return rows.length;
}

/**
 * Once the watcher is at the tip: a transfer that is in no scanned block and no longer in the
 * mempool was dropped (replaced, expired from the mempool, or lost in a reorganisation).
 */
export async function dropVanished(tx: Queryable, network: string, mode: Mode, mempool: readonly ChainTransfer[], touched: Set<string>): Promise<void> {
  const rows = await tx.query<Id>(
    `update chain_transfers c set dropped = true
      where network = $1 and mode = $2 and block_height is null and dropped = false
        and not exists (select 1 from unnest($3::text[], $4::int[]) as m(tx_hash, output_index)
                         where m.tx_hash = c.tx_hash and m.output_index = c.output_index)
      returning id`,
    [network, mode, mempool.map((t) => t.txHash), mempool.map((t) => t.outputIndex)],
  );
  for (const row of rows) touched.add(row.id);
}

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
  const rows = await tx.query<Id>(
    `select id from chain_transfers where network = $1 and mode = $2 and dropped = false
        and (block_height is null or block_height > $3)`,
    [network, mode, fromHeight - requiredConfirmations],
  );
  for (const row of rows) touched.add(row.id);
}
