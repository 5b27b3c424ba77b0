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
import type { Queryable } from '../db';
import { DEPOSIT_SELECT, serializeDeposit, type DepositRow } from '../deposits';
import { serializeInvoice, withOrders, type InvoiceRow } from '../invoices';
import { formatUnits } from '../money';
import { decimalsOf, serializeOrder, type OrderRow } from '../orders';
import { isUuid, type Deposit, type Invoice, type Order, type OrderStatus, type WebhookEvent } from '../protocol';
import { getDelivery, listOrderDeliveries } from '../webhooks';
import { explorerLink, isExplorerTemplate } from './explorers';
import type { OrderFilters } from './filters';
import { keysetPage, Where, type Page, type Position } from './keyset';
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

/** The ids an exact search finds among the scope's orders; $1/$2 are the merchant and mode. */
function orderHits(where: Where, q: string): string {
  const text = where.param(q);
  const branches = [
    `select id from orders where merchant_id = $1 and mode = $2 and client_order_id = ${text}`,
    // Through the address row's unique index (network, mode, address, tag), one probe per
    // network: no index on orders.address for make-order to keep up.
    `select o.id from addresses a join orders o on o.address_id = a.id
      where a.network = any(${where.param(NETWORK_NAMES)}::text[]) and a.mode = $2 and a.address = ${text} and o.merchant_id = $1 and o.mode = $2`,
    `select order_id from payments where lower(tx_hash) = lower(${text}) and merchant_id = $1 and mode = $2`,
    `select order_id from deposits where lower(in_tx_hash) = lower(${text}) and order_id is not null and merchant_id = $1 and mode = $2`,
  ];
  if (isUuid(q)) branches.unshift(`select id from orders where id = ${where.param(q.toLowerCase())}::uuid and merchant_id = $1 and mode = $2`);
  return branches.join(' union ');
}

function scoped(scope: MerchantScope): Where {
  const where = new Where();
  where.add(scope.merchantId, (p) => `o.merchant_id = ${p}::uuid`).add(scope.mode, (p) => `o.mode = ${p}`);
  return where;
}

function filtered(where: Where, filters: Pick<OrderFilters, 'status' | 'network' | 'currency' | 'from' | 'to'>, alias = 'o'): Where {
  return where
    .add(filters.status, (p) => `${alias}.status = ${p}`)
    .add(filters.network, (p) => `${alias}.network = ${p}`)
    .add(filters.currency, (p) => `${alias}.currency = ${p}`)
    .add(filters.from, (p) => `${alias}.created_at >= ${p}::timestamptz`)
    .add(filters.to, (p) => `${alias}.created_at < ${p}::timestamptz`);
}

/** The scope's orders matching `filters`, newest first, a keyset page of `pageSize`. */
export async function listOrderItems(db: Queryable, scope: MerchantScope, filters: ListFilters = {}, pageSize = 50): Promise<Page<OrderListItem>> {
  const where = scoped(scope);
  let select = 'select o.* from orders o';
  if (filters.q !== undefined) select = `with hits as materialized (${orderHits(where, filters.q)}) select o.* from hits h join orders o on o.id = h.id`;
  filtered(where, filters);
  const page = await keysetPage<OrderRow>(db, select, 'o', where, filters, pageSize);
  return { ...page, rows: page.rows.map(orderListItemOf) };
}

/** An invoice as the table shows it: the API's invoice object, with Dates. */
export type InvoiceListItem = Omit<Invoice, 'createdAt' | 'expiresAt'> & { createdAt: Date; expiresAt: Date };

function invoiceRowsOf(rows: Awaited<ReturnType<typeof withOrders>>): InvoiceListItem[] {
  return rows.map((r) => ({ ...serializeInvoice(r), createdAt: r.invoice.created_at, expiresAt: r.invoice.expires_at }));
}

/**
 * The scope's invoices, newest first. `currency` is the price currency; `network` the network of
 * the coin the payer chose; `q` the invoice id, the merchant's external id or order, or any search
 * key of the invoice's chosen order.
 */
export async function listInvoiceItems(db: Queryable, scope: MerchantScope, filters: ListFilters = {}, pageSize = 50): Promise<Page<InvoiceListItem>> {
  const where = scoped(scope);
  let select = 'select o.* from invoices o';
  if (filters.q !== undefined) {
    const q = filters.q;
    const text = where.param(q);
    const branches = [
      // idempotency_key is the external id when there is one, else the merchant's order.
      `select id from invoices where merchant_id = $1 and mode = $2 and idempotency_key = ${text}`,
      `select id from invoices where merchant_id = $1 and mode = $2 and client_order = ${text}`,
      // An order of any of the invoice's coin choices, not only the latest.
      `select c.invoice_id from (${orderHits(where, q)}) oh join orders c on c.id = oh.id where c.invoice_id is not null`,
    ];
    if (isUuid(q)) branches.unshift(`select id from invoices where id = ${where.param(q.toLowerCase())}::uuid and merchant_id = $1 and mode = $2`);
    select = `with hits as materialized (${branches.join(' union ')}) select o.* from hits h join invoices o on o.id = h.id`;
  }
  filtered(where, { ...filters, network: undefined });
  if (filters.network !== undefined) where.add(filters.network, (p) => `exists (select 1 from orders c where c.id = o.order_id and c.network = ${p})`);
  const page = await keysetPage<InvoiceRow>(db, select, 'o', where, filters, pageSize);
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
}

/**
 * The explorer link of a transaction in `mode`: none in test mode (the sandbox ledger's
 * transactions exist on no public chain) nor, by default, for a live network on a test chain.
 */
