import 'server-only';
import { randomUUID } from 'node:crypto';
import { NETWORKS, FIAT_CURRENCIES } from '../catalog';
import {
  apiNonces,
  bare,
  insertValues,
  invoices,
  param,
  placeholders,
  sql,
  statement,
  type Database,
  type Queryable,
} from '../db';
import { advancedBalanceId, type ApiKey } from '../merchants';
import { NonceReused } from '../orders';
import { maxWholeDigits, parseUnits, type Decimal } from '../money';
import type { MakeInvoiceRequest, Mode } from '../protocol';
import { priceableCurrencies, RateUnavailable, rateService, UnknownPriceCurrency } from '../rates';
import { InvoiceAmountInvalid, InvoiceConflict } from './errors';
import { lineItemsToStore, type GivenLineItem } from './items';
import { offeredAmounts, resolveOffers, type OfferedCoin } from './offers';
import { withOrders } from './read';
import type { InvoiceRow, InvoiceWithOrder } from './rows';
import { isDomainErrorOf } from '../errors';

export interface InvoiceCaller {
  db: Database;
  key: Pick<ApiKey, 'keyId' | 'merchantId' | 'mode'>;
  nonce: string;
}

/** Fractional digits of a price in `currency`: 2 for fiat, the most a coin has on any network (USDT: 18 on BSC). */
export function priceDecimalsOf(currency: string): number {
  if (FIAT_CURRENCIES.includes(currency)) return 2;
  return Math.max(
    0,
    ...NETWORKS.flatMap((n) => n.currencies.filter((c) => c.ticker === currency).map((c) => c.decimals)),
  );
}

/** The price of a request as an exact decimal of its currency. */
export function priceOf(currency: string, amount: string): { price: Decimal; decimals: number } {
  const decimals = priceDecimalsOf(currency);
  const units = parseUnits(amount, decimals);
  if (!units.ok) {
    throw new InvoiceAmountInvalid(
      units.error === 'range'
        ? `is too large for ${currency}: at most ${maxWholeDigits(decimals)} digits before the decimal point`
        : `must have at most ${decimals} decimal places for ${currency}`,
    );
  }
  return { price: { value: units.value, scale: decimals }, decimals };
}

/**
 * The rate of each offered coin in the price currency, now. A coin the merchant named without a
 * fresh rate fails the request (503 RATE_UNAVAILABLE naming the pair); with `currencies` absent,
 * such a coin is left out, and only no rate at all fails.
 */
async function quoteOffers(
  key: Pick<InvoiceCaller['key'], 'mode'>,
  offers: OfferedCoin[],
  currency: string,
  named: boolean,
) {
  const rates = rateService(key.mode);
  const quotes = await Promise.all(
    offers.map((coin) =>
      rates.quote(coin.ticker, currency).then(
        (quote) => ({ coin, rate: quote.rate }),
        (error: unknown) => {
          if (isDomainErrorOf(error, 'RateUnavailable') && !named) return { coin, rate: null, error };
          throw error;
        },
      ),
    ),
  );
  const priced = quotes.filter((q): q is { coin: OfferedCoin; rate: string } => q.rate !== null);
  if (priced.length === 0)
    throw quotes.find((q) => 'error' in q)?.error ?? new RateUnavailable(offers[0]?.ticker ?? currency, currency);
  return { offers: priced.map((q) => q.coin), rates: Object.fromEntries(priced.map((q) => [q.coin.ticker, q.rate])) };
}

/** The coins a link invoice offers and their rates in its price currency, quoted before it is made. */
export interface InvoiceQuote {
  mode: Mode;
  currency: string;
  currencies: MakeInvoiceRequest['currencies'];
  offers: OfferedCoin[];
  rates: Record<string, string>;
}

/**
 * Quotes what a link invoice in `currency` offering `currencies` needs (the rate sources: a network
 * call). A caller that makes the invoice under a row lock quotes first, outside any transaction,
 * and passes the quote in (lib/subscriptions): nobody waits on a rate source while a lock is held.
 */
