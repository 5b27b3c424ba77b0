/**
 * The demo store's products, priced in US cents, and its cart. Client-safe.
 *
 * The store asks its price in dollars (a make-invoice in USD): the gateway converts it at its own
 * rates into the coin the shopper picks on the invoice page, so the store keeps no rates.
 */
import { z } from 'zod';

export interface Product {
  sku: string;
  name: string;
  description: string;
  priceCents: number;
}

export const PRODUCTS: readonly Product[] = [
  {
    sku: 'mug',
    name: 'Ceramic mug',
    description: 'Holds 350 ml of coffee, or of patience while a block is mined.',
    priceCents: 1200,
  },
  { sku: 'stickers', name: 'Sticker pack', description: 'Six vinyl stickers for your laptop.', priceCents: 450 },
  { sku: 'hoodie', name: 'Hoodie', description: 'Warm, grey, with a small logo on the chest.', priceCents: 4500 },
];

export const findProduct = (sku: string) => PRODUCTS.find((p) => p.sku === sku);

export type Cart = Record<string, number>;

export const MAX_QUANTITY = 20;

export function cartLines(cart: Cart): { product: Product; quantity: number; cents: number }[] {
  return Object.entries(cart).flatMap(([sku, quantity]) => {
    const product = findProduct(sku);
    return product && quantity > 0 ? [{ product, quantity, cents: product.priceCents * quantity }] : [];
  });
}

export const cartTotalCents = (cart: Cart) => cartLines(cart).reduce((sum, line) => sum + line.cents, 0);

/** "12.50" from 1250 cents, as the API takes an amount: string arithmetic, no float. */
export function usdAmount(cents: number): string {
  if (!Number.isSafeInteger(cents) || cents < 0) throw new RangeError(`not a number of cents: ${cents}`);
  const digits = String(cents).padStart(3, '0');
  return `${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

/** "$12.50" from 1250 cents. */
export const formatUsd = (cents: number): string => `$${usdAmount(cents)}`;

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
  return Object.fromEntries(
    Object.entries(entries.data).filter(([sku, n]) => findProduct(sku) !== undefined && quantity.safeParse(n).success),
  ) as Cart;
}
