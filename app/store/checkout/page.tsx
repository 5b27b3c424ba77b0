import Link from 'next/link';
import { cartLines, cartTotalCents, formatUsd } from '@/lib/store';
import { paymentOptions, STORE_ERRORS, StoreError, type PaymentOption, type StoreErrorCode } from '@/lib/store';
import { pay, removeFromCart } from '../actions';
import { readCart } from '../cart';

export default async function CheckoutPage({ searchParams }: { searchParams: Promise<{ error?: string }> }) {
  const { error } = await searchParams;
  const cart = await readCart();
  const lines = cartLines(cart);
  let options: PaymentOption[] = [];
  let problem = error && error in STORE_ERRORS ? STORE_ERRORS[error as StoreErrorCode] : undefined;
  if (lines.length > 0) {
    try {
      options = await paymentOptions(cart);
    } catch (failure) {
      if (!(failure instanceof StoreError)) throw failure;
      problem ??= failure.message;
    }
  }
  return (
    <main>
      <h1 className="text-lg font-semibold">Your cart</h1>
      {problem && (
        <p role="alert" className="mt-4 rounded-md bg-red-100 px-3 py-2 text-red-900 dark:bg-red-900/40 dark:text-red-100">
          {problem}
        </p>
      )}
      {lines.length === 0 ? (
        <p className="mt-4">
          Your cart is empty. <Link href="/store" className="underline">See the products</Link>.
        </p>
      ) : (
        <>
          <ul className="mt-4 divide-y divide-slate-200 dark:divide-slate-800">
            {lines.map((line) => (
              <li key={line.product.sku} className="flex items-center justify-between py-2">
                <span>
                  {line.quantity} × {line.product.name}
                </span>
                <span className="flex items-center gap-3">
                  {formatUsd(line.cents)}
                  <form action={removeFromCart}>
                    <input type="hidden" name="sku" value={line.product.sku} />
                    <button type="submit" className="text-sm underline">Remove {line.product.name}</button>
                  </form>
                </span>
              </li>
            ))}
          </ul>
          <p className="mt-3 text-end font-semibold">Total {formatUsd(cartTotalCents(cart))}</p>
          {options.length > 0 && (
            <form action={pay} className="mt-6">
              <fieldset>
                <legend className="font-medium">Pay with</legend>
                <div className="mt-2 grid gap-2 sm:grid-cols-2">
                  {options.map((option, i) => (
                    <label key={`${option.currency}@${option.network}`} className="flex cursor-pointer items-center gap-2 rounded-md border border-slate-200 p-2 dark:border-slate-800">
                      <input type="radio" name="coin" value={`${option.currency}@${option.network}`} defaultChecked={i === 0} required />
                      <span>
                        {option.currency} on {option.networkName}
                        <span className="block text-sm text-slate-600 dark:text-slate-300">
                          {option.amount} {option.currency}
                        </span>
                      </span>
                    </label>
                  ))}
                </div>
              </fieldset>
              <button type="submit" className="mt-4 w-full rounded-md bg-emerald-700 px-4 py-3 font-semibold text-white">
                Pay
              </button>
            </form>
          )}
        </>
      )}
    </main>
  );
}
