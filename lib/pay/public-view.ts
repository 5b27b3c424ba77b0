import 'server-only';
/**
 * Builds the payer-safe view of an order (./view) from the database: the order, its merchant's
 * name, the network's watcher cursor and the chain transfers to the order's address. The query
 * selects only payer-safe columns, so a secret cannot reach the page by accident.
 *
 * Confirmations are counted like the watcher counts them (lib/chains `confirmationsOf`):
 * cursor height − block height + 1, so the page can show k/n between two evaluations. Payments
 * and other transfers are told apart by the merchant-facing projection the watcher writes
 * (`payments` rows); a transfer without one is an orphan deposit of the order.
 *
 * An order made for an invoice's coin choice (`orders.invoice_id`) also carries the invoice's
 * price and whether its payer may still go back and choose another coin (lib/invoices
 * `canChooseCoin`, for this order while nothing was sent to it).
 */
import { findCurrency } from '../catalog';
import { blockSecondsOf, confirmationsOf, orderNetwork, paymentUri, requiredConfirmations } from '../chains';
import {
  alias,
  chainCursors,
  chainTransfers,
  invoices,
  merchants,
  orders,
  param,
  payments,
  sql,
  statement,
  type Queryable,
  type RowOf,
} from '../db';
import { canChooseCoin } from '../invoices';
import { formatUnits } from '../money';
import { payerRefundOfferOf, payerRest } from '../mispayments';
import { isLateTransfer } from '../orders';
import {
  screenOf,
  type PublicBrand,
  type PublicOrderInvoice,
  type PublicOrderView,
  type PublicOtherTransfer,
  type PublicPayment,
} from './view';
import { isUuid } from '../protocol';

/** The order columns the page may use: no webhooks, e-mail, external user, client order id or message. */
export type PublicOrderRow = Pick<
  RowOf<typeof orders>,
  | 'id'
  | 'mode'
  | 'status'
  | 'currency'
  | 'network'
  | 'amount'
  | 'received'
  | 'address'
  | 'tag'
  | 'description'
  | 'return_url'
  | 'expires_at'
  | 'remainder_of'
> & {
  merchant_name: RowOf<typeof merchants>['name'];
  /** Height the network's watcher has scanned to; null before its first step. */
  tip_height: RowOf<typeof chainCursors>['height'] | null;
  /** The invoice whose coin choice made this order; null for an order of make-order. */
  invoice: PublicInvoiceRow | null;
};

/** The invoice columns the payment page uses: its price, and what decides whether the coin may still change. */
export type PublicInvoiceRow = Pick<
  RowOf<typeof invoices>,
  'id' | 'currency' | 'amount' | 'price_decimals' | 'status' | 'order_id' | 'expires_at'
>;

export type PublicTransferRow = Pick<
  RowOf<typeof chainTransfers>,
  'tx_hash' | 'currency' | 'amount' | 'block_height' | 'first_seen_at' | 'dropped'
> & {
  /** Status of the order payment this transfer is, or null when it is not one (an orphan). */
  payment_status: RowOf<typeof payments>['status'] | null;
};

const PAYMENT_STATUS = {
  pending: 'detected',
  processed: 'confirmed',
  reversed: 'reversed',
  rejected: 'rejected',
} as const;

/**
 * The view from the rows (unit-tested without a database). The network is the one the order's mode
 * runs (a live network's configured token contract and chain id go into the wallet URI).
 */
