/**
 * A payment link's page (`/link/{id}`, a server component): what is sold, its price, and one form
 * that makes the invoice (a post to ./start, which works without JavaScript): a quantity when the
 * link allows several, or the amount when the payer chooses it. Texts come in one language as
 * props; logical properties mirror the layout in Arabic and Urdu; amounts stay left to right.
 */
import type { Language } from '@/lib/pay/i18n';
import type { LinkPageError, LinkMessages } from '@/lib/pay/link-messages';
import type { Messages } from '@/lib/pay/messages';
import type { PublicBrand } from '@/lib/pay/view';
import { brandHeaderClass, brandProps, MerchantLine } from '../pay/brand';
import { LanguageLinks } from '../pay/language-links';
import { BUTTON, fill } from '../pay/ui';

/** What the page shows of a link: nothing its payer could not see anyway. */
export interface PublicLinkView {
  linkId: string;
  title: string;
  description: string | null;
  image: string | null;
  merchantName: string;
  brand: PublicBrand;
  test: boolean;
  open: boolean;
  /** The fixed price as the language writes it, or null when the payer chooses the amount. */
  price: string | null;
  maxQuantity: number | null;
  /** The bounds of a chosen amount, formatted; and the currency it is typed in. */
  range: { min: string; max: string; currency: string } | null;
}

const FIELD = 'mt-1 block w-full rounded-md border border-line-strong bg-surface px-3 py-2 text-lg focus-ring';

export function LinkPage({
  view,
  m,
  lm,
  language,
  error,
}: {
  view: PublicLinkView;
  m: Messages;
  lm: LinkMessages;
  language: Language;
  error: LinkPageError | null;
}) {
  const errorText =
    error === null || error === 'closed'
      ? null
      : fill(lm.errors[error], {
          min: view.range?.min ?? '',
          max: error === 'quantity' ? String(view.maxQuantity ?? 1) : (view.range?.max ?? ''),
        });
  return (
    <>
      {view.test && (
        <div
          data-testid="test-banner"
          className="bg-test-surface px-3 py-1 text-center text-sm font-bold tracking-wide text-test-ink"
        >
          {m.testMode}
        </div>
      )}
      <main {...brandProps(view.brand)} className="mx-auto w-full max-w-md px-4 py-4">
        <header className={`flex flex-wrap items-center justify-between gap-2 ${brandHeaderClass(view.brand)}`}>
          <MerchantLine brand={view.brand} merchant={view.merchantName}>
            {fill(m.payTo, { merchant: view.merchantName })}
          </MerchantLine>
          <LanguageLinks current={language} m={m} />
        </header>

        <h1 className="mt-4 break-words text-title font-semibold" data-testid="link-title">
          {view.title}
        </h1>
        {view.image && (
          // A checked data: URL (lib/links): next/image has nothing to add. Decorative: the title names it.
          <img src={view.image} alt="" className="mt-3 max-h-64 w-auto rounded-md object-contain" />
        )}
        {view.description && <p className="mt-2 whitespace-pre-line break-words">{view.description}</p>}
        {view.price && (
          <section aria-label={lm.price} className="mt-3">
            <p className="text-sm">{lm.price}</p>
            <p className="text-3xl font-semibold" data-testid="link-price">
              <span dir="ltr">{view.price}</span>
            </p>
          </section>
        )}

        {errorText && (
          <p
            role="alert"
            data-testid="link-error"
            className="mt-3 rounded-md border-s-4 border-bad-line bg-bad-surface px-3 py-2 text-sm text-bad-ink"
          >
            {errorText}
          </p>
        )}

        {view.open ? (
          <form method="post" action={`/link/${view.linkId}/start`} className="mt-4 space-y-3">
            <input type="hidden" name="lang" value={language} />
            {view.maxQuantity !== null && view.maxQuantity > 1 && (
              <label className="block">
                <span className="text-sm font-medium">{lm.quantity}</span>
                <input
                  name="quantity"
                  type="number"
                  inputMode="numeric"
                  min={1}
                  max={view.maxQuantity}
                  defaultValue={1}
                  required
                  dir="ltr"
                  className={FIELD}
                />
              </label>
            )}
            {view.range && (
              <label className="block">
                <span className="text-sm font-medium">{fill(lm.amount, { currency: view.range.currency })}</span>
                <input
                  name="amount"
                  type="text"
                  inputMode="decimal"
                  pattern="[0-9]+([.][0-9]+)?"
                  required
                  dir="ltr"
                  aria-describedby="amount-range"
                  className={FIELD}
                />
                <span id="amount-range" className="mt-1 block text-sm">
                  {fill(lm.amountRange, { min: view.range.min, max: view.range.max })}
                </span>
              </label>
            )}
            <button type="submit" className={`${BUTTON} w-full`} data-testid="link-go-on">
              {lm.goOn}
            </button>
          </form>
        ) : (
          <p data-testid="link-closed" className="mt-4 rounded-md border-s-4 border-line-strong bg-raised px-3 py-2">
            {lm.closed}
          </p>
        )}
      </main>
    </>
  );
}