export async function quoteLinkInvoice(
  mode: Mode,
  currency: string,
  currencies: MakeInvoiceRequest['currencies'],
): Promise<InvoiceQuote> {
  const named = (currencies?.length ?? 0) > 0;
  return {
    mode,
    currency,
    currencies,
    ...(await quoteOffers({ mode }, resolveOffers(mode, currencies), currency, named)),
  };
}

const jsonOrNull = (value: unknown) => (value === null ? null : JSON.stringify(value));

const INVOICE = placeholders([
  'id',
  'merchant_id',
  'mode',
  'advanced_balance_id',
  'external_id',
  'client_order',
  'idempotency_key',
  'currency',
  'amount',
  'price_decimals',
  'description',
  'items',
  'include_fee',
  'additional_fees',
  'insurance_percent',
  'slippage_percent',
  'webhook_url',
  'return_url',
  'lifetime',
  'currencies',
  'quote_rates',
  'key_id',
  'nonce',
]);
const $ = INVOICE;
const INVOICE_COLUMN_PAIRS = [
  [invoices.id, $.id],
  [invoices.merchantId, $.merchant_id],
  [invoices.mode, $.mode],
  [invoices.advancedBalanceId, $.advanced_balance_id],
  [invoices.externalId, $.external_id],
  [invoices.clientOrder, $.client_order],
  [invoices.idempotencyKey, $.idempotency_key],
  [invoices.currency, $.currency],
  [invoices.amount, sql`${$.amount}::numeric`],
  [invoices.priceDecimals, sql`${$.price_decimals}::int`],
  [invoices.description, $.description],
  [invoices.items, sql`${$.items}::jsonb`],
  [invoices.includeFee, sql`${$.include_fee}::boolean`],
  [invoices.additionalFees, sql`${$.additional_fees}::jsonb`],
  [invoices.insurancePercent, sql`${$.insurance_percent}::numeric`],
  [invoices.slippagePercent, sql`${$.slippage_percent}::numeric`],
  [invoices.webhookUrl, $.webhook_url],
  [invoices.returnUrl, $.return_url],
  [invoices.lifetime, sql`${$.lifetime}::int`],
  [invoices.currencies, sql`${$.currencies}::jsonb`],
  [invoices.quoteRates, sql`${$.quote_rates}::jsonb`],
  // The key that signs the invoice's webhook (docs/decisions/048).
  [invoices.apiKeyId, sql`${$.key_id}::uuid`],
  [invoices.createdAt, sql`now()`],
  [invoices.expiresAt, sql`now() + make_interval(mins => ${$.lifetime}::int)`],
] as const;
const COLUMNS = insertValues(INVOICE_COLUMN_PAIRS);

/**
 * One statement (one round trip, atomic), like make-order's: find the invoice with the same
 * idempotency key, record the nonce only when the request will succeed (new, or the same invoice
 * again), and insert. A rejected request writes nothing.
 */
const MAKE_INVOICE = statement<Outcome, Record<keyof typeof INVOICE, unknown>>(
  sql`
with existing as (
  select * from ${invoices} where ${invoices.merchantId} = ${$.merchant_id} and ${invoices.mode} = ${$.mode} and ${invoices.idempotencyKey} = ${$.idempotency_key}
), nonce as (
  insert into ${apiNonces} (${bare(apiNonces.keyId)}, ${bare(apiNonces.nonce)})
  select ${$.key_id}, ${$.nonce}
   where not exists (select 1 from existing)
      or exists (select 1 from existing e where e.currency = ${$.currency} and e.amount = ${$.amount}::numeric)
  on conflict do nothing returning 1
), inserted as (
  insert into ${invoices} (${COLUMNS.columns})
  select ${COLUMNS.values} where exists (select 1 from nonce) and not exists (select 1 from existing)
  on conflict (${bare(invoices.merchantId)}, ${bare(invoices.mode)}, ${bare(invoices.idempotencyKey)}) do nothing
  returning *
), found as (
  select 'created' as outcome, * from inserted union all select 'existing', * from existing
)
select (select count(*) from nonce)::int as nonce_recorded, found.* from (select 1) one left join found on true`,
  { name: 'make_invoice' },
);

