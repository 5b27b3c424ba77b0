import 'server-only';
/**
 * The orders and invoices tables of the dashboard and their detail pages. Rows are shaped by the
 * merchant API's own serializers (lib/orders `serializeOrder`, lib/invoices `serializeInvoice`),
 * so a screen and an API answer never disagree about an order; times are handed over as Dates.
 *
 * Search (`q`) is exact on each key, each through its own index: the order id (a UUID), the
 * merchant's order id, the deposit address (through its row in `addresses`), a transaction hash (an order's payments or its orphan
 * deposits, case-insensitive like the find-tx indexes). The keys are gathered in one materialised
 * union first, so the table is only joined to the few ids found.
 */
import { NETWORKS } from '../catalog';
import { confirmationsOf, orderNetwork, requiredConfirmations } from '../chains';
import {
  addresses,
  alias,
  chainCursors,
  chainTransfers,
  columnsOf,
  deposits,
  invoices,
  merchants,
  orderEvents,
  orders,
  param,
  payments,
  sql,
  statement,
  webhookEvents,
  type Queryable,
  type RowOf,
  type SQL,
  type SQLWrapper,
} from '../db';
import { DEPOSIT_ROWS, serializeDeposit, type DepositRow } from '../deposits';
import { serializeInvoice, withOrders, type InvoiceRow } from '../invoices';
import { mispaymentsOf, type OrderMispayment } from '../mispayments';
import { formatUnits } from '../money';
import { decimalsOf, serializeOrder, type OrderRow } from '../orders';
import { isUuid, type Deposit, type Invoice, type Order, type OrderStatus, type WebhookEvent } from '../protocol';
import { getDelivery, listOrderDeliveries } from '../webhooks';
import { explorerLink, isExplorerTemplate } from './explorers';
import type { OrderFilters } from './filters';
import { keysetPage, type Condition, type Page, type Position } from './keyset';
import type { MerchantScope } from '../merchants';

/** The filters a list takes: the parsed search params (`kind` chooses the function). */
export type ListFilters = Omit<OrderFilters, 'kind' | 'after' | 'before'> & Position;

/** An order as the table shows it: the API's order object, plus received, with Dates. */
export type OrderListItem = Omit<Order, 'createdAt' | 'expiresAt'> & {
  /** Counted so far, in coin units. */
  received: string;
  invoiceId: string | null;
  createdAt: Date;
  expiresAt: Date;
};

export function orderListItemOf(row: OrderRow): OrderListItem {
  return {
    ...serializeOrder(row),
    received: formatUnits(BigInt(row.received), decimalsOf(row.network, row.currency)),
    invoiceId: row.invoice_id,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
  };
}

const NETWORK_NAMES = NETWORKS.map((n) => n.name);

/** The listed orders (and, in a search, the orders found through their address row). */
const o = alias(orders, 'o');
const a = alias(addresses, 'a');
/** The listed invoices. */
const i = alias(invoices, 'i');
/** The orders of the listed invoices' coin choices. */
const c = alias(orders, 'c');

/** The ids an exact search finds among the scope's orders. */
function orderHits(scope: MerchantScope, q: string): SQL {
  const { merchantId, mode } = scope;
  const branches = [
    sql`select ${orders.id} from ${orders} where ${orders.merchantId} = ${merchantId} and ${orders.mode} = ${mode} and ${orders.clientOrderId} = ${q}`,
    // Through the address row's unique index (network, mode, address, tag), one probe per
    // network: no index on orders.address for make-order to keep up.
    sql`select ${o.id} from ${addresses} a join ${orders} o on ${o.addressId} = ${a.id}
      where ${a.network} = any(${sql.param(NETWORK_NAMES)}::text[]) and ${a.mode} = ${mode} and ${a.address} = ${q} and ${o.merchantId} = ${merchantId} and ${o.mode} = ${mode}`,
    sql`select ${payments.orderId} from ${payments} where lower(${payments.txHash}) = lower(${q}::text) and ${payments.merchantId} = ${merchantId} and ${payments.mode} = ${mode}`,
    sql`select ${deposits.orderId} from ${deposits}
      where lower(${deposits.inTxHash}) = lower(${q}::text) and ${deposits.orderId} is not null and ${deposits.merchantId} = ${merchantId} and ${deposits.mode} = ${mode}`,
  ];
  if (isUuid(q)) {
    branches.unshift(
      sql`select ${orders.id} from ${orders} where ${orders.id} = ${q.toLowerCase()}::uuid and ${orders.merchantId} = ${merchantId} and ${orders.mode} = ${mode}`,
    );
  }
  return sql.join(branches, sql` union `);
}