export function transactionLink(mode: MerchantScope['mode'], network: string, txHash: string, overrides: Record<string, string>): string | undefined {
  if (mode === 'test') return undefined;
  const chain = orderNetwork('live', network)?.chain;
  if (chain === undefined || chain === 'mainnet') return explorerLink(network, txHash, overrides);
  const own = overrides[network];
  return own !== undefined && Object.hasOwn(overrides, network) && isExplorerTemplate(own) ? explorerLink(network, txHash, overrides) : undefined;
}

/** The merchant's explorer templates (settings); malformed entries are ignored. */
export async function explorerOverrides(db: Queryable, merchantId: string): Promise<Record<string, string>> {
  const [row] = await db.query<{ explorer_urls: unknown }>('select explorer_urls from merchants where id = $1', [merchantId]);
  const urls = row?.explorer_urls;
  if (typeof urls !== 'object' || urls === null) return {};
  return Object.fromEntries(Object.entries(urls).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

type PaymentDetailRow = {
  id: string; tx_hash: string; output_index: number; amount: string; currency: string; network: string; status: string;
  sender_address: string | null; created_at: Date; block_height: string | number | null; dropped: boolean | null; tip: string | number | null;
};

/** One order of the scope with its timeline, payments, orphan deposits and webhooks; undefined when it is not the scope's. */
export async function orderDetail(db: Queryable, scope: MerchantScope, orderId: string): Promise<OrderDetail | undefined> {
  if (!isUuid(orderId)) return undefined;
  const [row] = await db.query<OrderRow>('select * from orders where id = $1 and merchant_id = $2 and mode = $3', [orderId, scope.merchantId, scope.mode]);
  if (!row) return undefined;
  const [events, payments, deposits, webhooks, overrides] = await Promise.all([
    db.query<{ from_status: OrderStatus; to_status: OrderStatus; message: string | null; created_at: Date }>(
      'select from_status, to_status, message, created_at from order_events where order_id = $1 order by id',
      [orderId],
    ),
    db.query<PaymentDetailRow>(
      `select p.id, p.tx_hash, p.output_index, p.amount::text as amount, p.currency, p.network, p.status, p.sender_address, p.created_at,
              t.block_height, t.dropped, c.height as tip
         from payments p
         left join chain_transfers t on t.network = p.network and t.mode = p.mode and t.tx_hash = p.tx_hash and t.output_index = p.output_index
         left join chain_cursors c on c.network = p.network and c.mode = p.mode
        where p.order_id = $1 and p.merchant_id = $2 and p.mode = $3
        order by p.created_at, p.id`,
      [orderId, scope.merchantId, scope.mode],
    ),
    db.query<DepositRow>(`${DEPOSIT_SELECT} where d.order_id = $1 and d.merchant_id = $2 and d.mode = $3 order by d.created_at, d.id`, [
      orderId, scope.merchantId, scope.mode,
    ]),
    listOrderDeliveries(db, orderId, scope),
    explorerOverrides(db, scope.merchantId),
  ]);
  const network = orderNetwork(scope.mode, row.network);
  const required = network ? requiredConfirmations(scope.mode, network) : 0;
  const decimals = decimalsOf(row.network, row.currency);
  return {
    order: { ...orderListItemOf(row), message: row.message, checkRisks: row.check_risks, lifetime: row.lifetime, updatedAt: row.updated_at },
    events: events.map((e) => ({ fromStatus: e.from_status, toStatus: e.to_status, message: e.message, at: e.created_at })),
    payments: payments.map((p) => ({
      id: p.id,
      txHash: p.tx_hash,
      outputIndex: p.output_index,
      amount: formatUnits(BigInt(p.amount), decimals),
      currency: p.currency,
      status: p.status,
      senderAddress: p.sender_address,
      confirmations:
        p.tip === null || p.dropped === null ? 0 : Math.min(required, confirmationsOf({ block_height: p.block_height, dropped: p.dropped }, Number(p.tip))),
      requiredConfirmations: required,
      explorerUrl: transactionLink(scope.mode, p.network, p.tx_hash, overrides),
      createdAt: p.created_at,
    })),
    orphanDeposits: deposits.map((d) => ({
      ...serializeDeposit(d),
      explorerUrl: transactionLink(scope.mode, d.network, d.in_tx_hash, overrides),
      createdAt: d.created_at,
    })),
    webhooks,
  };
}

export interface InvoiceDetail {
  invoice: InvoiceListItem;
  /** The order of the payer's latest coin choice, in full; undefined before a choice. */
  order?: OrderDetail;
  webhooks: WebhookEvent[];
}

/** One invoice of the scope with its chosen order's detail; undefined when it is not the scope's. */
export async function invoiceDetail(db: Queryable, scope: MerchantScope, invoiceId: string): Promise<InvoiceDetail | undefined> {
  if (!isUuid(invoiceId)) return undefined;
  const rows = await db.query<InvoiceRow>('select * from invoices where id = $1 and merchant_id = $2 and mode = $3', [invoiceId, scope.merchantId, scope.mode]);
  if (!rows[0]) return undefined;
  const [invoice] = invoiceRowsOf(await withOrders(db, rows));
  const order = invoice!.orderId ? await orderDetail(db, scope, invoice!.orderId) : undefined;
  const webhooks = await db.query<{ id: string }>('select id from webhook_events where invoice_id = $1 and merchant_id = $2 and mode = $3', [
    invoiceId, scope.merchantId, scope.mode,
  ]);
  return { invoice: invoice!, order, webhooks: (await Promise.all(webhooks.map((w) => getDelivery(db, w.id, scope)))).filter((w) => w !== undefined) };
}
