/**
 * Exact arithmetic on prices for the rate service: decimals (lib/money `Decimal`, value/10^scale)
 * and fractions of bigints. Pure and client-safe; no price ever passes through a JavaScript number.
 */
import { parseDecimal, type Decimal } from '../money';

/** Fractional digits of an answered rate and of a price computed by a division (docs/rates.md, "How prices are combined"). */
export const RATE_SCALE = 18;

/** An exact non-negative fraction: num / den, den > 0. */
export interface Fraction {
  num: bigint;
  den: bigint;
}

const pow10 = (n: number): bigint => 10n ** BigInt(n);

/** a / b exactly; b must not be 0. */
export function divide(a: Decimal, b: Decimal): Fraction {
  if (b.value === 0n) throw new RangeError('division by zero');
  return { num: a.value * pow10(b.scale), den: b.value * pow10(a.scale) };
}

/** Drops trailing fractional zeros: one form per value. */
export function normalize(d: Decimal): Decimal {
  let { value, scale } = d;
  while (scale > 0 && value % 10n === 0n) {
    value /= 10n;
    scale -= 1;
  }
  return { value, scale };
}

/** The fraction rounded to `scale` fractional digits, half up (0.5 at the last digit goes up). */
export function roundHalfUp(f: Fraction, scale: number = RATE_SCALE): Decimal {
  const scaled = f.num * pow10(scale);
  return normalize({ value: (2n * scaled + f.den) / (2n * f.den), scale });
}

/** The decimal rounded to at most `scale` fractional digits, half up. */
export function roundDecimal(d: Decimal, scale: number = RATE_SCALE): Decimal {
  return d.scale <= scale ? normalize(d) : roundHalfUp({ num: d.value, den: pow10(d.scale) }, scale);
}

/** Both values at their common scale. */
function aligned(a: Decimal, b: Decimal): [bigint, bigint, number] {
  const scale = Math.max(a.scale, b.scale);
  return [a.value * pow10(scale - a.scale), b.value * pow10(scale - b.scale), scale];
}

export function compare(a: Decimal, b: Decimal): number {
  const [x, y] = aligned(a, b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * The median: the middle value, or for an even count the mean of the two middle values, exact
 * (one more fractional digit at most: (x + y) / 2 = (x + y) × 5 / 10).
 */
export function median(values: readonly Decimal[]): Decimal {
  if (values.length === 0) throw new RangeError('median of nothing');
  const sorted = [...values].sort(compare);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length % 2 === 1) return normalize(sorted[middle]!);
  const [x, y, scale] = aligned(sorted[middle - 1]!, sorted[middle]!);
  return normalize({ value: (x + y) * 5n, scale: scale + 1 });
}

/** |price − reference| ≤ percent % of reference, exactly. */
export function withinPercent(price: Decimal, reference: Decimal, percent: Decimal): boolean {
  const [p, r] = aligned(price, reference);
  const distance = p > r ? p - r : r - p;
  // distance / r ≤ percent.value / (100 × 10^percent.scale)
  return distance * 100n * pow10(percent.scale) <= percent.value * r;
}

/**
 * The exact plain decimal a provider's number text stands for: "67187.33", "1.5e-7", "2E+3".
 * JSON numbers are read as their text (never through a double), and a text in exponent form is
 * shifted digit by digit, so nothing is rounded. Undefined when it is not a non-negative number.
 */
export function decimalFromNumberText(text: string): Decimal | undefined {
  const match = /^(\d+)(?:\.(\d+))?(?:[eE]([-+]?\d{1,4}))?$/.exec(text);
  if (!match) return undefined;
  const [, whole, fraction = '', exponent] = match as unknown as [
    string,
    string,
    string | undefined,
    string | undefined,
  ];
  if (exponent === undefined) return parseDecimal(text);
  const digits = BigInt(whole + fraction);
  const shift = Number(exponent) - fraction.length;
  return normalize(shift >= 0 ? { value: digits * pow10(shift), scale: 0 } : { value: digits, scale: -shift });
}
