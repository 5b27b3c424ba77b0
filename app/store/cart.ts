import 'server-only';
import { cookies } from 'next/headers';
import { parseCart, type Cart } from '@/lib/store';

const CART_COOKIE = 'demo-store-cart';

export async function readCart(): Promise<Cart> {
  return parseCart((await cookies()).get(CART_COOKIE)?.value);
}

export async function writeCart(cart: Cart): Promise<void> {
  (await cookies()).set(CART_COOKIE, JSON.stringify(cart), {
    httpOnly: true,
    sameSite: 'lax',
    path: '/store',
    maxAge: 7 * 24 * 3600,
  });
}
