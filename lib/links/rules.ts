/**
 * A payment link's rules as pure functions (unit-tested in ./rules.test.ts): its status from what
 * it is and what it made, and the price of a payer's choice.
 */
import { parseUnits } from '../money';
import type { PaymentLinkStatus } from '../protocol';

export interface LinkFacts {
  active: boolean;
  expiresAt: Date | null;
  maxUses: number | null;
  /** Its invoices that were paid (PROCESSED or OVERPAID). */
  paid: number;
}

/** DISABLED before EXPIRED before USED_UP: the reason a merchant acted on comes first. */
export function linkStatus(link: LinkFacts, now: Date): PaymentLinkStatus {
  if (!link.active) return 'DISABLED';
  if (link.expiresAt !== null && link.expiresAt.getTime() <= now.getTime()) return 'EXPIRED';
  if (link.maxUses !== null && link.paid >= link.maxUses) return 'USED_UP';
  return 'ACTIVE';
}

/** What a link charges: a fixed price (times a quantity up to `maxQuantity`), or an amount the payer chooses within bounds. */
export type LinkPrice =
  { kind: 'fixed'; amount: bigint; maxQuantity: number | null } | { kind: 'chosen'; min: bigint; max: bigint };

export type PriceOfChoice =
  { ok: true; amount: bigint; quantity: number } | { ok: false; problem: 'amount' | 'quantity' };

/**
 * The invoice's price for the payer's choice, in base units of the link's currency (`decimals`
 * fractional digits): the fixed price times the quantity (1 when the link asks none), or the
 * amount typed, which must be within the bounds and have no more decimals than the currency.
 */
export function priceOfChoice(
  price: LinkPrice,
  decimals: number,
  choice: { amount?: string | undefined; quantity?: number | undefined },
): PriceOfChoice {
  if (price.kind === 'fixed') {
    const quantity = choice.quantity ?? 1;
    if (!Number.isInteger(quantity) || quantity < 1 || quantity > (price.maxQuantity ?? 1))
      return { ok: false, problem: 'quantity' };
    return { ok: true, amount: price.amount * BigInt(quantity), quantity };
  }
  const units = parseUnits(choice.amount ?? '', decimals);
  if (!units.ok || units.value < price.min || units.value > price.max) return { ok: false, problem: 'amount' };
  return { ok: true, amount: units.value, quantity: 1 };
}

/**
 * A point-of-sale sale: the amount keyed in plus a tip of `tipPercent` whole percent of it, in
 * base units, the tip rounded half up to the currency's smallest unit.
 */
export function saleTotal(amount: bigint, tipPercent: number): { tip: bigint; total: bigint } {
  const tip = (amount * BigInt(tipPercent) * 2n + 100n) / 200n;
  return { tip, total: amount + tip };
}
