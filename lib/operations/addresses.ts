import 'server-only';
/**
 * The caller's deposit addresses as the API we follow shows them (addresses/find-by-id,
 * addresses/find-by-address, addresses/transactions) and address validation
 * (utils/validate-address). Every query is scoped to the caller's merchant and mode: another
 * merchant's address is not found.
 */
import { addressPatterns } from '../catalog';
import { isValidAddress, networkFor } from '../chains';
import { addresses, alias, deposits, orders, param, payments, sql, statement, type Queryable, type RowOf } from '../db';
import type { MerchantScope } from '../merchants';
import { formatUnits } from '../money';
import { decimalsOf } from '../orders';
import { isUuid, type Address, type AddressTransaction, type AddressValidation, type RequestOf } from '../protocol';

type AddressRow = Pick<RowOf<typeof addresses>, 'id' | 'kind' | 'network' | 'address' | 'tag'> & {
  /** The order's currency for PAY_IN; null for PERSONAL. */
  currency: string | null;
  /** Base units received in `currency`, confirmed. */
  received: string;
};

const a = alias(addresses, 'a');
const o = alias(orders, 'o');
const p = alias(payments, 'p');
const d = alias(deposits, 'd');

/**
 * An address is the caller's when it is a PAY_IN address of one of the caller's orders or one of
 * the caller's personal addresses. What it received: confirmed payments and deposits in the
 * order's currency (a watch-only gateway does not follow what leaves a PAY_IN address).
 */
const ADDRESS_SELECT = sql`
  select ${a.id}, ${a.kind}, ${a.network}, ${a.address}, ${a.tag}, ${o.currency},
         (coalesce((select sum(${p.amount}) from ${payments} p where ${p.addressId} = ${a.id} and ${p.currency} = ${o.currency} and ${p.status} = 'processed'), 0)
        + coalesce((select sum(${d.amount}) from ${deposits} d where ${d.addressId} = ${a.id} and ${d.currency} = ${o.currency} and ${d.status} = 'PROCESSED'), 0))::text as received
    from ${addresses} a
    left join ${orders} o on ${o.addressId} = ${a.id} and ${a.kind} = 'PAY_IN'
   where ${a.mode} = ${param('mode')} and ((${a.kind} = 'PERSONAL' and ${a.merchantId} = ${param('merchantId')}) or ${o.merchantId} = ${param('merchantId')})`;
const ADDRESS_BY_ID = statement<AddressRow, MerchantScope & { id: string }>(
  sql`${ADDRESS_SELECT} and ${a.id} = ${param('id')}`,
);
const ADDRESS_BY_TEXT = statement<AddressRow, MerchantScope & { address: string; tag: string | null }>(
  sql`${ADDRESS_SELECT} and ${a.address} = ${param('address')} and (${param('tag')}::text is null or ${a.tag} = ${param('tag')})
    order by ${a.createdAt} desc limit 1`,
);

function serializeAddress(row: AddressRow): Address {
  return {
    id: row.id,
    type: row.kind,
    alias: null,
    currency: row.currency,
    network: row.network,
    balance: row.currency === null ? '0' : formatUnits(BigInt(row.received), decimalsOf(row.network, row.currency)),
    address: row.address,
    tag: row.tag,
    meta: null,
    isArchived: false,
  };
}

/** addresses/find-by-id; undefined when it is not one of the caller's. */
export async function findAddressById(db: Queryable, key: MerchantScope, id: string): Promise<Address | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await ADDRESS_BY_ID.run(db, { merchantId: key.merchantId, mode: key.mode, id });
  return row && serializeAddress(row);
}

/**
 * addresses/find-by-address; undefined when it is not one of the caller's. On a tag network the
 * shared address is every order's, so the tag picks one (without a tag, the most recent).
 */
export async function findAddressByText(
  db: Queryable,
  key: MerchantScope,
  address: string,
  tag?: string,
): Promise<Address | undefined> {
  const [row] = await ADDRESS_BY_TEXT.run(db, {
    merchantId: key.merchantId,
    mode: key.mode,
    address,
    tag: tag ?? null,
  });
  return row && serializeAddress(row);
}

interface TransactionRow {
  id: string;
  status: AddressTransaction['status'];
  type: AddressTransaction['type'];
  currency: string;
  network: string;
  address_from: string | null;
  address_to: string | null;
  amount: string;
  tx: string;
  fee_amount: string | null;
  fee_amount_usd_cents: string | null;
  withdrawal_id: string | null;
  orphan_deposit_id: string | null;
  created_at: Date;
}

