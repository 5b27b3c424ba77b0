/**
 * Money as integer base units. Decimal strings exist only at the API edge; everything in
 * between is a bigint. Nothing here ever touches a JavaScript number.
 */

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/** Digits of the money columns, NUMERIC(78,0) base units (lib/db/schema.ts): any uint256 value fits. */
export const MONEY_COLUMN_DIGITS = 78;

/**
 * The most digits an amount the gateway is given may have in base units (an order's amount, a
 * simulated payment): at most 10^77 - 1. One digit less than the columns leaves room for the sums
 * kept in them: an order's `received` is below its amount plus the one payment that completes it
 * (at most 1.1 times the amount from the payment page), so under 10^78.
 */
export const MAX_AMOUNT_DIGITS = MONEY_COLUMN_DIGITS - 1;

/** How many digits an amount of a currency with `decimals` may have before the decimal point. */
export function maxWholeDigits(decimals: number): number {
  return MAX_AMOUNT_DIGITS - decimals;
}

export type DecimalError = 'format' | 'precision' | 'range';

/**
 * Parses a plain decimal string ("12", "0.5", "1.250") into base units of `decimals`.
 * Rejects signs, exponents, leading zeros ("01.5"), more fractional digits than `decimals`
 * ('precision') and more than MAX_AMOUNT_DIGITS digits of base units ('range').
 */
export function parseUnits(
  text: string,
  decimals: number,
): { ok: true; value: bigint } | { ok: false; error: DecimalError } {
  const match = DECIMAL.exec(text);
  if (!match) return { ok: false, error: 'format' };
  const [, whole, fraction = ''] = match as unknown as [string, string, string | undefined];
  if (whole.length > 1 && whole.startsWith('0')) return { ok: false, error: 'format' };
  const trimmed = fraction.replace(/0+$/, '');
  if (trimmed.length > decimals) return { ok: false, error: 'precision' };
  if (whole !== '0' && whole.length > maxWholeDigits(decimals)) return { ok: false, error: 'range' };
  return { ok: true, value: BigInt(whole + trimmed.padEnd(decimals, '0')) };
}

