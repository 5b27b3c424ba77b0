/**
 * The hosted payment page's markup (a server component: no JavaScript of its own reaches the
 * browser). It renders the first paint from the payer-safe view and hands the live part to the
 * one polling client component, PayLive (its polling under TanStack Query's provider,
 * ../live/query-provider), with the payment block as a slot.
 *
 * The QR codes are drawn here, on the server, with qrcode.react: they show before any script
 * runs and cost the browser no QR encoder. The "with amount" / "address only" switch is two radio
 * buttons and CSS (`group-has-[...]`), not script. Layout uses logical properties (ms/me/ps/pe,
 * text-start, border-s) so that the Arabic page mirrors; addresses, amounts and ids stay
 * left-to-right inside it (`dir="ltr"`).
 */
import { QRCodeSVG } from 'qrcode.react';
import { chunkAddress, formatAmount } from '@/lib/pay/format';
import type { Language } from '@/lib/pay/i18n';
import type { Messages } from '@/lib/pay/messages';
import { PAYER_REFUND_MESSAGES } from '@/lib/pay/payer-refund-messages';
import { REST_MESSAGES } from '@/lib/pay/rest-messages';
import type { PublicBrand, PublicOrderView } from '@/lib/pay/view';
import { LiveQueries } from '../live/query-provider';
import { brandHeaderClass, brandProps, MerchantLine } from './brand';
import { CoinIcon, NetworkIcon } from '@/components/icons/coin-icon';
import { CopyButton } from './copy-button';
import { InvoicePrice } from './invoice-price';
import { LanguageLinks } from './language-links';
import type { PayerRefundNotice } from './pay-refund';
import { PayLive } from './pay-live';
import { BUTTON, fill } from './ui';
import { WalletPay } from './wallet-pay';

/** The QR code drawn at 160 px on a phone (its first screen is short), 192 px from 768 px wide, 168 px in an iframe. */
const QR_SIZE = { page: 'size-40 md:size-48', embed: 'size-[168px]' };

/** The network and token-standard badges beside the amount. */
const BADGE = 'rounded-full bg-tag px-2.5 py-0.5 text-xs font-semibold text-on-tag';

interface PageProps {
  view: PublicOrderView;
  m: Messages;
  language: Language;
  embed: boolean;
  /**
   * For an order of an invoice: its price as the page's language writes it ("$73.50"), formatted
   * on the server (the browser's number formatting may differ from Node's).
   */
  invoicePrice?: string | null;
  /** The merchant's logo and accent colour (drawn here, on the server). */
  brand: PublicBrand;
  /** "View receipt" in the page's language (lib/receipts), the paid screen's link to the receipt. */
  viewReceipt: string;
  /** "Pay the rest" (./pay-rest): the page's server action, bound to the order. */
  payTheRest: (form: FormData) => Promise<void>;
  /** The payer's refund choice (./pay-refund): the page's server action, bound to the order, and what a post came to. */
  askForRefund: (form: FormData) => Promise<void>;
  refundNotice: PayerRefundNotice;
}

export function PaymentPage({
  view,
  m,
  language,
  embed,
  invoicePrice = null,
  brand,
  viewReceipt,
  payTheRest,
  askForRefund,
  refundNotice,
}: PageProps) {
  const invoiceLine = view.invoice && invoicePrice && (
    <InvoicePrice
      view={view}
      price={invoicePrice}
      changeCoinHref={`/invoice/${view.invoice.invoiceId}?lang=${language}`}
      m={m}
      language={language}
    />
  );
  const merchant = view.merchantName;
  return (
    <>
      {view.test && (
        <div
          data-testid="test-banner"
          className="bg-test-surface px-3 py-1 text-center text-sm font-bold tracking-wide text-test-ink"
        >
          {m.testMode}
          <span className="sr-only">{`${m.separators.label}${m.testModeNote}`}</span>
        </div>
      )}
      <main
        {...brandProps(brand)}
        className={`mx-auto w-full max-w-md ${embed ? 'px-3 py-2' : 'px-4 py-4 md:max-w-3xl md:py-8'}`}
      >
        <header className={`flex flex-wrap items-center justify-between gap-2 ${brandHeaderClass(brand)}`}>
          <MerchantLine brand={brand} merchant={merchant}>
            {fill(m.payTo, { merchant })}
          </MerchantLine>
          {!embed && <LanguageLinks current={language} m={m} />}
        </header>
        <LiveQueries>
          <PayLive
            initial={view}
            m={m}
            language={language}
            embed={embed}
            invoiceLine={invoiceLine || null}
            payBlock={<PayBlock view={view} m={m} language={language} embed={embed} />}
            receiptLink={
              <p className="mt-3">
                <a
                  href={`/pay/${view.orderId}/receipt?lang=${language}`}
                  data-testid="receipt-link"
                  className="font-medium underline"
                  {...(embed ? { target: '_top' } : {})}
                >
                  {viewReceipt}
                </a>
              </p>
            }
            restMessages={REST_MESSAGES[language]}
            payTheRest={payTheRest}
            refundMessages={PAYER_REFUND_MESSAGES[language]}
            askForRefund={askForRefund}
            refundNotice={refundNotice}
          />
        </LiveQueries>
        {view.description && !embed && (
          <section className="mt-4">
            <h2 className="font-semibold">{m.description}</h2>
            <p className="mt-1 whitespace-pre-line break-words text-sm">{view.description}</p>
          </section>
        )}
      </main>
    </>
  );
}

