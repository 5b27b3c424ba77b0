import 'server-only';
/**
 * Payment links in the database: made by the API or the dashboard, read with their counts (views,
 * invoices, paid, total), listed newest first, disabled. Every read of a merchant's links has its
 * merchant and mode in its `where`; the public page reads one link by its unguessable id.
 */
import { randomUUID } from 'node:crypto';
import { bare, insertValues, invoices, merchants, paymentLinks, param, placeholders, sql, statement } from '../db';
import type { Queryable, RowOf } from '../db';
import { NotFound } from '../errors';
import { priceDecimalsOf, resolveOffers } from '../invoices';
import { logoImageType } from '../merchants';
import { parseUnits, maxWholeDigits } from '../money';
import { isUuid, type CreatePaymentLinkRequest, type ErrorDetail, type Mode } from '../protocol';
import { priceableCurrencies, UnknownPriceCurrency } from '../rates';
import { PaymentLinkInvalid } from './errors';

export type PaymentLinkRow = RowOf<typeof paymentLinks>;
/** A link with what it made: invoices, the paid ones, and their total in the link's currency (base units). */
export type LinkWithCounts = PaymentLinkRow & { invoice_count: number; paid_count: number; paid_total: string };
export type LinkScope = { merchantId: string; mode: Mode };

/** The statuses of a paid invoice: what a link's uses, paid count and total count. */
const PAID = sql`('PROCESSED', 'OVERPAID')`;
const COUNTS = sql`(select count(*)::int from ${invoices} where ${invoices.linkId} = ${paymentLinks.id}) as invoice_count,
  (select count(*)::int from ${invoices} where ${invoices.linkId} = ${paymentLinks.id} and ${invoices.status} in ${PAID}) as paid_count,
  (select coalesce(sum(${invoices.amount}), 0)::text from ${invoices} where ${invoices.linkId} = ${paymentLinks.id} and ${invoices.status} in ${PAID}) as paid_total`;

const $ = placeholders([
  'id',
  'merchant_id',
  'mode',
  'title',
  'description',
  'image',
  'currency',
  'price_decimals',
  'amount',
  'min_amount',
  'max_amount',
  'max_quantity',
  'currencies',
  'webhook_url',
  'return_url',
  'expires_at',
  'max_uses',
]);
const COLUMNS = insertValues([
  [paymentLinks.id, $.id],
  [paymentLinks.merchantId, $.merchant_id],
  [paymentLinks.mode, $.mode],
  [paymentLinks.title, $.title],
  [paymentLinks.description, $.description],
  [paymentLinks.image, $.image],
  [paymentLinks.currency, $.currency],
  [paymentLinks.priceDecimals, sql`${$.price_decimals}::int`],
  [paymentLinks.amount, sql`${$.amount}::numeric`],
  [paymentLinks.minAmount, sql`${$.min_amount}::numeric`],
  [paymentLinks.maxAmount, sql`${$.max_amount}::numeric`],
  [paymentLinks.maxQuantity, sql`${$.max_quantity}::int`],
  [paymentLinks.currencies, sql`${$.currencies}::jsonb`],
  [paymentLinks.webhookUrl, $.webhook_url],
  [paymentLinks.returnUrl, $.return_url],
  [paymentLinks.expiresAt, sql`${$.expires_at}::timestamptz`],
  [paymentLinks.maxUses, sql`${$.max_uses}::int`],
]);
const INSERT_LINK = statement<PaymentLinkRow, Record<keyof typeof $, unknown>>(
  sql`insert into ${paymentLinks} (${COLUMNS.columns}) values (${COLUMNS.values}) returning *`,
);

/** `value` (a decimal string of the request) in base units of a currency with `decimals`, or the problem with it. */
function unitsOf(path: string, value: string, currency: string, decimals: number, details: ErrorDetail[]): bigint {
  const units = parseUnits(value, decimals);
  if (units.ok) return units.value;
  details.push({
    path,
    message:
      units.error === 'range'
        ? `is too large for ${currency}: at most ${maxWholeDigits(decimals)} digits before the decimal point`
        : `must have at most ${decimals} decimal places for ${currency}`,
  });
  return 0n;
}

/**
 * Makes a payment link. Refused, writing nothing: a price currency without rates, a price more
 * precise than its currency, minAmount above maxAmount, an image whose bytes are not PNG, JPEG,
 * GIF or WebP, an expiry already past, coins the mode cannot take.
 */