const BY_IDEMPOTENCY_KEY = statement<InvoiceRow, { merchantId: string; mode: string; key: string | null }>(
  sql`select * from ${invoices} where ${invoices.merchantId} = ${param('merchantId')} and ${invoices.mode} = ${param('mode')}
    and ${invoices.idempotencyKey} = ${param('key')}`,
);
const FORGET_NONCE = statement<unknown, { keyId: string; nonce: string }>(
  sql`delete from ${apiNonces} where ${apiNonces.keyId} = ${param('keyId')} and ${apiNonces.nonce} = ${param('nonce')}`,
);

type Outcome = InvoiceRow & { outcome: 'created' | 'existing' | null; nonce_recorded: number };

/**
 * Creates an invoice, or answers the existing one when its idempotency key (`externalId`, else
 * `order`) was already used with the same currency and amount; with other values, 409.
 */
export async function makeInvoice(caller: InvoiceCaller, input: MakeInvoiceRequest): Promise<InvoiceWithOrder> {
  const { db, key, nonce } = caller;
  const currency = input.currency.toUpperCase();
  if (!priceableCurrencies().includes(currency)) throw new UnknownPriceCurrency(currency);
  const { price, decimals } = priceOf(currency, input.amount);
  const named = (input.currencies?.length ?? 0) > 0;
  const quoted = await quoteOffers(key, resolveOffers(key.mode, input.currencies), currency, named);
  const insurance = input.insurancePercent ?? null;
  const idempotencyKey = input.externalId ?? input.order ?? null;
  const values = {
    id: randomUUID(),
    merchant_id: key.merchantId,
    mode: key.mode,
    advanced_balance_id: await advancedBalanceId(db, key),
    external_id: input.externalId ?? null,
    client_order: input.order ?? null,
    idempotency_key: idempotencyKey,
    currency,
    amount: price.value.toString(),
    price_decimals: decimals,
    description: input.description ?? null,
    items: jsonOrNull(lineItemsToStore(input.items, price.value, decimals)),
    include_fee: input.includeFee ?? false,
    additional_fees: input.additionalFees ? JSON.stringify(input.additionalFees) : null,
    insurance_percent: insurance,
    slippage_percent: input.slippagePercent ?? null,
    webhook_url: input.webhookURL ?? null,
    return_url: input.returnUrl ?? null,
    lifetime: input.lifetime,
    currencies: JSON.stringify(offeredAmounts(quoted.offers, price, quoted.rates, insurance)),
    quote_rates: JSON.stringify(quoted.rates),
    key_id: key.keyId,
    nonce,
  };
  const [result] = await MAKE_INVOICE.run(db, values);
  const { outcome, nonce_recorded, ...row } = result!;
  const keyName = input.externalId ? 'externalId' : 'order';
  const same = (existing: InvoiceRow) => existing.currency === currency && BigInt(existing.amount) === price.value;
  if (outcome === 'created') return { invoice: row, order: null };
  if (outcome === 'existing') {
    if (!same(row)) throw new InvoiceConflict(row, keyName);
    if (!nonce_recorded) throw new NonceReused();
    return (await withOrders(db, [row]))[0]!;
  }
  if (!nonce_recorded) throw new NonceReused();
  // A concurrent request inserted the same key between our snapshot and our insert.
  const [winner] = await BY_IDEMPOTENCY_KEY.run(db, {
    merchantId: key.merchantId,
    mode: key.mode,
    key: idempotencyKey,
  });
  if (winner && same(winner)) return (await withOrders(db, [winner]))[0]!;
  await FORGET_NONCE.run(db, { keyId: key.keyId, nonce });
  if (winner) throw new InvoiceConflict(winner, keyName);
  throw new Error('make-invoice: invoice vanished after a conflicting insert');
}

