import type { Decimal } from '../money';

/** True when `market` is within `slippagePercent` of `quoted` (|market − quoted| ≤ quoted × slippage / 100), exactly. */
export function withinSlippage(quoted: Decimal, market: Decimal, slippagePercent: Decimal): boolean {
  const scale = Math.max(quoted.scale, market.scale);
  const at = (d: Decimal) => d.value * 10n ** BigInt(scale - d.scale);
  const q = at(quoted);
  const m = at(market);
  const difference = m > q ? m - q : q - m;
  return difference * 100n * 10n ** BigInt(slippagePercent.scale) <= q * slippagePercent.value;
}
