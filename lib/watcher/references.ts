import 'server-only';
/**
 * A Solana Pay reference pays once (docs/decisions/096): the first transaction carrying an order's
 * reference is the order's; one carrying it again is not, and becomes an orphan deposit of the
 * order's merchant. An order that is still short after a payment moves to a fresh reference of its
 * pool, which its payment page then asks for, so a partial payment can still be completed; with
 * no fresh one in the pool it keeps its reference, which then pays it again (docs/decisions/100).
 *
 * Both halves work through what the watcher has: an order's reference is its address row
 * (`orders.address_id`, the tag), a transfer is the order's when that row is still the order's
 * (lib/watcher/transfers), and a row no order points at any more is its merchant's (the row takes
 * the order's merchant when the order leaves it). A step records its transfers in rounds: the
 * first transaction under each reference in the first round, a second one in the next, with the
 * spent references renewed between them; a batch with no reference twice is one round.
 */
import type { Network } from '../catalog';
import type { ChainTransfer } from '../chains';
import { poolOf } from '../addresses';
import { log } from '../log';
import { addresses, alias, bare, chainTransfers, orders, param, sql, statement, type Queryable } from '../db';
import type { Mode } from '../protocol';

/**
 * `transfers` in rounds, for a network whose tags are payment references: round n holds the
 * transfers of the n-th transaction carrying each (address, reference), in the batch's order; the
 * transfers of one transaction stay in one round. Elsewhere the batch is one round.
 */
export function referenceRounds(network: Network, transfers: readonly ChainTransfer[]): ChainTransfer[][] {
  if (!network.paymentReference) return transfers.length > 0 ? [[...transfers]] : [];
  const txsOf = new Map<string, string[]>();
  const rounds: ChainTransfer[][] = [];
  for (const transfer of transfers) {
    let round = 0;
    if (transfer.tag !== null) {
      const key = `${transfer.to} ${transfer.tag}`;
      const txs = txsOf.get(key) ?? [];
      if (!txs.includes(transfer.txHash)) txs.push(transfer.txHash);
      txsOf.set(key, txs);
      round = txs.indexOf(transfer.txHash);
    }
    (rounds[round] ??= []).push(transfer);
  }
  return rounds;
}

const r = alias(chainTransfers, 'r');

/**
 * The pending orders a transfer among `ids` was credited to under their current reference, which
 * are still short of their threshold in their currency: their reference is spent.
 */
const SPENT = statement<{ order_id: string; merchant_id: string; address_id: string }, { ids: string[] }>(
  sql`select distinct ${orders.id} as order_id, ${orders.merchantId} as merchant_id, ${orders.addressId} as address_id
    from ${chainTransfers} join ${orders} on ${orders.id} = ${chainTransfers.orderId} and ${orders.addressId} = ${chainTransfers.addressId}
   where ${chainTransfers.id} = any(${param('ids')}::uuid[]) and ${orders.status} = 'pending'
     and (select coalesce(sum(${r.amount}), 0) from ${chainTransfers} r
           where ${r.orderId} = ${orders.id} and ${r.currency} = ${orders.currency} and not ${r.dropped}) < ${orders.threshold}`,
);

/**
 * Moves one order from its spent reference to the next position of its pool, and gives the spent
 * row the order's merchant (a later payment under it is that merchant's orphan deposit). Nothing
 * when the pool has no address there yet (the order moved already is excluded by SPENT): the order
 * then keeps its reference, which pays it again, as a destination tag does, until a payment that
 * leaves it short finds a fresh one (docs/decisions/100).
 */
const RENEW = statement<
  { tag: string | null },
  {
    sequence: string;
    network: string;
    mode: Mode;
    keyFingerprint: string;
    orderId: string;
    spentAddressId: string;
    merchantId: string;
  }
>(
  sql`with ticket as (
    select nextval(${param('sequence')}::regclass) as position
  ), fresh as (
    select ${addresses.id} as id, ${addresses.address} as address, ${addresses.tag} as tag from ${addresses}
     where ${addresses.network} = ${param('network')} and ${addresses.mode} = ${param('mode')}
       and ${addresses.keyFingerprint} = ${param('keyFingerprint')} and ${addresses.derivationIndex} = (select position from ticket)
  ), spent as (
    update ${addresses} set ${bare(addresses.merchantId)} = ${param('merchantId')}
     where ${addresses.id} = ${param('spentAddressId')} and ${addresses.merchantId} is null and exists (select 1 from fresh)
    returning 1
  )
  update ${orders} set ${bare(orders.addressId)} = fresh.id, ${bare(orders.address)} = fresh.address, ${bare(orders.tag)} = fresh.tag
    from fresh
   where ${orders.id} = ${param('orderId')} and ${orders.addressId} = ${param('spentAddressId')}
  returning fresh.tag`,
);

/** Renews the spent references of the orders the transfers `ids` paid (see the file's comment). */
export async function renewSpentReferences(
  tx: Queryable,
  network: Network,
  mode: Mode,
  ids: readonly string[],
): Promise<void> {
  if (!network.paymentReference || ids.length === 0) return;
  for (const spent of await SPENT.run(tx, { ids: [...ids] })) {
    const pool = await poolOf(tx, network, mode, spent.merchant_id);
    const renewed = await RENEW.run(tx, {
      sequence: pool.sequence,
      network: network.name,
      mode,
      keyFingerprint: pool.keyFingerprint,
      orderId: spent.order_id,
      spentAddressId: spent.address_id,
      merchantId: spent.merchant_id,
    });
    // SPENT named it under its current reference: nothing renewed means an empty pool (decision 100).
    if (renewed.length === 0)
      log.warn('a spent payment reference is kept: its pool has no fresh one', {
        network: network.name,
        mode,
        orderId: spent.order_id,
      });
  }
}