/**
 * What a payment link's payer or a point-of-sale cashier starts (lib/links): an invoice of the
 * merchant and mode at a price the link (or the cashier) decided, offering the link's coins, made with no API key and no nonce (nobody
 * signed it) and without an idempotency key (each payer's is their own).
 */
export interface LinkInvoice {
  /** The payment link that made it, or null for a point-of-sale sale. */
  linkId: string | null;
  /** The cashier whose sale it is (point of sale), or null. */
  soldBy: string | null;
  merchantId: string;
  mode: Mode;
  /** The price currency (upper-case) and the price in its base units. */
  currency: string;
  amount: bigint;
  description: string | null;
  /** What the payer buys, line by line (a link's title and quantity, a sale and its tip); null for none. */
  items: GivenLineItem[] | null;
  webhookUrl: string | null;
  returnUrl: string | null;
  currencies: MakeInvoiceRequest['currencies'];
  /** Minutes. */
  lifetime: number;
  /** Its quote, made before (quoteLinkInvoice) for the same mode, currency and coins; absent, it is quoted here. */
  quote?: InvoiceQuote;
}

const LINK_INVOICE_COLUMNS = insertValues([
  ...INVOICE_COLUMN_PAIRS,
  [invoices.linkId, param('link_id')],
  [invoices.soldBy, param('sold_by')],
]);
type LinkInvoiceValues = Omit<Record<keyof typeof INVOICE, unknown>, 'nonce'> & {
  link_id: string | null;
  sold_by: string | null;
};
const INSERT_LINK_INVOICE = statement<InvoiceRow, LinkInvoiceValues>(
  sql`insert into ${invoices} (${LINK_INVOICE_COLUMNS.columns}) values (${LINK_INVOICE_COLUMNS.values}) returning *`,
  { name: 'make_link_invoice' },
);

/**
 * Makes a payment link's invoice (its caps are the link's to check, lib/links), or a
 * subscription's (lib/subscriptions, inside the transaction that records it).
 */
export async function makeLinkInvoice(db: Queryable, input: LinkInvoice): Promise<InvoiceRow> {
  const key = { merchantId: input.merchantId, mode: input.mode };
  const decimals = priceDecimalsOf(input.currency);
  const price = { value: input.amount, scale: decimals };
  const quoted = input.quote ?? (await quoteLinkInvoice(input.mode, input.currency, input.currencies));
  if (quoted.mode !== input.mode || quoted.currency !== input.currency)
    throw new Error(
      `makeLinkInvoice: a ${quoted.mode} ${quoted.currency} quote for a ${input.mode} ${input.currency} invoice`,
    );
  const [row] = await INSERT_LINK_INVOICE.run(db, {
    id: randomUUID(),
    link_id: input.linkId,
    sold_by: input.soldBy,
    merchant_id: input.merchantId,
    mode: input.mode,
    advanced_balance_id: await advancedBalanceId(db, key),
    external_id: null,
    client_order: null,
    idempotency_key: null,
    currency: input.currency,
    amount: input.amount.toString(),
    price_decimals: decimals,
    description: input.description,
    items: jsonOrNull(lineItemsToStore(input.items ?? undefined, input.amount, decimals)),
    include_fee: false,
    additional_fees: null,
    insurance_percent: null,
    slippage_percent: null,
    webhook_url: input.webhookUrl,
    return_url: input.returnUrl,
    lifetime: input.lifetime,
    currencies: JSON.stringify(offeredAmounts(quoted.offers, price, quoted.rates, null)),
    quote_rates: JSON.stringify(quoted.rates),
    // No API key made it: its webhook is signed with the mode's webhook key (docs/decisions/048).
    key_id: null,
  });
  return row!;
}
