import Link from 'next/link';
import { cartLines, cartTotalCents, formatUsd } from '@/lib/store';
import { STORE_ERRORS, type StoreErrorCode } from '@/lib/store';
import { pay, removeFromCart } from '../actions';
import { readCart } from '../cart';

/**
 * The cart and its price in dollars, and one "Pay" button (a form post: it works without
 * JavaScript). The coin is chosen afterwards, on the gateway's invoice page.
 */
export default async function CheckoutPage({ searchParams }: { searchParams: Promise<{ error?: string }> }) {
  const { error } = await searchParams;
  const cart = await readCart();
  const lines = cartLines(cart);
  const problem = error && Object.hasOwn(STORE_ERRORS, error) ? STORE_ERRORS[error as StoreErrorCode] : undefined;
  return (
    <main>
      <h1 className="text-title font-semibold">Your cart</h1>
      {problem && (
        <p role="alert" className="mt-4 rounded-md bg-bad-surface px-3 py-2 text-bad-ink">
          {problem}
        </p>
      )}
      {lines.length === 0 ? (
        <p className="mt-4">
          Your cart is empty.{' '}
          <Link href="/store" className="underline">
            See the products
          </Link>
          .
        </p>
      ) : (
        <>
          <ul className="mt-4 divide-y divide-line">
            {lines.map((line) => (
              <li key={line.product.sku} className="flex items-center justify-between py-2">
                <span>
                  {line.quantity} × {line.product.name}
                </span>
                <span className="flex items-center gap-3">
                  {formatUsd(line.cents)}
                  <form action={removeFromCart}>
                    <input type="hidden" name="sku" value={line.product.sku} />
                    <button type="submit" className="text-sm underline">
                      Remove {line.product.name}
                    </button>
                  </form>
                </span>
              </li>
            ))}
          </ul>
          <p className="mt-3 text-end font-semibold" data-testid="cart-total">
            Total {formatUsd(cartTotalCents(cart))}
          </p>
          <form action={pay} className="mt-6">
            <button type="submit" className="w-full rounded-md bg-emerald-700 px-4 py-3 font-semibold text-white">
              Pay
            </button>
            <p className="mt-2 text-center text-sm text-muted">
              You choose the cryptocurrency on the next page; its amount is worked out from the price in dollars.
            </p>
          </form>
        </>
      )}
    </main>
  );
}
