import 'server-only';
/**
 * The payer's coin choice on the invoice page: the rate is locked (the quote's while it is within
 * slippagePercent of the market, else the market's), the order is made for the coin at that rate,
 * and the invoice answers with it. The payer may choose again while nothing has been paid. The
 * earlier order keeps running to its own deadline: the invoice follows every order it made
 * (./lifecycle), so a payment already on its way to the abandoned coin still pays the invoice.
 * Choosing that coin again reuses its order while it runs, and an invoice makes at most
 * MAX_INVOICE_ORDERS orders: each takes a deposit address.
 *
 * The payer may give an e-mail address with the choice (docs/decisions/110): it becomes the order's
 * `payerEmail`, where its mails and a refund's claim link go. A choice taken up again keeps the
 * address its order has; one given then fills an order made without.
 */
import { bare, invoices, orders, param, sql, statement, type Database } from '../db';
import { formatUnits, parseDecimal } from '../money';
import { makeOrder, type OrderRow } from '../orders';
import { isUuid, type InvoiceCurrency } from '../protocol';
import { rateService } from '../rates';
import { CoinNotOffered, InvoiceClosed, TooManyCoinChoices } from './errors';
import { canChooseCoin, MAX_INVOICE_ORDERS } from './lifecycle';
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

/** The invoice's order for the coin while it runs: choosing the coin again takes it up again. */
const RUNNING_ORDER = statement<OrderRow, { invoiceId: string; currency: string; network: string; now: Date }>(
  sql`select * from ${orders} where ${orders.invoiceId} = ${param('invoiceId')} and ${orders.currency} = ${param('currency')}
     and ${orders.network} = ${param('network')} and ${orders.status} = 'pending' and ${orders.expiresAt} > ${param('now')}
   order by ${orders.createdAt} desc limit 1`,
);
/** The running order of a choice taken up again gets the payer's address when it has none (never replaced). */
const FILL_PAYER_EMAIL = statement<unknown, { id: string; email: string }>(
  sql`update ${orders} set ${bare(orders.payerEmail)} = ${param('email')}, ${bare(orders.updatedAt)} = now()
   where ${orders.id} = ${param('id')} and ${orders.payerEmail} is null and ${orders.status} = 'pending'`,
);
/** Takes the invoice's next order number, within the bound (one statement: concurrent choices cannot pass it). */
const RESERVE_ORDER = statement<{ choices: number }, { id: string }>(
  sql`update ${invoices} set ${bare(invoices.choices)} = ${invoices.choices} + 1, ${bare(invoices.updatedAt)} = now()
   where ${invoices.id} = ${param('id')} and ${invoices.choices} < ${sql.raw(String(MAX_INVOICE_ORDERS))}
   returning ${invoices.choices}`,
);
/** Gives the number back when no order was made with it and none was taken since. */
const RELEASE_ORDER = statement<unknown, { id: string; choices: number }>(
  sql`update ${invoices} set ${bare(invoices.choices)} = ${invoices.choices} - 1
   where ${invoices.id} = ${param('id')} and ${invoices.choices} = ${param('choices')}`,
);
const LOCK_INVOICE = statement<InvoiceRow, { id: string }>(
  sql`select * from ${invoices} where ${invoices.id} = ${param('id')} for update`,
);
// While a choice is taken, no order of the invoice has a payment (canChooseCoin): it waits, INIT.
const CHOOSE = statement<unknown, { id: string; orderId: string; rate: string | null }>(
  sql`update ${invoices} set ${bare(invoices.orderId)} = ${param('orderId')}, ${bare(invoices.rate)} = ${param('rate')}, ${bare(invoices.status)} = 'INIT',
     ${bare(invoices.orderRates)} = ${invoices.orderRates} || jsonb_build_object(${param('orderId')}::text, ${param('rate')}::text),
     ${bare(invoices.updatedAt)} = now()
   where ${invoices.id} = ${param('id')}`,
);

