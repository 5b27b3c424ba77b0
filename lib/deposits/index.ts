import 'server-only';
import { addresses, alias, chainTransfers, deposits, param, sql, statement, type Queryable, type RowOf } from '../db';
import type { ApiKey } from '../merchants';
import { formatUnits } from '../money';
import { decimalsOf } from '../orders';
import { isUuid, type Deposit, type RequestOf } from '../protocol';
import { canWithdraw } from './lifecycle';
import { NotFound } from '../errors';

export { incomingWrite, kindOf, OUT_STATUS, WITHDRAWALS, type IncomingWrite } from './lifecycle';

/**
 * Deposits are transfers that do not count for an order (ORPHAN: late, after the order was
 * final, or another currency to its address) or that reached a personal address (PERSONAL).
 * Their stage and status move by the state machine of ./lifecycle (decision 019).
 */
export type DepositRow = RowOf<typeof deposits> & {
  address_kind: RowOf<typeof addresses>['kind'];
  in_tag: RowOf<typeof chainTransfers>['tag'];
};

/**
 * A deposit with its address's kind and the destination tag its transfer carried: the payer's,
 * which on a tag network's untagged row names no order (docs/decisions/034). A transfer recorded
 * before chain_transfers kept tags falls back to the deposit's address tag, which a transfer
 * matched exactly carried too.
 */
const d = alias(deposits, 'd');
const a = alias(addresses, 'a');
const t = alias(chainTransfers, 't');
/** Its rows are `DepositRow`s; a statement adds its `where` on the deposits, `d` (`alias(deposits, 'd')`). */
export const DEPOSIT_ROWS = sql`select d.*, ${a.kind} as address_kind, coalesce(${t.tag}, ${d.tag}) as in_tag
  from ${deposits} d join ${addresses} a on ${a.id} = ${d.addressId}
  left join ${chainTransfers} t on ${t.network} = ${d.network} and ${t.mode} = ${d.mode} and ${t.txHash} = ${d.inTxHash} and ${t.outputIndex} = ${d.inOutputIndex}`;

const DEPOSIT = statement<DepositRow, { id: string; merchantId: string; mode: string }>(
  sql`${DEPOSIT_ROWS} where ${d.id} = ${param('id')} and ${d.merchantId} = ${param('merchantId')} and ${d.mode} = ${param('mode')}`,
);

export async function getDeposit(db: Queryable, key: ApiKey, id: string): Promise<DepositRow> {
  if (!isUuid(id)) throw new NotFound('Deposit', id);
  const [row] = await DEPOSIT.run(db, { id, merchantId: key.merchantId, mode: key.mode });
  if (!row) throw new NotFound('Deposit', id);
  return row;
}

const ORPHAN_DEPOSITS = statement<
  DepositRow,
  {
    merchantId: string;
    mode: string;
    id: string | null;
    orderId: string | null;
    stage: string | null;
    status: string | null;
    limit: number;
    offset: number;
  }
>(sql`${DEPOSIT_ROWS} where ${d.merchantId} = ${param('merchantId')} and ${d.mode} = ${param('mode')} and ${d.kind} = 'ORPHAN'
    and (${param('id')}::uuid is null or ${d.id} = ${param('id')}) and (${param('orderId')}::uuid is null or ${d.orderId} = ${param('orderId')})
    and (${param('stage')}::text is null or ${d.stage} = ${param('stage')}) and (${param('status')}::text is null or ${d.status} = ${param('status')})
  order by ${d.createdAt} desc, ${d.id} desc limit ${param('limit')} offset ${param('offset')}`);

/** orphan-deposits/get-deposits: the caller's orphan deposits matching every filter given, newest first. */
export async function listOrphanDeposits(
  db: Queryable,
  key: ApiKey,
  filter: RequestOf<'orphan-deposits/get-deposits'>,
): Promise<DepositRow[]> {
  // An id that is not a UUID names no deposit (and would fail the uuid comparison).
  if ((filter.id && !isUuid(filter.id)) || (filter.orderId && !isUuid(filter.orderId))) return [];
  return ORPHAN_DEPOSITS.run(db, {
    merchantId: key.merchantId,
    mode: key.mode,
    id: filter.id ?? null,
    orderId: filter.orderId ?? null,
    stage: filter.stage ?? null,
    status: filter.status ?? null,
    limit: filter.limit,
    offset: filter.offset,
  });
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
      tag: row.in_tag,
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
            feeAmountUSD:
              row.out_fee_amount_usd_cents === null ? null : formatUnits(BigInt(row.out_fee_amount_usd_cents), 2),
            withdrawalId: row.withdrawal_id,
            createdAt: row.out_created_at?.toISOString() ?? null,
          },
    createdAt: row.created_at.toISOString(),
  };
}
