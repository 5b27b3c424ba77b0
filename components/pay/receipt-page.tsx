/**
 * The receipt of a paid order (`/pay/{orderId}/receipt`), drawn on the server from the document
 * its PDF draws too (lib/receipts `receiptDocument`): no JavaScript of its own. The merchant's
 * brand as on the payment page; ids and amounts isolated so that an Arabic page keeps them whole.
 */
import type { Language } from '@/lib/pay/i18n';
import type { Messages } from '@/lib/pay/messages';
import type { PublicBrand } from '@/lib/pay/view';
import type { PayerDocument } from '@/lib/receipts/document';
import type { ReceiptMessages } from '@/lib/receipts/receipt-messages';
import { brandHeaderClass, brandProps, MerchantLine } from './brand';
import { LanguageLinks } from './language-links';
import { BUTTON, fill } from './ui';

export function ReceiptPage({
  document,
  brand,
  m,
  rm,
  language,
  pdfHref,
}: {
  document: PayerDocument;
  brand: PublicBrand;
  m: Messages;
  rm: ReceiptMessages;
  language: Language;
  pdfHref: string;
}) {
  const merchant = document.merchantName;
  return (
    <>
      {document.testMode && (
        <div className="bg-test-surface px-3 py-1 text-center text-sm font-bold tracking-wide text-test-ink">
          {document.testMode}
        </div>
      )}
      <main {...brandProps(brand)} className="mx-auto w-full max-w-md px-4 py-4 md:max-w-2xl md:py-8">
        <header className={`flex flex-wrap items-center justify-between gap-2 ${brandHeaderClass(brand)}`}>
          <MerchantLine brand={brand} merchant={merchant}>
            <bdi>{merchant}</bdi>
          </MerchantLine>
          <LanguageLinks current={language} m={m} />
        </header>
        <h1 className="mt-6 text-title font-semibold" data-testid="receipt-title">
          {fill(rm.receiptTitle, { merchant })}
        </h1>
        <p className="mt-1 text-muted">{document.status}</p>
        <dl className="mt-6 grid gap-4" data-testid="receipt-rows">
          {document.rows.map((row, i) => (
            <div key={i}>
              <dt className="text-sm text-muted">{row.label}</dt>
              <dd className="mt-0.5 whitespace-pre-line break-words">
                <Value row={row} />
              </dd>
            </div>
          ))}
        </dl>
        <p className="mt-8">
          <a href={pdfHref} className={`inline-block ${BUTTON}`} data-testid="receipt-pdf" lang={language}>
            {rm.downloadPdf}
          </a>
        </p>
      </main>
    </>
  );
}

function Value({ row }: { row: PayerDocument['rows'][number] }) {
  const text = row.code ? (
    <span dir="ltr" className="break-all font-mono text-sm">
      {row.value}
    </span>
  ) : (
    <bdi>{row.value}</bdi>
  );
  return row.href ? (
    <a href={row.href} rel="noreferrer" className="underline">
      {text}
    </a>
  ) : (
    text
  );
}
