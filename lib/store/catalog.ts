/**
 * The demo store's products and the prices it asks in each coin. Client-safe.
 *
 * The store prices in US cents and converts at the fixed DEMO_RATES below: they are illustrative,
 * not market data (the demo store runs on test keys only). A real store would ask a price feed.
 */
import { z } from 'zod';

export interface Product {
  sku: string;
  name: string;
  description: string;
  priceCents: number;
}

export const PRODUCTS: readonly Product[] = [
  { sku: 'mug', name: 'Ceramic mug', description: 'Holds 350 ml of coffee, or of patience while a block is mined.', priceCents: 1200 },
  { sku: 'stickers', name: 'Sticker pack', description: 'Six vinyl stickers for your laptop.', priceCents: 450 },
  { sku: 'hoodie', name: 'Hoodie', description: 'Warm, grey, with a small logo on the chest.', priceCents: 4500 },
];

export const findProduct = (sku: string) => PRODUCTS.find((p) => p.sku === sku);

/** US cents per whole coin (demo figures). */
export const DEMO_RATES: Readonly<Record<string, bigint>> = {
  BTC: 9_000_000n,
  LTC: 8_000n,
  BCH: 40_000n,
  DOGE: 20n,
  ETH: 300_000n,
  BNB: 60_000n,
  POL: 50n,
  TRX: 25n,
  XRP: 200n,
  USDT: 100n,
  USDC: 100n,
};

export type Cart = Record<string, number>;

export const MAX_QUANTITY = 20;

export function cartLines(cart: Cart): { product: Product; quantity: number; cents: number }[] {
  return Object.entries(cart).flatMap(([sku, quantity]) => {
    const product = findProduct(sku);
    return product && quantity > 0 ? [{ product, quantity, cents: product.priceCents * quantity }] : [];
  });
}

export const cartTotalCents = (cart: Cart) => cartLines(cart).reduce((sum, line) => sum + line.cents, 0);

/** "$12.50" from 1250 cents: string arithmetic, no float. */
export function formatUsd(cents: number): string {
  const digits = String(cents).padStart(3, '0');
  return `$${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

/**
 * The amount to ask in `ticker`, as a decimal string with at most `decimals` digits, rounded up so
 * the store is never paid less than its price; undefined when the store has no rate for the coin.
 */
export function priceIn(cents: number, ticker: string, decimals: number): string | undefined {
  const rate = DEMO_RATES[ticker.toUpperCase()];
  if (rate === undefined || cents <= 0) return undefined;
  const scale = 10n ** BigInt(decimals);
  const units = (BigInt(cents) * scale + rate - 1n) / rate;
  const whole = units / scale;
  const fraction = (units % scale).toString().padStart(decimals, '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : `${whole}`;
}

/** A cart as kept in the shopper's cookie: unknown products and bad quantities are dropped. */
export function parseCart(value: string | undefined): Cart {
  if (!value) return {};
  let json: unknown;
  try {
    json = JSON.parse(value);
  } catch {
    return {};
  }
  const entries = z.record(z.string(), z.unknown()).safeParse(json);
  if (!entries.success) return {};
  const quantity = z.number().int().min(1).max(MAX_QUANTITY);
  return Object.fromEntries(Object.entries(entries.data).filter(([sku, n]) => findProduct(sku) !== undefined && quantity.safeParse(n).success)) as Cart;
}