/** The columns a list is scoped and filtered on: its table's (or alias's). */
interface Listed {
  merchantId: SQLWrapper;
  mode: SQLWrapper;
  status: SQLWrapper;
  currency: SQLWrapper;
  createdAt: SQLWrapper;
}

function scoped(table: Listed, scope: MerchantScope): Condition[] {
  return [sql`${table.merchantId} = ${scope.merchantId}::uuid`, sql`${table.mode} = ${scope.mode}`];
}

function filtered(
  table: Listed & { network?: SQLWrapper },
  filters: Pick<OrderFilters, 'status' | 'network' | 'currency' | 'from' | 'to'>,
): Condition[] {
  return [
    filters.status !== undefined && sql`${table.status} = ${filters.status}`,
    filters.network !== undefined && table.network !== undefined && sql`${table.network} = ${filters.network}`,
    filters.currency !== undefined && sql`${table.currency} = ${filters.currency}`,
    filters.from !== undefined && sql`${table.createdAt} >= ${filters.from}::timestamptz`,
    filters.to !== undefined && sql`${table.createdAt} < ${filters.to}::timestamptz`,
  ];
}

/** An order as the orders list shows it: with the invoice that made it and money that came too late. */
export type OrderListRow = OrderListItem & {
  /**
   * For an order an invoice made: the merchant's own number for it (the invoice's `order`, else its
   * `externalId`: the internal `invoice:<id>:<n>` order id means nothing to a merchant) and its price.
   */
  invoice: { id: string; merchantOrder: string | null; currency: string; amount: string } | null;
  /** Orphan deposits of the order: money that reached its address but could not count (late, or another coin). */
  latePayments: number;
  /** Its mispayment (lib/mispayments): waiting for the merchant's decision, or settled; null for neither. */
  mispayment: 'waiting' | 'settled' | null;
};

type ListInvoiceRow = Pick<
  RowOf<typeof invoices>,
  'id' | 'client_order' | 'external_id' | 'currency' | 'price_decimals'
> & {
  amount: string;
};
const LIST_INVOICES = statement<ListInvoiceRow, { ids: string[]; merchantId: string; mode: string }>(
  sql`select ${invoices.id}, ${invoices.clientOrder}, ${invoices.externalId}, ${invoices.currency}, ${invoices.amount}::text as amount, ${invoices.priceDecimals}
        from ${invoices}
       where ${invoices.id} = any(${param('ids')}::uuid[]) and ${invoices.merchantId} = ${param('merchantId')} and ${invoices.mode} = ${param('mode')}`,
);
const LATE_PAYMENTS = statement<{ order_id: string; n: number }, { ids: string[]; merchantId: string; mode: string }>(
  sql`select ${deposits.orderId}, count(*)::int as n from ${deposits}
       where ${deposits.orderId} = any(${param('ids')}::uuid[]) and ${deposits.kind} = 'ORPHAN'
         and ${deposits.merchantId} = ${param('merchantId')} and ${deposits.mode} = ${param('mode')}
       group by 1`,
);

function mispaymentFlag(facts: OrderMispayment | undefined): OrderListRow['mispayment'] {
  if (facts?.settlement) return 'settled';
  return facts?.waiting ? 'waiting' : null;
}

/** The page's orders with their invoices and late payments: two indexed lookups for the whole page. */
async function withListExtras(db: Queryable, scope: MerchantScope, items: OrderListItem[]): Promise<OrderListRow[]> {
  const invoiceIds = [...new Set(items.flatMap((o) => (o.invoiceId ? [o.invoiceId] : [])))];
  // Only an expired or underpaid order can wait for a decision or be settled.
  const mispaid = items.filter((o) => o.status === 'expired' || o.status === 'partial').map((o) => o.orderId);
  const [invoiceRows, late, mispayments] = await Promise.all([
    invoiceIds.length > 0 ? LIST_INVOICES.run(db, { ...scope, ids: invoiceIds }) : [],
    items.length > 0 ? LATE_PAYMENTS.run(db, { ...scope, ids: items.map((o) => o.orderId) }) : [],
    mispaymentsOf(db, scope, mispaid),
  ]);
  const invoiceOf = new Map(invoiceRows.map((i) => [i.id, i]));
  const lateOf = new Map(late.map((l) => [l.order_id, l.n]));
  return items.map((o) => {
    const i = o.invoiceId ? invoiceOf.get(o.invoiceId) : undefined;
    return {
      ...o,
      invoice: i
        ? {
            id: i.id,
            merchantOrder: i.client_order ?? i.external_id,
            currency: i.currency,
            amount: formatUnits(BigInt(i.amount), i.price_decimals),
          }
        : null,
      latePayments: lateOf.get(o.orderId) ?? 0,
      mispayment: mispaymentFlag(mispayments.get(o.orderId)),
    };
  });
}