export function buildPublicView(
  order: PublicOrderRow,
  transfers: readonly PublicTransferRow[],
  options: { requiredConfirmations: number; blockSeconds: number; now: Date },
): PublicOrderView {
  const network = orderNetwork(order.mode, order.network);
  const currency = network && findCurrency(network, order.currency);
  if (!network || !currency) throw new Error(`${order.currency} on ${order.network} is not in the catalog`);
  const decimals = currency.decimals;
  const required = options.requiredConfirmations;
  const tip = order.tip_height === null ? -1 : Number(order.tip_height);
  const confirmations = (t: PublicTransferRow) => Math.min(required, tip < 0 ? 0 : confirmationsOf(t, tip));

  const payments: PublicPayment[] = [];
  const otherTransfers: PublicOtherTransfer[] = [];
  let confirming = 0n;
  for (const transfer of transfers) {
    if (transfer.payment_status) {
      const status = PAYMENT_STATUS[transfer.payment_status];
      if (status === 'detected') confirming += BigInt(transfer.amount);
      payments.push({
        txid: transfer.tx_hash,
        amount: formatUnits(BigInt(transfer.amount), decimals),
        status,
        confirmations: confirmations(transfer),
      });
    } else if (!transfer.dropped) {
      const other = findCurrency(network, transfer.currency);
      otherTransfers.push({
        txid: transfer.tx_hash,
        currency: transfer.currency,
        amount: other ? formatUnits(BigInt(transfer.amount), other.decimals) : transfer.amount,
        confirmations: confirmations(transfer),
        late: isLateTransfer(
          { status: order.status, currency: order.currency, expiresAt: order.expires_at },
          { currency: transfer.currency, firstSeenAt: transfer.first_seen_at },
        ),
      });
    }
  }

  const amount = BigInt(order.amount);
  const received = BigInt(order.received);
  const invoice: PublicOrderInvoice | null = order.invoice && {
    invoiceId: order.invoice.id,
    currency: order.invoice.currency,
    amount: formatUnits(BigInt(order.invoice.amount), order.invoice.price_decimals),
    // The invoice's latest choice, still open, and nothing sent to this order yet (what
    // lib/invoices chooseCoin accepts): anything else would only be refused on the invoice page.
    canChangeCoin:
      order.invoice.order_id === order.id &&
      canChooseCoin(order.invoice.status, order.invoice.expires_at, options.now) &&
      transfers.every((t) => t.dropped),
  };
  const left = amount - received - confirming;
  const remaining = left > 0n ? left : 0n;
  const view = {
    status: order.status,
    received: formatUnits(received, decimals),
    payments,
    otherTransfers,
  };
  return {
    orderId: order.id,
    status: order.status,
    screen: screenOf(view),
    test: order.mode === 'test',
    merchantName: order.merchant_name,
    description: order.description,
    currency: currency.ticker,
    currencyName: currency.name,
    network: network.name,
    networkName: network.displayName,
    tokenStandard: currency.contract ? (network.tokenStandard ?? null) : null,
    blockSeconds: options.blockSeconds,
    amount: formatUnits(amount, decimals),
    received: view.received,
    remaining: formatUnits(remaining, decimals),
    address: order.address,
    // A Solana Pay reference is no tag the payer types: only the wallet URI carries it (decision 057).
    tag: network.paymentReference ? null : order.tag,
    // The QR asks for what is left to pay (the whole amount until something arrives). A Solana Pay
    // request names the shop and the order's description, which the wallet shows and keeps off chain.
    walletUri: paymentUri(network, order.address, order.tag, currency.ticker, remaining > 0n ? remaining : amount, {
      label: order.merchant_name,
      message: order.description,
    }),
    returnUrl: order.return_url,
    expiresAt: order.expires_at.toISOString(),
    serverTime: options.now.toISOString(),
    requiredConfirmations: required,
    payments,
    otherTransfers,
    invoice,
    rest: null,
    refundOffer: null,
    remainderOf: order.remainder_of,
  };
}

/** The invoice's columns as the query names them (`invoice_<column>`), null on every one for an order without an invoice. */
type InvoiceColumns = { [K in keyof PublicInvoiceRow as `invoice_${K}`]: PublicInvoiceRow[K] | null };

const o = alias(orders, 'o');
const m = alias(merchants, 'm');
const c = alias(chainCursors, 'c');
const i = alias(invoices, 'i');
const t = alias(chainTransfers, 't');
const p = alias(payments, 'p');

// One round trip (the page polls it): the order, its merchant's name, the cursor, and its
// transfers as JSON, amounts as text (a JSON number would lose digits of an 18-decimal amount).
// and the invoice of its coin choice, if any (joined: still one round trip).
const PUBLIC_ORDER = statement<
  Omit<PublicOrderRow, 'invoice'> &
    InvoiceColumns & { transfers: (Omit<PublicTransferRow, 'first_seen_at'> & { first_seen_at: string })[] },
  { id: string }
