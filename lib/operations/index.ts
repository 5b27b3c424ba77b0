import 'server-only';
import { alias, columnsOf, deposits, param, payments, sql, statement, type Queryable } from '../db';
import { DEPOSIT_ROWS, serializeDeposit, type DepositRow } from '../deposits';
import type { ApiKey } from '../merchants';
import { formatUnits } from '../money';
import { decimalsOf, type PaymentRow } from '../orders';
import type { DepositOperation, Operation, PaymentOperation } from '../protocol';

export { addressTransactions, findAddressById, findAddressByText, validateAddress } from './addresses';

/** The payment columns an operation search item shows. */
const PAYMENT_COLUMNS = [
  'id',
  'address_id',
  'currency',
  'network',
  'tx_hash',
  'status',
  'address',
  'tag',
  'amount',
  'fee_amount',
  'created_at',
] as const satisfies readonly (keyof PaymentRow)[];
type Payment = Pick<PaymentRow, (typeof PAYMENT_COLUMNS)[number]>;

type Search = { hash: string; merchantId: string; mode: string };
const PAYMENTS_WITH_HASH = statement<
  Payment,
  Search
>(sql`select ${columnsOf(payments, PAYMENT_COLUMNS)} from ${payments}
  where lower(${payments.txHash}) = lower(${param('hash')}) and ${payments.merchantId} = ${param('merchantId')} and ${payments.mode} = ${param('mode')}
  order by ${payments.createdAt}, ${payments.outputIndex}`);
/** The deposits of DEPOSIT_ROWS, `d`. */
const d = alias(deposits, 'd');
const DEPOSITS_WITH_HASH = statement<DepositRow, Search>(sql`${DEPOSIT_ROWS}
  where (lower(${d.inTxHash}) = lower(${param('hash')}) or lower(${d.outTxHash}) = lower(${param('hash')}))
    and ${d.merchantId} = ${param('merchantId')} and ${d.mode} = ${param('mode')} order by ${d.createdAt}, ${d.inOutputIndex}`);

/**
 * find-tx: every operation of the caller (merchant and mode) with this transaction hash, matched
 * exactly but case-insensitively (hex). Order payments come first, then deposits.
 */
export async function findOperations(db: Queryable, key: ApiKey, tx: string | undefined): Promise<Operation[]> {
  const hash = tx?.trim();
  if (!hash) return [];
  const [payments, deposits] = await Promise.all([
    PAYMENTS_WITH_HASH.run(db, { hash, merchantId: key.merchantId, mode: key.mode }),
    DEPOSITS_WITH_HASH.run(db, { hash, merchantId: key.merchantId, mode: key.mode }),
  ]);
  return [
    ...payments.map(serializePaymentOperation),
    ...deposits.map((d): DepositOperation => ({
      type: d.in_tx_hash.toLowerCase() === hash.toLowerCase() ? 'IN' : 'OUT',
      source: d.kind === 'ORPHAN' ? 'ORPHAN_DEPOSIT' : 'PERSONAL_DEPOSIT',
      address: d.address,
      result: serializeDeposit(d),
    })),
  ];
}

/** An order payment as the operation search item of seed section 2.4. */
function serializePaymentOperation(p: Payment): PaymentOperation {
  const decimals = decimalsOf(p.network, p.currency);
  return {
    type: 'IN',
    source: 'ORDER',
    address: p.address,
    result: {
      id: p.id,
      addressId: p.address_id,
      currency: p.currency,
      network: p.network,
      tx: p.tx_hash,
      status: p.status,
      address: p.address,
      tag: p.tag,
      amount: formatUnits(BigInt(p.amount), decimals),
      feeCurrency: p.currency,
      feeSource: 'advanced_balance',
      feeAmount: formatUnits(BigInt(p.fee_amount), decimals),
      createdAt: p.created_at.toISOString(),
    },
  };
}