/** The scope's orders matching `filters`, newest first, a keyset page of `pageSize`. */
export async function listOrderItems(
  db: Queryable,
  scope: MerchantScope,
  filters: ListFilters = {},
  pageSize = 50,
): Promise<Page<OrderListRow>> {
  const select =
    filters.q === undefined
      ? sql`select ${o}.* from ${orders} o`
      : sql`with hits as materialized (${orderHits(scope, filters.q)}) select ${o}.* from hits h join ${orders} o on ${o.id} = h.id`;
  const page = await keysetPage<OrderRow>(
    db,
    select,
    o,
    [...scoped(o, scope), ...filtered(o, filters)],
    filters,
    pageSize,
  );
  return { ...page, rows: await withListExtras(db, scope, page.rows.map(orderListItemOf)) };
}

/** An invoice as the table shows it: the API's invoice object, with Dates. */
export type InvoiceListItem = Omit<Invoice, 'createdAt' | 'expiresAt'> & { createdAt: Date; expiresAt: Date };

function invoiceRowsOf(rows: Awaited<ReturnType<typeof withOrders>>): InvoiceListItem[] {
  return rows.map((r) => ({
    ...serializeInvoice(r),
    createdAt: r.invoice.created_at,
    expiresAt: r.invoice.expires_at,
  }));
}

/**
 * The scope's invoices, newest first. `currency` is the price currency; `network` the network of
 * the coin the payer chose; `q` the invoice id, the merchant's external id or order, or any search
 * key of the invoice's chosen order.
 */
export async function listInvoiceItems(
  db: Queryable,
  scope: MerchantScope,
  filters: ListFilters = {},
  pageSize = 50,
): Promise<Page<InvoiceListItem>> {
  const { merchantId, mode } = scope;
  let select = sql`select ${i}.* from ${invoices} i`;
  if (filters.q !== undefined) {
    const q = filters.q;
    const branches = [
      // idempotency_key is the external id when there is one, else the merchant's order.
      sql`select ${invoices.id} from ${invoices} where ${invoices.merchantId} = ${merchantId} and ${invoices.mode} = ${mode} and ${invoices.idempotencyKey} = ${q}`,
      sql`select ${invoices.id} from ${invoices} where ${invoices.merchantId} = ${merchantId} and ${invoices.mode} = ${mode} and ${invoices.clientOrder} = ${q}`,
      // An order of any of the invoice's coin choices, not only the latest.
      sql`select ${c.invoiceId} from (${orderHits(scope, q)}) oh join ${orders} c on ${c.id} = oh.id where ${c.invoiceId} is not null`,
    ];
    if (isUuid(q)) {
      branches.unshift(
        sql`select ${invoices.id} from ${invoices} where ${invoices.id} = ${q.toLowerCase()}::uuid and ${invoices.merchantId} = ${merchantId} and ${invoices.mode} = ${mode}`,
      );
    }
    select = sql`with hits as materialized (${sql.join(branches, sql` union `)}) select ${i}.* from hits h join ${invoices} i on ${i.id} = h.id`;
  }
  const conditions = [
    ...scoped(i, scope),
    ...filtered(i, { ...filters, network: undefined }),
    filters.network !== undefined &&
      sql`exists (select 1 from ${orders} c where ${c.id} = ${i.orderId} and ${c.network} = ${filters.network})`,
  ];
  const page = await keysetPage<InvoiceRow>(db, select, i, conditions, filters, pageSize);
  return { ...page, rows: invoiceRowsOf(await withOrders(db, page.rows)) };
}

/** A deposit as the API answers it (lib/deposits), with its explorer link and a Date. */
export type DepositView = Omit<Deposit, 'createdAt'> & { explorerUrl?: string; createdAt: Date };

/** A payment of an order as the detail page shows it. */
export interface DetailPayment {
  id: string;
  txHash: string;
  outputIndex: number;
  amount: string;
  currency: string;
  status: string;
  senderAddress: string | null;
  /** Confirmations now (from the watcher's cursor), capped at `requiredConfirmations`. */
  confirmations: number;
  requiredConfirmations: number;
  explorerUrl?: string;
  createdAt: Date;
}

export interface OrderEvent {
  fromStatus: OrderStatus;
  toStatus: OrderStatus;
  message: string | null;
  at: Date;
}