>(
  sql`select ${o.id}, ${o.mode}, ${o.status}, ${o.currency}, ${o.network}, ${o.amount}::text as amount, ${o.received}::text as received, ${o.address}, ${o.tag},
            ${o.description}, ${o.returnUrl}, ${o.expiresAt}, ${o.remainderOf}, ${m.name} as merchant_name, ${c.height} as tip_height,
            ${i.id} as invoice_id, ${i.currency} as invoice_currency, ${i.amount}::text as invoice_amount, ${i.priceDecimals} as invoice_price_decimals,
            ${i.status} as invoice_status, ${i.orderId} as invoice_order_id, ${i.expiresAt} as invoice_expires_at,
            coalesce((select json_agg(json_build_object(
                        'tx_hash', ${t.txHash}, 'currency', ${t.currency}, 'amount', ${t.amount}::text, 'block_height', ${t.blockHeight},
                        'first_seen_at', ${t.firstSeenAt}, 'dropped', ${t.dropped}, 'payment_status', ${p.status})
                        order by ${t.firstSeenAt}, ${t.txHash}, ${t.outputIndex})
                        from ${chainTransfers} t
                        left join ${payments} p on ${p.network} = ${t.network} and ${p.mode} = ${t.mode} and ${p.txHash} = ${t.txHash} and ${p.outputIndex} = ${t.outputIndex}
                       where ${t.orderId} = ${o.id}), '[]'::json) as transfers
       from ${orders} o
       join ${merchants} m on ${m.id} = ${o.merchantId}
       left join ${chainCursors} c on ${c.network} = ${o.network} and ${c.mode} = ${o.mode}
       left join ${invoices} i on ${i.id} = ${o.invoiceId}
      where ${o.id} = ${param('id')}`,
);

/** The public view of an order, or null for an unknown or malformed id. Any order, any merchant: the id is the secret. */
export async function loadPublicView(db: Queryable, orderId: string): Promise<PublicOrderView | null> {
  if (!isUuid(orderId)) return null;
  const [row] = await PUBLIC_ORDER.run(db, { id: orderId });
  if (!row) return null;
  const {
    transfers,
    invoice_id,
    invoice_currency,
    invoice_amount,
    invoice_price_decimals,
    invoice_status,
    invoice_order_id,
    invoice_expires_at,
    ...rest
  } = row;
  const order: PublicOrderRow = {
    ...rest,
    invoice:
      invoice_id === null
        ? null
        : {
            id: invoice_id,
            currency: invoice_currency!,
            amount: invoice_amount!,
            price_decimals: invoice_price_decimals!,
            status: invoice_status!,
            order_id: invoice_order_id,
            expires_at: invoice_expires_at!,
          },
  };
  const network = orderNetwork(order.mode, order.network);
  if (!network) throw new Error(`network ${order.network} is not in the catalog`);
  const view = buildPublicView(
    order,
    transfers.map((t) => ({ ...t, first_seen_at: new Date(t.first_seen_at) })),
    {
      requiredConfirmations: requiredConfirmations(order.mode, network),
      blockSeconds: blockSecondsOf(order.mode, network),
      now: new Date(),
    },
  );
  // "Pay the rest" (docs/decisions/069) and the payer's refund (docs/decisions/088): read only for
  // the orders that may offer them.
  const restOffered = order.status === 'partial' || order.status === 'expired';
  const refundOffered = order.status === 'partial' || order.status === 'overpaid' || order.status === 'expired';
  if (!restOffered && !refundOffered) return view;
  const offer = restOffered ? await payerRest(db, order.id) : null;
  const refund = refundOffered ? await payerRefundOfferOf(db, order.id) : null;
  const decimals = findCurrency(network, order.currency)!.decimals;
  return {
    ...view,
    rest: offer && {
      left: offer.left === null ? null : formatUnits(offer.left, decimals),
      orderId: offer.orderId,
      settled: offer.settled,
      refunding: offer.refunding,
    },
    // Being refunded already (an address was given for it): nothing more to ask back.
    refundOffer:
      refund && !offer?.refunding ? { kind: refund.kind, amount: formatUnits(refund.amount, decimals) } : null,
  };
}

const BRAND = statement<Pick<RowOf<typeof merchants>, 'brand_logo' | 'brand_color'>, { id: string }>(
  sql`select ${m.brandLogo}, ${m.brandColor} from ${orders} o join ${merchants} m on ${m.id} = ${o.merchantId} where ${o.id} = ${param('id')}`,
);

/**
 * The brand of the order's merchant, for the payment page's first paint only: a query of its own
 * rather than a part of the view, which the page polls and hands to its client component.
 */
export async function loadPublicBrand(db: Queryable, orderId: string): Promise<PublicBrand> {
  const [row] = isUuid(orderId) ? await BRAND.run(db, { id: orderId }) : [];
  return { logo: row?.brand_logo ?? null, color: row?.brand_color ?? null };
}