/**
 * Makes (or finds) the order for the payer's choice of `currency` on `network` and answers it,
 * with `payerEmail` (already checked, lib/protocol `payerEmailField`) for its mails when given.
 * Refused: an unknown invoice, one that no longer takes a choice (final, out of time, or a payment
 * already seen), a coin it does not offer, a coin without a fresh rate (RateUnavailable), and a
 * new order beyond MAX_INVOICE_ORDERS (TooManyCoinChoices; the coins chosen before stay open).
 */
export async function chooseCoin(
  db: Database,
  invoiceId: string,
  choice: { currency: string; network: string; payerEmail?: string },
  now = new Date(),
): Promise<OrderRow> {
  const invoice = await loadInvoice(db, invoiceId);
  if (!invoice) throw new NotFound('Invoice', invoiceId);
  if (!canChooseCoin(invoice.status, invoice.expires_at, now)) throw new InvoiceClosed(invoiceId);
  const ticker = choice.currency.toUpperCase();
  const coin = storedOffers(invoice.mode, invoice.currencies as InvoiceCurrency[]).find((c) => c.ticker === ticker);
  const offered = coin?.networks.find((n) => n.network.name === choice.network.toLowerCase());
  if (!offered) throw new CoinNotOffered(ticker, choice.network);

  const [running] = await RUNNING_ORDER.run(db, {
    invoiceId: invoice.id,
    currency: ticker,
    network: offered.network.name,
    now,
  });
  if (running) {
    if (running.id !== invoice.order_id) await choose(db, invoice.id, running, invoice.order_rates[running.id], now);
    if (choice.payerEmail && running.payer_email === null)
      await FILL_PAYER_EMAIL.run(db, { id: running.id, email: choice.payerEmail });
    return running;
  }

  const rate = await payableRate(invoice, ticker);
  const price = { value: BigInt(invoice.amount), scale: invoice.price_decimals };
  const units = coinAmountFor(price, rate, offered.currency, invoice.insurance_percent);
  // The order runs for its network's usual time, within the invoice's.
  const secondsLeft = Math.floor((invoice.expires_at.getTime() - now.getTime()) / 1000);
  if (secondsLeft < 1) throw new InvoiceClosed(invoiceId);
  const [reserved] = await RESERVE_ORDER.run(db, { id: invoice.id });
  if (!reserved) throw new TooManyCoinChoices(invoiceId, MAX_INVOICE_ORDERS);

  let order: OrderRow;
  try {
    order = await makeOrder(
      { db, key: { keyId: null, merchantId: invoice.merchant_id, mode: invoice.mode }, nonce: null },
      {
        currency: ticker,
        network: offered.network.name,
        amount: formatUnits(units, offered.currency.decimals),
        order: `invoice:${invoice.id}:${reserved.choices}`,
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
        payerEmail: choice.payerEmail,
      },
    );
  } catch (error) {
    // A busy gateway (no address free) must not use up the payer's choices.
    await RELEASE_ORDER.run(db, { id: invoice.id, choices: reserved.choices });
    throw error;
  }
  await choose(db, invoice.id, order, rate, now);
  return order;
}

/**
 * Makes `order` the invoice's current choice, if the invoice still takes one. When it no longer
 * does (a payment was seen meanwhile, or its time ran out), the order is refused to the payer but
 * stays the invoice's: it runs to its deadline like every order of the invoice, unpaid.
 */
async function choose(db: Database, invoiceId: string, order: OrderRow, rate: string | undefined, now: Date) {
  const chosen = await db.transaction(async (tx) => {
    const [locked] = await LOCK_INVOICE.run(tx, { id: invoiceId });
    if (!locked || !canChooseCoin(locked.status, locked.expires_at, now)) return false;
    await CHOOSE.run(tx, { id: invoiceId, orderId: order.id, rate: rate ?? null });
    return true;
  });
  if (!chosen) throw new InvoiceClosed(invoiceId);
}
