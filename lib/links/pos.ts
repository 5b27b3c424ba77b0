import 'server-only';
/**
 * The point of sale (/dashboard/pos): a cashier keys in an amount in the merchant's point-of-sale
 * currency, adds a tip the merchant offers, and the sale is an invoice (lib/invoices) whose QR code
 * the payer scans: the payer picks the coin on their phone, which makes the order and takes the
 * address. A cashier sees only their own sales (`invoices.sold_by`).
 */
import { bare, invoices, merchants, param, sql, statement, type Database, type Queryable, type RowOf } from '../db';
import { NotFound } from '../errors';
import { makeLinkInvoice, priceDecimalsOf, type InvoiceRow } from '../invoices';
import { formatDecimal, parseUnits } from '../money';
import { INVOICE_LIFETIME_MINUTES, isUuid, type ErrorDetail, type InvoiceStatus, type Mode } from '../protocol';
import { priceableCurrencies } from '../rates';
import { LinkChoiceInvalid, PaymentLinkInvalid } from './errors';
import { saleTotal } from './rules';

export interface Cashier {
  merchantId: string;
  mode: Mode;
  userId: string;
}

export interface PosSettings {
  currency: string;
  decimals: number;
  tips: number[];
}

const SETTINGS = statement<Pick<RowOf<typeof merchants>, 'pos_currency' | 'pos_tips'>, { id: string }>(
  sql`select ${merchants.posCurrency}, ${merchants.posTips} from ${merchants} where ${merchants.id} = ${param('id')}`,
);

/** The merchant's point-of-sale currency and tips. */
export async function posSettings(db: Queryable, merchantId: string): Promise<PosSettings> {
  const [row] = await SETTINGS.run(db, { id: merchantId });
  const currency = row?.pos_currency ?? 'USD';
  return { currency, decimals: priceDecimalsOf(currency), tips: row?.pos_tips ?? [] };
}

/** The most a sale may be, in whole units of its currency: a counter, not a wire transfer. */
const MAX_WHOLE_DIGITS = 9;

/**
 * Makes a sale of `amount` (a decimal string in the point-of-sale currency) with a tip of
 * `tipPercent` (0, or one of the merchant's tips): an invoice sold by the cashier. Refused with
 * LinkChoiceInvalid: an amount that is not a positive decimal of the currency, too large, or a
 * tip the merchant does not offer.
 */
export async function startSale(
  db: Database,
  cashier: Cashier,
  input: { amount: string; tipPercent: number },
): Promise<InvoiceRow> {
  const settings = await posSettings(db, cashier.merchantId);
  const units = parseUnits(input.amount, settings.decimals);
  if (!units.ok || units.value <= 0n || input.amount.split('.')[0]!.length > MAX_WHOLE_DIGITS)
    throw new LinkChoiceInvalid('amount');
  if (input.tipPercent !== 0 && !settings.tips.includes(input.tipPercent)) throw new LinkChoiceInvalid('quantity');
  const { tip, total } = saleTotal(units.value, input.tipPercent);
  const money = (value: bigint) => formatDecimal({ value, scale: settings.decimals });
  return makeLinkInvoice(db, {
    linkId: null,
    soldBy: cashier.userId,
    merchantId: cashier.merchantId,
    mode: cashier.mode,
    currency: settings.currency,
    amount: total,
    description:
      tip > 0n
        ? `Sale ${money(units.value)} + tip ${input.tipPercent}% ${money(tip)} ${settings.currency}`
        : `Sale ${money(units.value)} ${settings.currency}`,
    items: [
      { name: 'Sale', quantity: 1, price: units.value },
      ...(tip > 0n ? [{ name: `Tip ${input.tipPercent}%`, quantity: 1, price: tip }] : []),
    ],
    webhookUrl: null,
    returnUrl: null,
    currencies: undefined,
    lifetime: INVOICE_LIFETIME_MINUTES.default,
  });
}

export type SaleRow = Pick<
  InvoiceRow,
  'id' | 'status' | 'amount' | 'price_decimals' | 'currency' | 'description' | 'created_at'
>;

const SALE = statement<SaleRow, { id: string; userId: string }>(
  sql`select ${invoices.id}, ${invoices.status}, ${invoices.amount}, ${invoices.priceDecimals}, ${invoices.currency}, ${invoices.description}, ${invoices.createdAt}
   from ${invoices} where ${invoices.id} = ${param('id')} and ${invoices.soldBy} = ${param('userId')}`,
);
const SALES_SINCE = statement<SaleRow, { userId: string; since: Date }>(
  sql`select ${invoices.id}, ${invoices.status}, ${invoices.amount}, ${invoices.priceDecimals}, ${invoices.currency}, ${invoices.description}, ${invoices.createdAt}
   from ${invoices} where ${invoices.soldBy} = ${param('userId')} and ${invoices.createdAt} >= ${param('since')}
   order by ${invoices.createdAt} desc limit 200`,
);

/** One of the cashier's own sales; anyone else's is not found. */
export async function getSale(db: Queryable, userId: string, saleId: string): Promise<SaleRow> {
  if (!isUuid(saleId)) throw new NotFound('Sale', saleId);
  const [row] = await SALE.run(db, { id: saleId, userId });
  if (!row) throw new NotFound('Sale', saleId);
  return row;
}

/** The cashier's own sales since `since` (the start of their day), newest first. */
export function salesSince(db: Queryable, userId: string, since: Date): Promise<SaleRow[]> {
  return SALES_SINCE.run(db, { userId, since });
}

/** A sale's invoice status as the point of sale shows it. */
export function saleState(status: InvoiceStatus): 'waiting' | 'paid' | 'failed' {
  if (status === 'PROCESSED' || status === 'OVERPAID') return 'paid';
  if (status === 'CREATED' || status === 'INIT' || status === 'PENDING') return 'waiting';
  return 'failed';
}

const SET_POS = statement<unknown, { id: string; currency: string; tips: string }>(
  sql`update ${merchants} set ${bare(merchants.posCurrency)} = ${param('currency')}, ${bare(merchants.posTips)} = ${param('tips')}::jsonb
   where ${merchants.id} = ${param('id')}`,
);

/**
 * Sets the point of sale's currency (one with rates, like a link's) and its tips (up to three
 * whole percents from 1 to 50, in the order given). Refused with PaymentLinkInvalid, saving nothing.
 */
export async function updatePosSettings(
  db: Queryable,
  merchantId: string,
  input: { currency: string; tips: number[] },
): Promise<{ currency: string; tips: number[] }> {
  const currency = input.currency.trim().toUpperCase();
  const details: ErrorDetail[] = [];
  if (!priceableCurrencies().includes(currency))
    details.push({ path: 'currency', message: `must be one of ${priceableCurrencies().join(', ')}` });
  const tips = [...new Set(input.tips)];
  if (tips.length > 3 || tips.some((tip) => !Number.isInteger(tip) || tip < 1 || tip > 50))
    details.push({ path: 'tips', message: 'must be at most three whole percents from 1 to 50' });
  if (details.length > 0) throw new PaymentLinkInvalid(details);
  await SET_POS.run(db, { id: merchantId, currency, tips: JSON.stringify(tips) });
  return { currency, tips };
}
