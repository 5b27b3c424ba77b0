import 'server-only';
/**
 * A refund's amount in the coin, from what the merchant asked (docs/decisions/071): an amount in
 * the coin, or a price in fiat converted at the invoice's rate, the current rate or a rate the
 * merchant gives (price of one coin in the fiat). Fiat converts with one rounding, down
 * (`coinUnitsAtMost`): a refund never pays a base unit more than the price asked.
 */
import { invoices, param, sql, statement, type Queryable, type RowOf } from '../db';
import { coinUnitsAtMost, formatDecimal, parseDecimal, parseUnits } from '../money';
import { decimalsOf } from '../orders';
import type { Mode, RefundRateSource } from '../protocol';
import { rateService } from '../rates';
import { NotRefundable } from './errors';
import type { RefundablePayment } from './store';

/** What the merchant asks to refund. */
export type RefundPrice =
  | { amount: string }
  | {
      amount: string;
      /** A fiat code (the invoice's for the invoice's rate). */
      currency: string;
      /** `invoice`, `current`, or a rate (price of one coin in `currency`) as a decimal string. */
      rate: string;
    };

/** The refund's amount in base units, and for a fiat price what made it. */
export interface PricedRefund {
  amount: bigint;
  price: { amount: string; currency: string; rate: string; rateSource: RefundRateSource } | null;
}

const INVOICE_RATE = statement<Pick<RowOf<typeof invoices>, 'currency' | 'rate' | 'order_rates'>, { id: string }>(
  sql`select ${invoices.currency}, ${invoices.rate}, ${invoices.orderRates} from ${invoices} where ${invoices.id} = ${param('id')}`,
);

/** The rate the payment's order was made at by its invoice: price of one coin in the invoice's currency. */
async function invoiceRate(db: Queryable, payment: RefundablePayment): Promise<{ currency: string; rate: string }> {
  const [invoice] = payment.invoiceId ? await INVOICE_RATE.run(db, { id: payment.invoiceId }) : [];
  const rate = invoice && payment.orderId ? (invoice.order_rates[payment.orderId] ?? invoice.rate) : null;
  if (!invoice || !rate) throw new NotRefundable('Only an invoice has a rate of its own: give a rate or the coin.');
  return { currency: invoice.currency, rate };
}

/**
 * The three rates the refund form shows side by side for an invoice's payment (issue 37): the
 * invoice's own, the rate service's current one (null when it has none now), and the merchant's
 * own, typed in the form; each the price of one coin in the invoice's currency. Null for a
 * payment without an invoice: it is refunded in its coin.
 */
export interface RefundRates {
  fiat: string;
  invoice: string;
  current: string | null;
}

export async function refundRates(db: Queryable, mode: Mode, payment: RefundablePayment): Promise<RefundRates | null> {
  if (!payment.invoiceId) return null;
  const own = await invoiceRate(db, payment).catch(() => null);
  if (!own) return null;
  const current = await rateService(mode)
    .quote(payment.currency, own.currency)
    .then((quote) => quote.rate)
    .catch(() => null);
  return { fiat: own.currency, invoice: own.rate, current };
}

function amountRefused(message: string): NotRefundable {
  return new NotRefundable(message, 'amount');
}

/** The refund's amount for `price`, of the payment's coin. */
export async function priceRefund(
  db: Queryable,
  mode: Mode,
  payment: RefundablePayment,
  price: RefundPrice,
): Promise<PricedRefund> {
  const decimals = decimalsOf(payment.network, payment.currency);
  if (!('currency' in price) || price.currency.toUpperCase() === payment.currency) {
    const units = parseUnits(price.amount, decimals);
    if (!units.ok) {
      throw amountRefused(
        units.error === 'precision'
          ? `${payment.currency} has ${decimals} decimals: the amount has more.`
          : 'The amount is not a decimal the coin can hold.',
      );
    }
    return { amount: units.value, price: null };
  }
  const currency = price.currency.toUpperCase();
  const fiat = parseDecimal(price.amount);
  if (!fiat) throw amountRefused('The amount is not a decimal.');
  let rateSource: RefundRateSource;
  let rateText: string;
  if (price.rate === 'invoice') {
    const own = await invoiceRate(db, payment);
    if (own.currency !== currency) {
      throw new NotRefundable(`The invoice is priced in ${own.currency}: its rate converts ${own.currency} only.`);
    }
    rateSource = 'invoice';
    rateText = own.rate;
  } else if (price.rate === 'current') {
    rateSource = 'current';
    rateText = (await rateService(mode).quote(payment.currency, currency)).rate;
  } else {
    rateSource = 'custom';
    rateText = price.rate;
  }
  const rate = parseDecimal(rateText);
  if (!rate || rate.value === 0n) throw new NotRefundable('The rate must be a decimal above 0.', 'rate');
  return {
    amount: coinUnitsAtMost(fiat, rate, decimals),
    price: { amount: formatDecimal(fiat), currency, rate: formatDecimal(rate), rateSource },
  };
}
