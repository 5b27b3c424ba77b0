import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { notFound } from 'next/navigation';
import { cache } from 'react';
import { PaymentPage } from '@/components/pay/payment-page';
import { getDatabase } from '@/lib/db';
import { loadPublicBrand, loadPublicView, rememberPayerLanguage } from '@/lib/pay';
import { formatPrice, interpolate, isolate } from '@/lib/pay/format';
import { LANGUAGE_HEADER, languageFrom } from '@/lib/pay/i18n';
import { MESSAGES } from '@/lib/pay/messages';
import { FIAT_CURRENCIES } from '@/lib/catalog';
import { RECEIPT_MESSAGES } from '@/lib/receipts';
import { askForRefund, payTheRest } from './actions';

type Props = {
  params: Promise<{ orderId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

/** One database read per request, shared by the metadata and the page. */
const viewOf = cache(async (orderId: string) => loadPublicView(await getDatabase(), orderId));

async function language() {
  return languageFrom((await headers()).get(LANGUAGE_HEADER));
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const view = await viewOf((await params).orderId);
  const m = MESSAGES[await language()];
  return {
    title: view ? interpolate(m.pageTitle, { merchant: isolate(view.merchantName) }) : m.notFoundTitle,
    // The link is the shopper's alone: keep it out of search engines.
    robots: { index: false, follow: false },
  };
}

/** The hosted payment page (the order's `link`): first paint from the payer-safe view, then live. */
export default async function PayPage({ params, searchParams }: Props) {
  const { orderId } = await params;
  const [view, brand] = await Promise.all([viewOf(orderId), getDatabase().then((db) => loadPublicBrand(db, orderId))]);
  if (!view) notFound();
  const lang = await language();
  // The payer's mail speaks the language of the page they saw (lib/mail).
  await rememberPayerLanguage(await getDatabase(), orderId, lang);
  const query = await searchParams;
  const embed = query.embed === '1';
  // What the payer's refund post came to (./actions askForRefund): anything else says nothing.
  const refundNotice = query.refund === 'asked' || query.refund === 'busy' ? query.refund : null;
  const { invoice } = view;
  const invoicePrice =
    invoice && formatPrice(invoice.amount, invoice.currency, lang, FIAT_CURRENCIES.includes(invoice.currency));
  return (
    <PaymentPage
      view={view}
      m={MESSAGES[lang]}
      language={lang}
      embed={embed}
      invoicePrice={invoicePrice}
      brand={brand}
      viewReceipt={RECEIPT_MESSAGES[lang].viewReceipt}
      payTheRest={payTheRest.bind(null, orderId)}
      askForRefund={askForRefund.bind(null, orderId)}
      refundNotice={refundNotice}
    />
  );
}
