import 'server-only';
import { currencyPairs } from '../catalog';
import { enabledNetworks } from '../chains';
import { advancedBalances, bare, param, sql, statement, type Queryable, type RowOf } from '../db';
import { formatUnits } from '../money';
import { processSlot } from '../process';
import type { AdvancedBalance, Mode } from '../protocol';
import type { ApiKey } from './keys';

/** Advance balance ids by merchant and mode: an id never changes once the row exists. */
const knownBalanceIds = () => processSlot('merchants.balanceIds', () => new Map<string, string>());

/** The id of the merchant's advance balance in `mode` (created on first use), for answers that name it. */
export async function advancedBalanceId(db: Queryable, key: Pick<ApiKey, 'merchantId' | 'mode'>): Promise<string> {
  const known = knownBalanceIds().get(`${key.merchantId}/${key.mode}`);
  if (known) return known;
  const [balance] = await listAdvancedBalances(db, key);
  return balance!.advancedBalanceId;
}

const UPSERT_BALANCE = statement<
  Pick<RowOf<typeof advancedBalances>, 'id' | 'currency' | 'balance'>,
  { merchantId: string; mode: Mode }
>(
  sql`insert into ${advancedBalances} (${bare(advancedBalances.merchantId)}, ${bare(advancedBalances.mode)}) values (${param('merchantId')}, ${param('mode')})
     on conflict (${bare(advancedBalances.merchantId)}, ${bare(advancedBalances.mode)}) do update set ${bare(advancedBalances.merchantId)} = excluded.${bare(advancedBalances.merchantId)}
     returning ${bare(advancedBalances.id)}, ${bare(advancedBalances.currency)}, ${bare(advancedBalances.balance)}::text`,
);

/**
 * The merchant's advance balance: the fee account the operator's processing fee is booked on
 * (seed: advancedBalanceId). Always a non-empty array; clients read the first element's id.
 * The balance is kept in US cents and answered as a decimal string.
 */
export async function listAdvancedBalances(
  db: Queryable,
  key: Pick<ApiKey, 'merchantId' | 'mode'>,
): Promise<AdvancedBalance[]> {
  const rows = await UPSERT_BALANCE.run(db, { merchantId: key.merchantId, mode: key.mode });
  knownBalanceIds().set(`${key.merchantId}/${key.mode}`, rows[0]!.id);
  const currencies = [...new Set(currencyPairs(enabledNetworks(key.mode)).map((p) => p.currency.ticker))];
  return rows.map((row): AdvancedBalance => ({
    advancedBalanceId: row.id,
    currency: row.currency,
    balance: formatUnits(BigInt(row.balance), 2),
    availableCurrenciesForDeposit: currencies,
  }));
}