/** The transfers of the address, in the caller's scope: its payments and its deposits. */
const OF_ADDRESS = {
  payments: sql`${p.addressId} = ${param('id')} and ${p.merchantId} = ${param('merchantId')} and ${p.mode} = ${param('mode')}`,
  deposits: sql`${d.addressId} = ${param('id')} and ${d.merchantId} = ${param('merchantId')} and ${d.mode} = ${param('mode')}`,
};

/**
 * Transfers to the address (order payments and deposits) and from it (the outgoing transfers the
 * watcher saw take deposits on, once per transaction), newest first. Statuses in the clients'
 * words: a payment reversed by a reorganisation, or a deposit the chain dropped, is `error`.
 * `t` and its columns are the statement's own: the union of the three kinds of transfer.
 */
const TRANSACTIONS = statement<
  TransactionRow,
  MerchantScope & { id: string; type: string | null; status: readonly string[] | null; limit: number; offset: number }
>(sql`
  select * from (
    select ${p.id}::text, case ${p.status} when 'reversed' then 'error' else ${p.status} end as status, 'deposit' as type,
           ${p.currency}, ${p.network}, ${p.senderAddress} as address_from, ${p.address} as address_to, ${p.amount}::text, ${p.txHash} as tx,
           ${p.feeAmount}::text, null::text as fee_amount_usd_cents, null::text as withdrawal_id, null::text as orphan_deposit_id, ${p.createdAt}
      from ${payments} p where ${OF_ADDRESS.payments}
    union all
    select ${d.id}::text, lower(${d.status}), 'deposit', ${d.currency}, ${d.network}, null, ${d.address}, ${d.amount}::text, ${d.inTxHash},
           null, null, null, case when ${d.kind} = 'ORPHAN' then ${d.id}::text end, ${d.createdAt}
      from ${deposits} d where ${OF_ADDRESS.deposits}
    union all
    select distinct on (${d.outTxHash}) coalesce(${d.withdrawalId}, ${d.id})::text, coalesce(${d.outStatus}, 'pending'), 'withdrawal', ${d.currency},
           ${d.network}, ${d.address}, ${d.outAddress}, coalesce(${d.outAmount}, 0)::text, ${d.outTxHash}, ${d.outFeeAmount}::text,
           ${d.outFeeAmountUsdCents}::text, ${d.withdrawalId}::text, null, coalesce(${d.outCreatedAt}, ${d.createdAt})
      from ${deposits} d where ${OF_ADDRESS.deposits} and ${d.outTxHash} is not null
  ) t
  where (${param('type')}::text is null or t.type = ${param('type')}) and (${param('status')}::text[] is null or t.status = any(${param('status')}))
  order by t.created_at desc, t.id desc limit ${param('limit')} offset ${param('offset')}`);

/** addresses/transactions; undefined when the address is not one of the caller's. */
export async function addressTransactions(
  db: Queryable,
  key: MerchantScope,
  filter: RequestOf<'addresses/transactions'>,
): Promise<AddressTransaction[] | undefined> {
  if (!(await findAddressById(db, key, filter.id))) return undefined;
  const rows = await TRANSACTIONS.run(db, {
    id: filter.id,
    merchantId: key.merchantId,
    mode: key.mode,
    type: filter.type ?? null,
    status: filter.status ?? null,
    limit: filter.limit,
    offset: filter.offset,
  });
  return rows.map((row): AddressTransaction => {
    const units = (value: string) => formatUnits(BigInt(value), decimalsOf(row.network, row.currency));
    return {
      id: row.id,
      status: row.status,
      type: row.type,
      currency: row.currency,
      network: row.network,
      addressFrom: row.address_from,
      addressTo: row.address_to,
      amount: units(row.amount),
      tx: row.tx,
      feeCurrency: row.fee_amount === null ? null : row.currency,
      feeAmount: row.fee_amount === null ? null : units(row.fee_amount),
      feeAmountUSD: row.fee_amount_usd_cents === null ? null : formatUnits(BigInt(row.fee_amount_usd_cents), 2),
      withdrawalId: row.withdrawal_id,
      orphanDepositId: row.orphan_deposit_id,
      createdAt: row.created_at.toISOString(),
    };
  });
}

/**
 * utils/validate-address: whether `address` is one of the network's (its pattern and checksum);
 * undefined when the caller's mode has no such network.
 */
export function validateAddress(
  key: MerchantScope,
  networkName: string,
  address: string,
): AddressValidation | undefined {
  const network = networkFor(key.mode, networkName);
  if (!network) return undefined;
  const { addressRegex } = addressPatterns(network);
  return { isValid: new RegExp(addressRegex).test(address) && isValidAddress(network, address), regex: addressRegex };
}