export interface OrderDetail {
  order: OrderListItem & { message: string | null; checkRisks: boolean; lifetime: number; updatedAt: Date };
  /** The status changes from `order_events`, oldest first (an order leaves `pending` once). */
  events: OrderEvent[];
  payments: DetailPayment[];
  /** Transfers to the order's address that did not count for it, with their explorer links. */
  orphanDeposits: DepositView[];
  /** Its webhooks with every delivery attempt. */
  webhooks: WebhookEvent[];
  /** Its mispayment: remainder, settlement, whether it waits for a decision (lib/mispayments); null when none. */
  mispayment: OrderMispayment | null;
}

/**
 * The explorer link of a transaction in `mode`: none in test mode (the sandbox ledger's
 * transactions exist on no public chain) nor, by default, for a live network on a test chain.
 */
export function transactionLink(
  mode: MerchantScope['mode'],
  network: string,
  txHash: string,
  overrides: Record<string, string>,
): string | undefined {
  if (mode === 'test') return undefined;
  const chain = orderNetwork('live', network)?.chain;
  if (chain === undefined || chain === 'mainnet') return explorerLink(network, txHash, overrides);
  const own = overrides[network];
  return own !== undefined && Object.hasOwn(overrides, network) && isExplorerTemplate(own)
    ? explorerLink(network, txHash, overrides)
    : undefined;
}

const EXPLORER_URLS = statement<Pick<RowOf<typeof merchants>, 'explorer_urls'>, { id: string }>(
  sql`select ${merchants.explorerUrls} from ${merchants} where ${merchants.id} = ${param('id')}`,
);