function PayBlock({
  view,
  m,
  language,
  embed,
}: {
  view: PublicOrderView;
  m: Messages;
  language: Language;
  embed: boolean;
}) {
  const size = embed ? 168 : 192;
  const qrSize = QR_SIZE[embed ? 'embed' : 'page'];
  const uriDiffers = view.walletUri !== view.address;
  // Wallet links only where the URI has a scheme (BIP21, EIP-681); elsewhere it is the bare address.
  const deepLink = /^[a-z][a-z0-9+.-]*:/i.test(view.walletUri) ? view.walletUri : null;
  const networkText = fill(m.networkWarning, { currency: view.currency, network: view.networkName });
  // A native coin named like its network ("Litecoin" on Litecoin) is not named twice.
  const coinName = view.currencyName === view.networkName ? null : view.currencyName;
  return (
    // One column on a phone (amount, tag, QR, address); on a wider screen the QR beside the details.
    <section aria-label={m.amount} className="mt-4 md:grid md:grid-cols-[minmax(0,1fr)_auto] md:gap-x-8">
      <div className="md:col-start-1">
        {/* The label and the network on one line: a phone's height is for the QR code. */}
        <p className="flex flex-wrap items-center gap-1.5 text-sm">
          <span className="me-1">{m.sendExactly}</span>
          {coinName && <span>{coinName}</span>}
          <span data-testid="network-badge" className={`${BADGE} inline-flex items-center gap-1`}>
            <NetworkIcon network={view.network} />
            {view.networkName}
          </span>
          {view.tokenStandard && (
            <span data-testid="token-standard" className={`${BADGE} font-mono`}>
              {view.tokenStandard}
            </span>
          )}
        </p>
        <div className="flex flex-wrap items-center justify-between gap-x-2">
          <p className="flex items-center gap-2 text-2xl font-semibold">
            <CoinIcon ticker={view.currency} size="lg" />
            <span dir="ltr" data-testid="amount">{`${formatAmount(view.remaining, language)} ${view.currency}`}</span>
          </p>
          <CopyButton value={view.remaining} label={m.copyAmount} text={m.copy} done={m.copied} />
        </div>
      </div>
      {view.tag !== null && <TagBlock tag={view.tag} m={m} />}
      <div className="group mt-2 flex flex-col items-center md:col-start-2 md:row-span-4 md:row-start-1 md:mt-0">
        <div className="rounded-lg bg-white p-2">
          <QRCodeSVG
            value={view.walletUri}
            size={size}
            marginSize={2}
            level="M"
            role="img"
            aria-label={uriDiffers ? m.qrWithAmountAlt : m.qrAddressOnlyAlt}
            data-testid="qr"
            data-qr="uri"
            className={`${qrSize} ${uriDiffers ? 'group-has-[#qr-address:checked]:hidden' : ''}`}
          />
          {uriDiffers && (
            <QRCodeSVG
              value={view.address}
              size={size}
              marginSize={2}
              level="M"
              role="img"
              aria-label={m.qrAddressOnlyAlt}
              data-qr="address"
              className={`${qrSize} hidden group-has-[#qr-address:checked]:block`}
            />
          )}
        </div>
        {uriDiffers && (
          <fieldset className="mt-2 flex gap-1 text-sm">
            <legend className="sr-only">{m.qrChoice}</legend>
            {(['uri', 'address'] as const).map((kind) => (
              <label
                key={kind}
                className="cursor-pointer rounded-md border border-line-strong px-3 py-1 has-[:checked]:bg-primary has-[:checked]:text-on-primary has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-focus"
              >
                <input
                  type="radio"
                  name="qr"
                  id={`qr-${kind}`}
                  value={kind}
                  defaultChecked={kind === 'uri'}
                  className="sr-only"
                />
                {kind === 'uri' ? m.qrWithAmount : m.qrAddressOnly}
              </label>
            ))}
          </fieldset>
        )}
        {uriDiffers && (
          <p className="mt-1 hidden max-w-60 text-center text-xs group-has-[#qr-address:checked]:block">
            {m.qrAddressOnlyNote}
          </p>
        )}
      </div>
      <div className="mt-3 md:col-start-1">
        <p className="text-sm font-medium" id="address-label">
          {m.address}
        </p>
        <div className="mt-1 flex items-start justify-between gap-2">
          <p
            dir="ltr"
            translate="no"
            aria-labelledby="address-label"
            data-testid="address"
            className="min-w-0 font-mono text-[15px] leading-7"
          >
            {chunkAddress(view.address).map((chunk, i) => (
              <span key={i} className="me-1.5 inline-block">
                {chunk}
              </span>
            ))}
          </p>
          <CopyButton value={view.address} label={m.copyAddress} text={m.copy} done={m.copied} />
        </div>
        <p className="mt-2 text-xs text-muted">{networkText}</p>
      </div>
      {deepLink && (
        <a
          href={deepLink}
          target={embed ? '_top' : undefined}
          className={`${BUTTON} mt-3 block text-center md:col-start-1 md:self-start`}
        >
          {m.openWallet}
        </a>
      )}
      <WalletPay view={view} language={language} />
    </section>
  );
}

function TagBlock({ tag, m }: { tag: string; m: Messages }) {
  return (
    // Compact (the QR must stay above a phone's fold below it), but before the QR: the QR carries the address alone.
    <div
      role="note"
      data-testid="tag-warning"
      className="mt-3 rounded-lg border-2 border-bad-line bg-bad-surface px-3 py-2 text-bad-ink md:col-start-1"
    >
      <p className="text-sm font-semibold">{m.tagWarningTitle}</p>
      <div className="flex items-center justify-between gap-2">
        <p className="min-w-0">
          <span className="sr-only">{`${m.tag}${m.separators.label}`}</span>
          <span dir="ltr" data-testid="tag" className="font-mono text-xl font-semibold">
            {tag}
          </span>
        </p>
        <CopyButton value={tag} label={m.copyTag} text={m.copy} done={m.copied} />
      </div>
      <p className="text-xs">{m.tagWarning}</p>
    </div>
  );
}
