/**
 * The invoice page's markup (`/invoice/{id}`, a server component): the merchant, the price in the
 * invoice's currency, the description, and by the view's screen either the coin choice (with the
 * invoice's countdown) or where the payment stands: in progress, paid, expired, or closed without
 * a complete payment, each with its way on (the payment page, the store). Once paid, the claim of
 * an excess of the order that paid it (docs/decisions/110), as its payment page offers it
 * (../pay/pay-refund).
 *
 * Like the payment page (../pay/payment-page): texts come in one language as props, the layout
 * uses logical properties so that Arabic mirrors, and amounts stay left to right. Its only client
 * code is the countdown, the search box of a long list, the choice buttons' pending state, and
 * while the chosen order runs, the leaf that follows it (TanStack Query, decision 055).
 */
import type { InvoiceScreen, PublicInvoiceView } from '@/lib/invoices/view';
import type { Language } from '@/lib/pay/i18n';
import type { InvoiceChoiceError, InvoiceMessages, Messages } from '@/lib/pay/messages';
import { brandHeaderClass, brandProps, MerchantLine } from '../pay/brand';
import { LanguageLinks } from '../pay/language-links';
import { FollowOrder } from '../live/follow-order';
import type { OrderShown } from '../live/order-shown';
import { LiveQueries } from '../live/query-provider';
import type { ReceiptMessages } from '@/lib/receipts/receipt-messages';
import { PayRefund, type PayerRefundNotice } from '../pay/pay-refund';
import { BUTTON, fill } from '../pay/ui';
import type { PayerRefundMessages } from '@/lib/pay/payer-refund-messages';
import type { PublicOrderView } from '@/lib/pay/view';
import { CoinList, PayerEmailField } from './coin-list';
import { InvoiceCountdown } from './invoice-countdown';

interface Props {
  view: PublicInvoiceView;
  /** The payment page's texts (shared words: countdown, "Return to store", languages). */
  m: Messages;
  im: InvoiceMessages;
  language: Language;
  /** The price as the page's language writes it ("$73.50", "0.001 BTC"), formatted on the server. */
  price: string;
  /** Why the last choice was refused (`?error=`), if it was. */
  error: InvoiceChoiceError | null;
  /** The page's server action: chooses the posted coin. */
  choose: (form: FormData) => Promise<void>;
  /** The chosen order as the page shows it, while the page follows it (../live/follow-order). */
  followed: OrderShown | null;
  /** The links to the invoice's PDF and, once paid, its receipt (lib/receipts). */
  rm: Pick<ReceiptMessages, 'downloadPdf' | 'viewReceipt'>;
  /** Once paid: the order that paid the invoice as its payment page shows it, and the invoice's refund post (./actions). */
  payerRefund: {
    order: PublicOrderView;
    m: PayerRefundMessages;
    notice: PayerRefundNotice;
    action: (form: FormData) => Promise<void>;
  } | null;
}

const TONE: Record<InvoiceScreen, string> = {
  choose: 'border-info-line bg-info-surface text-info-ink',
  pay: 'border-info-line bg-info-surface text-info-ink',
  paid: 'border-good-line bg-good-surface text-good-ink',
  expired: 'border-line-strong bg-raised text-ink',
  closed: 'border-bad-line bg-bad-surface text-bad-ink',
};

const LINK_BUTTON = `${BUTTON} inline-block text-center`;
const WIDE_LINK_BUTTON = `${BUTTON} block w-full text-center`;

