'use server';
import { redirect } from 'next/navigation';
import { MAX_QUANTITY, findProduct } from '@/lib/store';
import { checkout, StoreError, storeOrderCart } from '@/lib/store';
import { readCart, writeCart } from './cart';
import { postedForm } from '@/lib/security';

export async function addToCart(posted: FormData): Promise<void> {
  const form = postedForm(posted);
  const sku = String(form.get('sku') ?? '');
  if (!findProduct(sku)) return;
  const cart = await readCart();
  cart[sku] = Math.min((cart[sku] ?? 0) + 1, MAX_QUANTITY);
  await writeCart(cart);
}

export async function removeFromCart(posted: FormData): Promise<void> {
  const form = postedForm(posted);
  const cart = await readCart();
  delete cart[String(form.get('sku') ?? '')];
  await writeCart(cart);
}

/**
 * "Pay": the store's order is recorded, the gateway's invoice for its price in dollars made with
 * the store's keys (on the server; the browser only ever sees the invoice link), and the shopper
 * sent to the invoice page, where they pick the coin to pay in.
 */
export async function pay(): Promise<void> {
  let link: string;
  try {
    link = await checkout(await readCart());
  } catch (error) {
    if (error instanceof StoreError) redirect(`/store/checkout?error=${error.code}`);
    throw error;
  }
  await writeCart({});
  redirect(link);
}

/** "Order again" after an order expired or went unpaid: its items back in the cart, then the cart. */
export async function orderAgain(posted: FormData): Promise<void> {
  const form = postedForm(posted);
  const cart = await storeOrderCart(String(form.get('order') ?? ''));
  if (cart && Object.keys(cart).length > 0) await writeCart(cart);
  redirect('/store/checkout');
}
