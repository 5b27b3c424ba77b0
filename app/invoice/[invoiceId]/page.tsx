import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { notFound } from 'next/navigation';
import { cache } from 'react';
import { InvoicePage } from '@/components/invoice/invoice-page';
import { orderShownOf } from '@/components/live/order-shown';
import { getDatabase } from '@/lib/db';
import { loadInvoiceView } from '@/lib/invoices';
import { loadPublicView } from '@/lib/pay';
import { formatPrice, interpolate, isolate } from '@/lib/pay/format';
import { LANGUAGE_HEADER, languageFrom } from '@/lib/pay/i18n';
import { INVOICE_MESSAGES, isInvoiceChoiceError, MESSAGES } from '@/lib/pay/messages';
import { FIAT_CURRENCIES } from '@/lib/catalog';
import { RECEIPT_MESSAGES } from '@/lib/receipts';
import { PAYER_REFUND_MESSAGES } from '@/lib/pay/payer-refund-messages';
import { askForInvoiceRefund, chooseInvoiceCoin } from './actions';

type Props = {
  params: Promise<{ invoiceId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

/** One database read per request, shared by the metadata and the page. */
const viewOf = cache(async (invoiceId: string) => loadInvoiceView(await getDatabase(), invoiceId));

async function language() {
  return languageFrom((await headers()).get(LANGUAGE_HEADER));
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const view = await viewOf((await params).invoiceId);
  const im = INVOICE_MESSAGES[await language()];
  return {
    title: view ? interpolate(im.pageTitle, { merchant: isolate(view.merchantName) }) : im.notFoundTitle,
    // The link is the payer's alone: keep it out of search engines.
    robots: { index: false, follow: false },
  };
}

/**
 * The invoice page (the invoice's `invoiceLink`): the price, and the coin choice that makes the
 * order and opens its payment page (./actions). Rendered per request from the payer-safe view.
 */
export default async function InvoiceRoute({ params, searchParams }: Props) {
  const view = await viewOf((await params).invoiceId);
  if (!view) notFound();
  const lang = await language();
  const { error, refund } = await searchParams;
  // While its chosen order runs, the page follows it: a payment, or the order's end, draws it anew.
  // Once the invoice is paid, its order (the one that decided it) says whether the payer may claim
  // an excess. A closed one leaves its choices (pay the rest, or a refund) to the order's payment page.
  const running = view.screen === 'choose' || view.screen === 'pay';
  const paid = view.screen === 'paid';
  const order =
    view.chosen && (running || paid) ? await loadPublicView(await getDatabase(), view.chosen.orderId) : null;
  const followed = running ? order : null;
  return (
    <InvoicePage
      view={view}
      m={MESSAGES[lang]}
      im={INVOICE_MESSAGES[lang]}
      language={lang}
      price={formatPrice(view.amount, view.currency, lang, FIAT_CURRENCIES.includes(view.currency))}
      error={isInvoiceChoiceError(error) ? error : null}
      choose={chooseInvoiceCoin.bind(null, view.invoiceId)}
      followed={followed && orderShownOf(followed)}
      rm={RECEIPT_MESSAGES[lang]}
      payerRefund={
        paid && order
          ? {
              order,
              m: PAYER_REFUND_MESSAGES[lang],
              // What the refund post came to (./actions askForInvoiceRefund): anything else says nothing.
              notice: refund === 'asked' || refund === 'busy' ? refund : null,
              action: askForInvoiceRefund.bind(null, view.invoiceId),
            }
          : null
      }
    />
  );
}
