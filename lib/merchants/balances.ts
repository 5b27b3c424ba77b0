import 'server-only';
import { currencyPairs } from '../catalog';
import { enabledNetworks } from '../chains';
import type { Queryable } from '../db';
import { formatUnits } from '../money';
import type { AdvancedBalance } from '../protocol';
import type { ApiKey } from './keys';

/**
 * The merchant's advance balance: the fee account the operator's processing fee is booked on
 * (seed: advancedBalanceId). Always a non-empty array; clients read the first element's id.
 * The balance is kept in US cents and answered as a decimal string.
 */
export async function advancedBalances(db: Queryable, key: ApiKey): Promise<AdvancedBalance[]> {
  const rows = await db.query<{ id: string; currency: string; balance: string }>(
    `insert into advanced_balances (merchant_id, mode) values ($1, $2)
     on conflict (merchant_id, mode) do update set merchant_id = excluded.merchant_id
     returning id, currency, balance::text`,
    [key.merchantId, key.mode],
  );
  const currencies = [...new Set(currencyPairs(enabledNetworks(key.mode)).map((p) => p.currency.ticker))];
  return rows.map((row): AdvancedBalance => ({
    advancedBalanceId: row.id,
    currency: row.currency,
    balance: formatUnits(BigInt(row.balance), 2),
    availableCurrenciesForDeposit: currencies,
  }));
}
