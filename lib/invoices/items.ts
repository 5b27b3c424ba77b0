/**
 * An invoice's line items (docs/decisions/095): what the payer bought, line by line, as the
 * merchant's API call, a payment link or a point-of-sale sale gave it. Stored on the invoice in
 * base units of its currency; shown on the receipt, both PDFs and the paid mail. Pure: tested in
 * items.test.ts.
 */
import { z } from 'zod';
import { formatUnits, parseUnits } from '../money';
import { InvoiceAmountInvalid } from './errors';
import type { InvoiceLineItem } from './view';

/** A line as the invoice row keeps it: `unitPrice` in base units of the invoice's currency. */
export interface StoredLineItem {
  name: string;
  quantity: number;
  unitPrice: string;
}

/** A line as a maker gives it: the price of one, a decimal string (make-invoice) or base units (links, sales). */
export interface GivenLineItem {
  name: string;
  quantity: number;
  price: string | bigint;
}

/**
 * The lines to store for an invoice of `amount` base units with `decimals` fractional digits, or
 * null when none were given. Refused (InvoiceAmountInvalid on `items`): a price with more
 * decimals than the currency has or too large, and lines whose total is not the invoice's price
 * (the receipt would otherwise list what the payer did not pay for).
 */
export function lineItemsToStore(
  items: readonly GivenLineItem[] | undefined,
  amount: bigint,
  decimals: number,
): StoredLineItem[] | null {
  if (!items || items.length === 0) return null;
  const stored = items.map((item, index) => {
    let unitPrice: bigint;
    if (typeof item.price === 'bigint') unitPrice = item.price;
    else {
      const units = parseUnits(item.price, decimals);
      if (!units.ok)
        throw new InvoiceAmountInvalid(
          units.error === 'range' ? 'has a price that is too large' : `has a price with more than ${decimals} decimals`,
          `items.${index}.price`,
        );
      unitPrice = units.value;
    }
    return { name: item.name, quantity: item.quantity, unitPrice: unitPrice.toString() };
  });
  const total = stored.reduce((sum, item) => sum + BigInt(item.unitPrice) * BigInt(item.quantity), 0n);
  if (total !== amount)
    throw new InvoiceAmountInvalid(
      `add up to ${formatUnits(total, decimals)}, not the amount ${formatUnits(amount, decimals)}`,
      'items',
    );
  return stored;
}

/** The stored column read back; anything else than its own shape reads as no lines. */
const STORED = z.array(
  z.object({
    name: z.string(),
    quantity: z.number().int().positive(),
    unitPrice: z.string().regex(/^\d+$/),
  }),
);

/** The lines of an invoice as its documents show them: prices and line totals as decimal strings. */
export function lineItemsOf(stored: unknown, decimals: number): InvoiceLineItem[] {
  const parsed = STORED.safeParse(stored);
  if (!parsed.success) return [];
  return parsed.data.map((item) => ({
    name: item.name,
    quantity: item.quantity,
    unitPrice: formatUnits(BigInt(item.unitPrice), decimals),
    total: formatUnits(BigInt(item.unitPrice) * BigInt(item.quantity), decimals),
  }));
}
