import 'server-only';
import type { addresses, deposits, Queryable, RowOf } from '../db';
import type { ApiKey } from '../merchants';
import { formatUnits } from '../money';
import { decimalsOf, isUuid } from '../orders';
import type { Deposit } from '../protocol';
import { DepositNotFound } from './errors';
import { canWithdraw } from './lifecycle';

export { DepositNotFound, type DepositError } from './errors';
export { incomingWrite, kindOf, OUT_STATUS, WITHDRAWALS } from './lifecycle';

/**
 * Deposits are transfers that do not count for an order (ORPHAN: late, after the order was
 * final, or another currency to its address) or that reached a personal address (PERSONAL).
 * Their stage and status move by the state machine of ./lifecycle (decision 019).
 */
export type DepositRow = RowOf<typeof deposits> & { address_kind: RowOf<typeof addresses>['kind'] };

export const DEPOSIT_SELECT = `select d.*, a.kind as address_kind from deposits d join addresses a on a.id = d.address_id`;

export async function getDeposit(db: Queryable, key: ApiKey, id: string): Promise<DepositRow> {
  if (!isUuid(id)) throw new DepositNotFound(id);
  const [row] = await db.query<DepositRow>(`${DEPOSIT_SELECT} where d.id = $1 and d.merchant_id = $2 and d.mode = $3`, [
    id, key.merchantId, key.mode,
  ]);
  if (!row) throw new DepositNotFound(id);
  return row;
}

/** The orphan deposit object of seed section 2.3; `outTransactions` is null until one is seen. */
export function serializeDeposit(row: DepositRow): Deposit {
  const decimals = decimalsOf(row.network, row.currency);
  const units = (value: string) => formatUnits(BigInt(value), decimals);
  return {
    id: row.id,
    organizationId: row.merchant_id,
    orderId: row.order_id,
    stage: row.stage,
    status: row.status,
    message: row.message,
    currency: row.currency,
    network: row.network,
    amount: units(row.amount),
    canWithdrawal: canWithdraw(row),
    inTransaction: {
      addressType: row.address_kind,
      addressId: row.address_id,
      address: row.address,
      txId: row.in_tx_hash,
      amount: units(row.amount),
      status: row.in_status,
    },
    outTransactions:
      row.out_tx_hash === null
        ? null
        : {
            address: row.out_address,
            txId: row.out_tx_hash,
            amount: units(row.out_amount ?? '0'),
            status: row.out_status,
            feeAmount: units(row.out_fee_amount ?? '0'),
            feeAmountUSD: row.out_fee_amount_usd_cents === null ? null : formatUnits(BigInt(row.out_fee_amount_usd_cents), 2),
            withdrawalId: row.withdrawal_id,
            createdAt: row.out_created_at?.toISOString() ?? null,
          },
    createdAt: row.created_at.toISOString(),
  };
}
