import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { notFound } from 'next/navigation';
import { cache } from 'react';
import { ReceiptPage } from '@/components/pay/receipt-page';
import { getDatabase } from '@/lib/db';
import { interpolate, isolate } from '@/lib/pay/format';
import { LANGUAGE_HEADER, languageFrom } from '@/lib/pay/i18n';
import { MESSAGES } from '@/lib/pay/messages';
import { loadReceipt, receiptDocument, RECEIPT_MESSAGES } from '@/lib/receipts';

type Props = { params: Promise<{ orderId: string }> };

/** One database read per request, shared by the metadata and the page. */
const receiptOf = cache(async (orderId: string) => loadReceipt(await getDatabase(), orderId));

async function language() {
  return languageFrom((await headers()).get(LANGUAGE_HEADER));
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const receipt = await receiptOf((await params).orderId);
  const lang = await language();
  return {
    title: receipt
      ? interpolate(RECEIPT_MESSAGES[lang].receiptTitle, { merchant: isolate(receipt.facts.view.merchantName) })
      : MESSAGES[lang].notFoundTitle,
    // As the payment page: the link is the payer's alone (docs/decisions/076).
    robots: { index: false, follow: false },
  };
}

/** The public receipt of a paid order; an order not paid (yet) has none: 404, as an unknown one. */
export default async function ReceiptRoute({ params }: Props) {
  const { orderId } = await params;
  const receipt = await receiptOf(orderId);
  if (!receipt) notFound();
  const lang = await language();
  return (
    <ReceiptPage
      document={receiptDocument(receipt.facts, lang)}
      brand={receipt.brand}
      m={MESSAGES[lang]}
      rm={RECEIPT_MESSAGES[lang]}
      language={lang}
      pdfHref={`/pay/${orderId}/receipt/pdf?lang=${lang}`}
    />
  );
}