export function InvoicePage({ view, m, im, language, price, error, choose, followed, rm, payerRefund }: Props) {
  const screen = im.screens[view.screen];
  const payment = view.chosen && `/pay/${view.chosen.orderId}?lang=${language}`;
  const returnUrl = view.returnUrl && /^https?:\/\//i.test(view.returnUrl) ? view.returnUrl : null;
  const chosenNames = view.chosen && namesOf(view, view.chosen);
  // The ways on from the screen: the payment page (to pay, or for the details of a closed
  // payment) and, once the invoice is over, the store.
  const ways = [
    view.screen === 'pay' && payment && (
      <a key="pay" href={payment} className={LINK_BUTTON}>
        {im.continueToPayment}
      </a>
    ),
    view.screen === 'paid' && (
      <a key="receipt" href={`/invoice/${view.invoiceId}/receipt?lang=${language}`} className="font-medium underline">
        {rm.viewReceipt}
      </a>
    ),
    (view.screen === 'paid' || view.screen === 'closed') && payment && (
      <a key="details" href={payment} className="font-medium underline">
        {im.paymentDetails}
      </a>
    ),
    view.screen !== 'choose' && view.screen !== 'pay' && returnUrl && (
      <a key="store" href={returnUrl} className={LINK_BUTTON}>
        {m.returnToStore}
      </a>
    ),
  ].filter(Boolean);
  return (
    <>
      {view.test && (
        <div
          data-testid="test-banner"
          className="bg-test-surface px-3 py-1 text-center text-sm font-bold tracking-wide text-test-ink"
        >
          {m.testMode}
          <span className="sr-only">{`${m.separators.label}${im.testModeNote}`}</span>
        </div>
      )}
      {/*
       * One column on a phone: the order, then the choice. From 1024 px the order summary sits beside
       * the choice, as a checkout lays it out, and stays in view while the list scrolls.
       */}
      <main
        {...brandProps(view.brand)}
        className="mx-auto w-full max-w-md px-4 py-4 lg:grid lg:max-w-5xl lg:grid-cols-[minmax(0,20rem)_minmax(0,1fr)] lg:items-start lg:gap-x-12 lg:px-8 lg:py-10"
      >
        <div data-testid="order-summary" className="lg:sticky lg:top-10">
          <header className={`flex flex-wrap items-center justify-between gap-2 ${brandHeaderClass(view.brand)}`}>
            <MerchantLine brand={view.brand} merchant={view.merchantName}>
              {fill(m.payTo, { merchant: view.merchantName })}
            </MerchantLine>
            <LanguageLinks current={language} m={m} />
          </header>

          <section aria-label={im.price} className="mt-3">
            <p className="text-sm">{im.price}</p>
            <p className="text-3xl font-semibold" data-testid="invoice-price">
              <span dir="ltr">{price}</span>
            </p>
            {view.description && <p className="mt-1 whitespace-pre-line break-words text-sm">{view.description}</p>}
            <a
              href={`/invoice/${view.invoiceId}/pdf?lang=${language}`}
              className="mt-1 inline-block text-sm underline"
              data-testid="invoice-pdf"
            >
              {rm.downloadPdf}
            </a>
          </section>
          {view.screen === 'choose' && <PayerEmailField im={im} />}
        </div>
        <div data-testid="invoice-choice" className="lg:[&>*:first-child]:mt-0">
          {error && (
            <p
              role="alert"
              data-testid="choice-error"
              className="mt-3 rounded-md border-s-4 border-bad-line bg-bad-surface px-3 py-2 text-sm text-bad-ink"
            >
              {im.errors[error]}
            </p>
          )}

          <section data-screen={view.screen} className={`mt-3 rounded-lg border-s-4 px-4 py-3 ${TONE[view.screen]}`}>
            <h1 className="text-title font-semibold">{screen.title}</h1>
            <p className="mt-1 text-sm">{screen.body}</p>
            {view.screen === 'choose' && (
              <InvoiceCountdown
                expiresAt={view.expiresAt}
                serverTime={view.serverTime}
                m={{ timeLeft: m.timeLeft, expiringSoon: m.expiringSoon, timeUp: m.timeUp, separators: m.separators }}
              />
            )}
            {ways.length > 0 && <div className="mt-3 flex flex-wrap items-center gap-3">{ways}</div>}
          </section>
          {payerRefund && (
            <PayRefund
              view={payerRefund.order}
              m={payerRefund.m}
              language={language}
              embed={false}
              notice={payerRefund.notice}
              action={payerRefund.action}
            />
          )}
          {view.chosen && followed && (
            <LiveQueries>
              <FollowOrder orderId={view.chosen.orderId} shown={followed} />
            </LiveQueries>
          )}

          {view.screen === 'choose' && payment && chosenNames && (
            <section data-testid="current-choice" className="mt-4 rounded-lg border-2 border-info-line p-3">
              <p className="text-sm">{fill(im.chosen, chosenNames)}</p>
              <a href={payment} className={`${WIDE_LINK_BUTTON} mt-2`}>
                {fill(im.continueWith, chosenNames)}
              </a>
              <p className="mt-2 text-xs">{im.chosenNote}</p>
            </section>
          )}

          {view.screen === 'choose' && (
            <CoinList
              coins={view.coins}
              current={view.chosen && `${view.chosen.currency}@${view.chosen.network}`}
              choose={choose}
              language={language}
              im={im}
              label={view.chosen ? im.chooseAnother : im.coins}
            />
          )}
        </div>
      </main>
    </>
  );
}

/** The chosen coin's ticker and network name as the list names them (the network id when the list lacks it). */
function namesOf(
  view: PublicInvoiceView,
  chosen: NonNullable<PublicInvoiceView['chosen']>,
): { currency: string; network: string } {
  const network = view.coins
    .find((c) => c.ticker === chosen.currency)
    ?.networks.find((n) => n.network === chosen.network);
  return { currency: chosen.currency, network: network?.networkName ?? chosen.network };
}
