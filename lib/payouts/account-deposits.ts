import 'server-only';
/**
 * What an account chain's collection plan may take (EVM, Tron; docs/decisions/093): the merchant's
 * incoming transfers of one currency that the watcher saw confirmed, not yet collected (no
 * `spent_by_tx`: the watcher writes it when the plan's transfer out to the treasury is seen) and in
 * no open plan. The node's balance of each address is what moves; these rows are what the plan is
 * held to, and what the Funds report stops counting once the plan is confirmed.
 */
import { addresses, chainTransfers, collectionPlanInputs, param, sql, statement, type Queryable } from '../db';
import type { Mode } from '../protocol';

export interface AccountDeposit {
  /** The chain transfer's id. */
  id: string;
  address: string;
  derivation_index: number;
  kind: 'PAY_IN' | 'PERSONAL';
  amount: string;
}

const ACCOUNT_DEPOSITS = statement<
  AccountDeposit,
  { merchantId: string; mode: Mode; network: string; currency: string; confirmedAt: number }
>(sql`select ${chainTransfers.id} as id, ${addresses.address} as address, ${addresses.derivationIndex} as derivation_index,
    ${addresses.kind} as kind, ${chainTransfers.amount}::text as amount
  from ${chainTransfers} join ${addresses} on ${addresses.id} = ${chainTransfers.addressId}
  where ${chainTransfers.merchantId} = ${param('merchantId')} and ${chainTransfers.mode} = ${param('mode')}
    and ${chainTransfers.network} = ${param('network')} and ${chainTransfers.currency} = ${param('currency')}
    and ${chainTransfers.spentByTx} is null and ${chainTransfers.dropped} = false
    and ${chainTransfers.blockHeight} <= ${param('confirmedAt')} and ${addresses.derivationIndex} >= 0
    and not exists (select 1 from ${collectionPlanInputs} where ${collectionPlanInputs.transferId} = ${chainTransfers.id} and ${collectionPlanInputs.open})
  order by ${addresses.derivationIndex}, ${chainTransfers.blockHeight}, ${chainTransfers.id}`);

/** The collectable transfers of `currency` on `network`, grouped by address in derivation order. */
export async function accountDeposits(
  db: Queryable,
  query: { merchantId: string; mode: Mode; network: string; currency: string; confirmedAt: number },
): Promise<Map<string, AccountDeposit[]>> {
  const byAddress = new Map<string, AccountDeposit[]>();
  for (const row of await ACCOUNT_DEPOSITS.run(db, query)) {
    const list = byAddress.get(row.address) ?? [];
    list.push({ ...row, derivation_index: Number(row.derivation_index) });
    byAddress.set(row.address, list);
  }
  return byAddress;
}