export async function createPaymentLink(
  db: Queryable,
  scope: LinkScope,
  input: CreatePaymentLinkRequest,
  now = new Date(),
): Promise<LinkWithCounts> {
  const currency = input.currency.toUpperCase();
  if (!priceableCurrencies().includes(currency)) throw new UnknownPriceCurrency(currency);
  resolveOffers(scope.mode, input.currencies); // a coin the mode cannot take: InvoiceCurrencyUnsupported, named
  const decimals = priceDecimalsOf(currency);
  const details: ErrorDetail[] = [];
  const units = (path: 'amount' | 'minAmount' | 'maxAmount') => {
    const value = input[path];
    return value === undefined ? null : unitsOf(path, value, currency, decimals, details);
  };
  const [amount, minAmount, maxAmount] = [units('amount'), units('minAmount'), units('maxAmount')];
  if (minAmount !== null && maxAmount !== null && minAmount > maxAmount)
    details.push({ path: 'maxAmount', message: 'must be at least minAmount' });
  if (input.image !== undefined) {
    const bytes = Buffer.from(input.image.slice(input.image.indexOf(',') + 1), 'base64');
    const type = logoImageType(bytes);
    if (!type || !input.image.startsWith(`data:${type};`))
      details.push({ path: 'image', message: 'must hold a PNG, JPEG, GIF or WebP image of the type it names' });
  }
  const expiresAt = input.expiresAt === undefined ? null : new Date(input.expiresAt);
  if (expiresAt && expiresAt.getTime() <= now.getTime())
    details.push({ path: 'expiresAt', message: 'must be in the future' });
  if (details.length > 0) throw new PaymentLinkInvalid(details);

  const [row] = await INSERT_LINK.run(db, {
    id: randomUUID(),
    merchant_id: scope.merchantId,
    mode: scope.mode,
    title: input.title,
    description: input.description ?? null,
    image: input.image ?? null,
    currency,
    price_decimals: decimals,
    amount: amount?.toString() ?? null,
    min_amount: minAmount?.toString() ?? null,
    max_amount: maxAmount?.toString() ?? null,
    max_quantity: input.maxQuantity ?? null,
    currencies: input.currencies ? JSON.stringify(input.currencies) : null,
    webhook_url: input.webhookURL ?? null,
    return_url: input.returnUrl ?? null,
    expires_at: expiresAt,
    max_uses: input.maxUses ?? null,
  });
  return { ...row!, invoice_count: 0, paid_count: 0, paid_total: '0' };
}

const SCOPED = sql`${paymentLinks.merchantId} = ${param('merchantId')} and ${paymentLinks.mode} = ${param('mode')}`;
const LINK_OF_SCOPE = statement<LinkWithCounts, LinkScope & { id: string }>(
  sql`select *, ${COUNTS} from ${paymentLinks} where ${paymentLinks.id} = ${param('id')} and ${SCOPED}`,
);
const LIST_LINKS = statement<LinkWithCounts, LinkScope & { limit: number; offset: number }>(
  sql`select *, ${COUNTS} from ${paymentLinks} where ${SCOPED}
   order by ${paymentLinks.createdAt} desc, ${paymentLinks.id} desc limit ${param('limit')} offset ${param('offset')}`,
);
const COUNT_LINKS = statement<{ n: number }, LinkScope>(
  sql`select count(*)::int as n from ${paymentLinks} where ${SCOPED}`,
);
const DISABLE_LINK = statement<{ id: string }, LinkScope & { id: string }>(
  sql`update ${paymentLinks} set ${bare(paymentLinks.active)} = false, ${bare(paymentLinks.updatedAt)} = now()
   where ${paymentLinks.id} = ${param('id')} and ${SCOPED} returning ${paymentLinks.id}`,
);

/** One of the caller's links with its counts; another merchant's or mode's is not found. */
export async function getPaymentLink(db: Queryable, scope: LinkScope, id: string): Promise<LinkWithCounts> {
  if (!isUuid(id)) throw new NotFound('Payment link', id);
  const [row] = await LINK_OF_SCOPE.run(db, { ...scope, id });
  if (!row) throw new NotFound('Payment link', id);
  return row;
}

/** The caller's links, newest first, with their counts. */
export async function listPaymentLinks(
  db: Queryable,
  scope: LinkScope,
  page: { limit: number; offset: number },
): Promise<{ links: LinkWithCounts[]; total: number }> {
  const links = await LIST_LINKS.run(db, { ...scope, ...page });
  const [count] = await COUNT_LINKS.run(db, scope);
  return { links, total: count!.n };
}

/** Stops the link making invoices (idempotent); the invoices it made run on. */
export async function disablePaymentLink(db: Queryable, scope: LinkScope, id: string): Promise<LinkWithCounts> {
  if (!isUuid(id)) throw new NotFound('Payment link', id);
  const [row] = await DISABLE_LINK.run(db, { ...scope, id });
  if (!row) throw new NotFound('Payment link', id);
  return getPaymentLink(db, scope, id);
}

/** A link by its public id, with its counts and its merchant's name and brand: what the public page shows. */
export type PublicLinkRow = LinkWithCounts &
  Pick<RowOf<typeof merchants>, 'brand_logo' | 'brand_color'> & { merchant_name: string };
const PUBLIC_LINK = statement<PublicLinkRow, { id: string }>(
  sql`select ${paymentLinks}.*, ${COUNTS}, ${merchants.name} as merchant_name, ${merchants.brandLogo}, ${merchants.brandColor}
   from ${paymentLinks} join ${merchants} on ${merchants.id} = ${paymentLinks.merchantId} where ${paymentLinks.id} = ${param('id')}`,
);
/** Counts a visit of the link's page and answers the link (none for an unknown id). */
const VIEW_LINK = statement<unknown, { id: string }>(
  sql`update ${paymentLinks} set ${bare(paymentLinks.views)} = ${paymentLinks.views} + 1 where ${paymentLinks.id} = ${param('id')}`,
);

export async function findPublicLink(db: Queryable, id: string): Promise<PublicLinkRow | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await PUBLIC_LINK.run(db, { id });
  return row;
}

/** Counts one visit of the link's page. */
export async function countLinkView(db: Queryable, id: string): Promise<void> {
  if (isUuid(id)) await VIEW_LINK.run(db, { id });
}