/** Base units to the canonical decimal string: no trailing fractional zeros, no exponent. */
export function formatUnits(value: bigint, decimals: number): string {
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** A percentage kept exactly as a fraction: value / 10^scale percent. */
export interface Percent {
  value: bigint;
  scale: number;
}

const MAX_PERCENT_SCALE = 6;

/** Parses a percentage such as "0.5"; up to 6 fractional digits. */
export function parsePercent(text: string): Percent | undefined {
  const match = DECIMAL.exec(text);
  if (!match) return undefined;
  const [, whole, fraction = ''] = match as unknown as [string, string, string | undefined];
  if (whole.length > 1 && whole.startsWith('0')) return undefined;
  const trimmed = fraction.replace(/0+$/, '');
  if (trimmed.length > MAX_PERCENT_SCALE) return undefined;
  return { value: BigInt(whole + trimmed), scale: trimmed.length };
}

export function formatPercent(percent: Percent): string {
  return formatUnits(percent.value, percent.scale);
}

/**
 * The least amount that completes an order: amount x (1 - tolerance/100), rounded up to a whole
 * base unit so that a tolerance never lets a payer pay less than the merchant agreed to.
 */
export function paymentThreshold(amount: bigint, tolerance: Percent): bigint {
  const hundred = 100n * 10n ** BigInt(tolerance.scale);
  const numerator = amount * (hundred - tolerance.value);
  return (numerator + hundred - 1n) / hundred;
}

/** A fee of `percent` on `amount`, rounded down (the merchant is never charged a fraction more). */
export function percentOf(amount: bigint, percent: Percent): bigint {
  return (amount * percent.value) / (100n * 10n ** BigInt(percent.scale));
}

/** An exact non-negative decimal: value / 10^scale. */
export interface Decimal {
  value: bigint;
  scale: number;
}

/**
 * Parses "73.50", "0.000012" (no sign, exponent or leading zero like "01"); undefined when not a
 * plain decimal. Trailing fractional zeros are dropped ("73.50" is { value: 735n, scale: 1 }), so
 * that equal decimals have one form, as parsePercent does.
 */
export function parseDecimal(text: string): Decimal | undefined {
  const match = DECIMAL.exec(text);
  if (!match) return undefined;
  const [, whole, fraction = ''] = match as unknown as [string, string, string | undefined];
  if (whole.length > 1 && whole.startsWith('0')) return undefined;
  const trimmed = fraction.replace(/0+$/, '');
  return { value: BigInt(whole + trimmed), scale: trimmed.length };
}

/** Canonical string: trailing fractional zeros removed ("73.5"), no exponent. */
export function formatDecimal(d: Decimal): string {
  return formatUnits(d.value, d.scale);
}

function checkDecimal(name: string, d: Decimal): void {
  if (d.value < 0n || !Number.isSafeInteger(d.scale) || d.scale < 0)
    throw new RangeError(`${name} must be a non-negative decimal`);
}

function checkDecimals(decimals: number): void {
  if (!Number.isSafeInteger(decimals) || decimals < 0)
    throw new RangeError('decimals must be a non-negative whole number');
}

/**
 * Base units of a coin with `decimals` that are worth `price` (in the price currency) at `rate`
 * (price of ONE whole coin in the price currency), with `insurancePercent` added:
 *   units = ceil( price × (100 + insurancePercent)/100 × 10^decimals / rate )
 * computed exactly, as one fraction of bigints, with one rounding, up, at the end: the payer is
 * never asked a fraction of a base unit less than the price. Throws on rate 0.
 */
export function coinUnitsFor(
  price: Decimal,
  rate: Decimal,
  decimals: number,
  insurancePercent: Decimal = { value: 0n, scale: 0 },
): bigint {
  checkDecimal('price', price);
  checkDecimal('rate', rate);
  checkDecimal('insurancePercent', insurancePercent);
  checkDecimals(decimals);
  if (rate.value === 0n) throw new RangeError('rate must be positive');
  // price.value/10^ps × (100·10^is + ins.value)/(100·10^is) × 10^decimals × 10^rs/rate.value
  const hundred = 100n * 10n ** BigInt(insurancePercent.scale);
  const numerator = price.value * (hundred + insurancePercent.value) * 10n ** BigInt(decimals + rate.scale);
  const denominator = 10n ** BigInt(price.scale) * hundred * rate.value;
  return (numerator + denominator - 1n) / denominator;
}

/**
 * Base units of a coin with `decimals` that are worth at most `price` at `rate` (price of ONE whole
 * coin): floor( price × 10^decimals / rate ), exactly. Money out rounds down: a refund priced in
 * fiat never pays a fraction of a base unit more than the price (docs/decisions/071). Throws on rate 0.
 */
export function coinUnitsAtMost(price: Decimal, rate: Decimal, decimals: number): bigint {
  checkDecimal('price', price);
  checkDecimal('rate', rate);
  checkDecimals(decimals);
  if (rate.value === 0n) throw new RangeError('rate must be positive');
  return (price.value * 10n ** BigInt(decimals + rate.scale)) / (10n ** BigInt(price.scale) * rate.value);
}

/**
 * What `units` of a coin with `decimals` are worth in the price currency at `rate` (price of one
 * whole coin), rounded DOWN to `scale` fractional digits, as a canonical decimal string.
 */
export function valueOfUnits(units: bigint, decimals: number, rate: Decimal, scale: number): string {
  if (units < 0n) throw new RangeError('units must not be negative');
  checkDecimal('rate', rate);
  checkDecimals(decimals);
  if (!Number.isSafeInteger(scale) || scale < 0) throw new RangeError('scale must be a non-negative whole number');
  // units/10^decimals × rate.value/10^rs, in units of 10^-scale
  const value = (units * rate.value * 10n ** BigInt(scale)) / 10n ** BigInt(decimals + rate.scale);
  return formatUnits(value, scale);
}
