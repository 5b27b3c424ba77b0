import Link from 'next/link';
import { cartLines, cartTotalCents, formatUsd, PRODUCTS } from '@/lib/store';
import { addToCart } from './actions';
import { readCart } from './cart';

export default async function StorePage() {
  const cart = await readCart();
  const count = cartLines(cart).reduce((n, line) => n + line.quantity, 0);
  return (
    <main>
      <h1 className="sr-only">Products</h1>
      <ul className="grid gap-4 sm:grid-cols-3">
        {PRODUCTS.map((product) => (
          <li key={product.sku} className="flex flex-col rounded-lg border border-line p-4" data-sku={product.sku}>
            <h2 className="text-section font-semibold">{product.name}</h2>
            <p className="mt-1 flex-1 text-sm text-muted">{product.description}</p>
            <p className="mt-3 font-medium">{formatUsd(product.priceCents)}</p>
            <form action={addToCart} className="mt-3">
              <input type="hidden" name="sku" value={product.sku} />
              <button
                type="submit"
                className="w-full rounded-md bg-primary px-3 py-2 text-sm font-medium text-on-primary hover:bg-primary-hover focus-ring"
              >
                Add {product.name} to cart
              </button>
            </form>
          </li>
        ))}
      </ul>
      <p className="mt-6" aria-live="polite">
        {count === 0 ? (
          'Your cart is empty.'
        ) : (
          <>
            {count} item{count === 1 ? '' : 's'} in your cart, {formatUsd(cartTotalCents(cart))}.{' '}
            <Link href="/store/checkout" className="font-medium underline">
              Check out
            </Link>
          </>
        )}
      </p>
    </main>
  );
}
