import 'server-only';
/**
 * The payer's coin choice on the invoice page: the rate is locked (the quote's while it is within
 * slippagePercent of the market, else the market's), the order is made for the coin at that rate,
 * and the invoice follows it. The payer may choose again while nothing has been paid: the earlier
 * order's deadline is brought to now, so a transfer that still reaches its address is shown to the
 * merchant as a late payment of that order (an orphan deposit), never lost.
 */
import { bare, chainTransfers, invoices, orders, param, sql, statement, type Database, type Queryable } from '../db';
import { formatUnits, parseDecimal } from '../money';
import { makeOrder, type OrderRow } from '../orders';
import { isUuid, type InvoiceCurrency } from '../protocol';
import { rateService } from '../rates';
import { CoinNotOffered, InvoiceClosed } from './errors';
import { canChooseCoin } from './lifecycle';
import { withinSlippage } from './slippage';
import { coinAmountFor, storedOffers } from './offers';
import type { InvoiceRow } from './rows';
import { NotFound } from '../errors';

/** The rate a choice made now gets: the quote's while the market is within the invoice's slippage of it, else the market's. */
export async function payableRate(
  invoice: Pick<InvoiceRow, 'mode' | 'currency' | 'quote_rates' | 'slippage_percent'>,
  ticker: string,
): Promise<string> {
  const market = (await rateService(invoice.mode).quote(ticker, invoice.currency)).rate;
  const quoted = invoice.quote_rates[ticker];
  if (quoted === undefined) return market;
  const slippage = parseDecimal(invoice.slippage_percent ?? '0')!;
  return withinSlippage(parseDecimal(quoted)!, parseDecimal(market)!, slippage) ? quoted : market;
}

const INVOICE = statement<InvoiceRow, { id: string }>(
  sql`select * from ${invoices} where ${invoices.id} = ${param('id')}`,
);

export async function loadInvoice(db: Database, invoiceId: string): Promise<InvoiceRow | undefined> {
  if (!isUuid(invoiceId)) return undefined;
  const [invoice] = await INVOICE.run(db, { id: invoiceId });
  return invoice;
}

const PAYMENT_SEEN = statement<{ seen: boolean }, { orderId: string }>(
  sql`select exists (select 1 from ${chainTransfers} where ${chainTransfers.orderId} = ${param('orderId')} and not ${chainTransfers.dropped}) as seen`,
);

/** A transfer to the order was seen (and not dropped): its coin can no longer change. */
async function paymentSeen(db: Queryable, orderId: string): Promise<boolean> {
  const [row] = await PAYMENT_SEEN.run(db, { orderId });
  return row!.seen;
}

const ORDER = statement<OrderRow, { id: string }>(sql`select * from ${orders} where ${orders.id} = ${param('id')}`);
const LOCK_ORDER = statement<unknown, { id: string }>(
  sql`select ${orders.id} from ${orders} where ${orders.id} = ${param('id')} for update`,
);
const LOCK_INVOICE = statement<InvoiceRow, { id: string }>(
  sql`select * from ${invoices} where ${invoices.id} = ${param('id')} for update`,
);
/** The earlier choice's order ends now: a transfer that still reaches it is a late payment of it. */
const END_ORDER = statement<unknown, { id: string }>(
  sql`update ${orders} set ${bare(orders.expiresAt)} = least(${orders.expiresAt}, now()), ${bare(orders.updatedAt)} = now()
   where ${orders.id} = ${param('id')} and ${orders.status} = 'pending'`,
);
const CHOOSE = statement<unknown, { id: string; orderId: string; rate: string }>(
  sql`update ${invoices} set ${bare(invoices.orderId)} = ${param('orderId')}, ${bare(invoices.rate)} = ${param('rate')}, ${bare(invoices.status)} = 'INIT',
     ${bare(invoices.choices)} = ${invoices.choices} + 1, ${bare(invoices.updatedAt)} = now()
   where ${invoices.id} = ${param('id')}`,
);

/**
 * Makes (or finds) the order for the payer's choice of `currency` on `network` and answers it.
 * Refused: an unknown invoice, one that no longer takes a choice (final, out of time, or a payment
 * already seen), a coin it does not offer, and a coin without a fresh rate (RateUnavailable).
 */
export async function chooseCoin(
  db: Database,
  invoiceId: string,
  choice: { currency: string; network: string },
  now = new Date(),
): Promise<OrderRow> {
  const invoice = await loadInvoice(db, invoiceId);
  if (!invoice) throw new NotFound('Invoice', invoiceId);
  if (!canChooseCoin(invoice.status, invoice.expires_at, now)) throw new InvoiceClosed(invoiceId);
  const ticker = choice.currency.toUpperCase();
  const [current] = invoice.order_id ? await ORDER.run(db, { id: invoice.order_id }) : [];
  if (current?.status === 'pending' && current.currency === ticker && current.network === choice.network.toLowerCase())
    return current;
  if (current && (await paymentSeen(db, current.id))) throw new InvoiceClosed(invoiceId);

  const coin = storedOffers(invoice.mode, invoice.currencies as InvoiceCurrency[]).find((c) => c.ticker === ticker);
  const offered = coin?.networks.find((n) => n.network.name === choice.network.toLowerCase());
  if (!offered) throw new CoinNotOffered(ticker, choice.network);
  const rate = await payableRate(invoice, ticker);
  const price = { value: BigInt(invoice.amount), scale: invoice.price_decimals };
  const units = coinAmountFor(price, rate, offered.currency, invoice.insurance_percent);
  // The order runs for its network's usual time, within the invoice's.
  const secondsLeft = Math.floor((invoice.expires_at.getTime() - now.getTime()) / 1000);
  if (secondsLeft < 1) throw new InvoiceClosed(invoiceId);

  const order = await makeOrder(
    { db, key: { keyId: null, merchantId: invoice.merchant_id, mode: invoice.mode }, nonce: null },
    {
      currency: ticker,
      network: offered.network.name,
      amount: formatUnits(units, offered.currency.decimals),
      order: `invoice:${invoice.id}:${invoice.choices + 1}`,
      description: invoice.description ?? undefined,
      returnUrl: invoice.return_url ?? undefined,
      lifetime: Math.min(offered.network.defaultLifetime, secondsLeft),
      invoiceId: invoice.id,
      // The invoice's webhook tells the merchant; the order sends none of its own.
      successWebhook: undefined,
      errorWebhook: undefined,
      paymentTolerancePercent: undefined,
      checkRisks: undefined,
      externalUserId: undefined,
      payerEmail: undefined,
    },
  );

  // The old order first, then the invoice: the watcher locks an order before its invoice too.
  const chosen = await db.transaction(async (tx) => {
    if (current) await LOCK_ORDER.run(tx, { id: current.id });
    const [locked] = await LOCK_INVOICE.run(tx, { id: invoice.id });
    // Another choice got in between: this one's order stays unused and expires unpaid.
    if (!locked || locked.choices !== invoice.choices || !canChooseCoin(locked.status, locked.expires_at, now))
      return false;
    if (current) {
      if (await paymentSeen(tx, current.id)) return false;
      await END_ORDER.run(tx, { id: current.id });
    }
    await CHOOSE.run(tx, { id: invoice.id, orderId: order.id, rate });
    return true;
  });
  if (!chosen) throw new InvoiceClosed(invoiceId);
  return order;
}
