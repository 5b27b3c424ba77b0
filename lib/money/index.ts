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
export function parseUnits(text: string, decimals: number): { ok: true; value: bigint } | { ok: false; error: DecimalError } {
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