/** The merchant's explorer templates (settings); malformed entries are ignored. */
export async function explorerOverrides(db: Queryable, merchantId: string): Promise<Record<string, string>> {
  const [row] = await EXPLORER_URLS.run(db, { id: merchantId });
  const urls = row?.explorer_urls;
  if (typeof urls !== 'object' || urls === null) return {};
  return Object.fromEntries(Object.entries(urls).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

type PaymentDetailRow = {
  id: string;
  tx_hash: string;
  output_index: number;
  amount: string;
  currency: string;
  network: string;
  status: string;
  sender_address: string | null;
  created_at: Date;
  block_height: string | number | null;
  dropped: boolean | null;
  tip: string | number | null;
};

type Scoped = { merchantId: string; mode: string };

const ORDER_OF_SCOPE = statement<OrderRow, Scoped & { id: string }>(
  sql`select * from ${orders} where ${orders.id} = ${param('id')} and ${orders.merchantId} = ${param('merchantId')} and ${orders.mode} = ${param('mode')}`,
);
const EVENT_COLUMNS = ['from_status', 'to_status', 'message', 'created_at'] as const;
const ORDER_EVENTS = statement<Pick<RowOf<typeof orderEvents>, (typeof EVENT_COLUMNS)[number]>, { orderId: string }>(
  sql`select ${columnsOf(orderEvents, EVENT_COLUMNS)} from ${orderEvents} where ${orderEvents.orderId} = ${param('orderId')} order by ${orderEvents.id}`,
);
const payment = alias(payments, 'p');
const transfer = alias(chainTransfers, 't');
const cursor = alias(chainCursors, 'c');
const PAYMENT_DETAILS = statement<PaymentDetailRow, Scoped & { orderId: string }>(
  sql`select ${payment.id}, ${payment.txHash}, ${payment.outputIndex}, ${payment.amount}::text as amount, ${payment.currency}, ${payment.network},
              ${payment.status}, ${payment.senderAddress}, ${payment.createdAt}, ${transfer.blockHeight}, ${transfer.dropped}, ${cursor.height} as tip
         from ${payments} p
         left join ${chainTransfers} t on ${transfer.network} = ${payment.network} and ${transfer.mode} = ${payment.mode}
                                      and ${transfer.txHash} = ${payment.txHash} and ${transfer.outputIndex} = ${payment.outputIndex}
         left join ${chainCursors} c on ${cursor.network} = ${payment.network} and ${cursor.mode} = ${payment.mode}
        where ${payment.orderId} = ${param('orderId')} and ${payment.merchantId} = ${param('merchantId')} and ${payment.mode} = ${param('mode')}
        order by ${payment.createdAt}, ${payment.id}`,
);
const deposit = alias(deposits, 'd');
const ORDER_DEPOSITS = statement<DepositRow, Scoped & { orderId: string }>(
  sql`${DEPOSIT_ROWS} where ${deposit.orderId} = ${param('orderId')} and ${deposit.merchantId} = ${param('merchantId')} and ${deposit.mode} = ${param('mode')}
    order by ${deposit.createdAt}, ${deposit.id}`,
);

/** One order of the scope with its timeline, payments, orphan deposits and webhooks; undefined when it is not the scope's. */
export async function orderDetail(
  db: Queryable,
  scope: MerchantScope,
  orderId: string,
): Promise<OrderDetail | undefined> {
  if (!isUuid(orderId)) return undefined;
  const inScope = { merchantId: scope.merchantId, mode: scope.mode };
  const [row] = await ORDER_OF_SCOPE.run(db, { id: orderId, ...inScope });
  if (!row) return undefined;
  const [events, paymentRows, depositRows, webhooks, overrides, mispayments] = await Promise.all([
    ORDER_EVENTS.run(db, { orderId }),
    PAYMENT_DETAILS.run(db, { orderId, ...inScope }),
    ORDER_DEPOSITS.run(db, { orderId, ...inScope }),
    listOrderDeliveries(db, orderId, scope),
    explorerOverrides(db, scope.merchantId),
    mispaymentsOf(db, inScope, [orderId]),
  ]);
  const network = orderNetwork(scope.mode, row.network);
  const required = network ? requiredConfirmations(scope.mode, network) : 0;
  const decimals = decimalsOf(row.network, row.currency);
  return {
    order: {
      ...orderListItemOf(row),
      message: row.message,
      checkRisks: row.check_risks,
      lifetime: row.lifetime,
      updatedAt: row.updated_at,
    },
    events: events.map((e) => ({
      fromStatus: e.from_status,
      toStatus: e.to_status,
      message: e.message,
      at: e.created_at,
    })),
    payments: paymentRows.map((p) => ({
      id: p.id,
      txHash: p.tx_hash,
      outputIndex: p.output_index,
      amount: formatUnits(BigInt(p.amount), decimals),
      currency: p.currency,
      status: p.status,
      senderAddress: p.sender_address,
      confirmations:
        p.tip === null || p.dropped === null
          ? 0
          : Math.min(required, confirmationsOf({ block_height: p.block_height, dropped: p.dropped }, Number(p.tip))),
      requiredConfirmations: required,
      explorerUrl: transactionLink(scope.mode, p.network, p.tx_hash, overrides),
      createdAt: p.created_at,
    })),
    orphanDeposits: depositRows.map((d) => ({
      ...serializeDeposit(d),
      explorerUrl: transactionLink(scope.mode, d.network, d.in_tx_hash, overrides),
      createdAt: d.created_at,
    })),
    webhooks,
    mispayment: mispayments.get(orderId) ?? null,
  };
}

export interface InvoiceDetail {
  invoice: InvoiceListItem;
  /** The order of the payer's latest coin choice, in full; undefined before a choice. */
  order?: OrderDetail;
  webhooks: WebhookEvent[];
}

const INVOICE_OF_SCOPE = statement<InvoiceRow, Scoped & { id: string }>(
  sql`select * from ${invoices} where ${invoices.id} = ${param('id')} and ${invoices.merchantId} = ${param('merchantId')} and ${invoices.mode} = ${param('mode')}`,
);
const INVOICE_WEBHOOKS = statement<Pick<RowOf<typeof webhookEvents>, 'id'>, Scoped & { invoiceId: string }>(
  sql`select ${webhookEvents.id} from ${webhookEvents}
   where ${webhookEvents.invoiceId} = ${param('invoiceId')} and ${webhookEvents.merchantId} = ${param('merchantId')} and ${webhookEvents.mode} = ${param('mode')}`,
);

/** One invoice of the scope with its chosen order's detail; undefined when it is not the scope's. */
export async function invoiceDetail(
  db: Queryable,
  scope: MerchantScope,
  invoiceId: string,
): Promise<InvoiceDetail | undefined> {
  if (!isUuid(invoiceId)) return undefined;
  const rows = await INVOICE_OF_SCOPE.run(db, { id: invoiceId, merchantId: scope.merchantId, mode: scope.mode });
  if (!rows[0]) return undefined;
  const [invoice] = invoiceRowsOf(await withOrders(db, rows));
  const order = invoice!.orderId ? await orderDetail(db, scope, invoice!.orderId) : undefined;
  const webhooks = await INVOICE_WEBHOOKS.run(db, { invoiceId, merchantId: scope.merchantId, mode: scope.mode });
  return {
    invoice: invoice!,
    order,
    webhooks: (await Promise.all(webhooks.map((w) => getDelivery(db, w.id, scope)))).filter((w) => w !== undefined),
  };
}
