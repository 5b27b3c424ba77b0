import { headers } from 'next/headers';
import { z } from 'zod';
import { getDatabase, isDatabaseBusy } from '@/lib/db';
import { invoiceLink, loadInvoiceView } from '@/lib/invoices';
import { LANGUAGE_HEADER, languageFrom } from '@/lib/pay/i18n';
import { gatedPdfResponse, invoiceDocument, pdfHeaders, pdfLogoOf, renderPdf } from '@/lib/receipts';

const params = z.object({ invoiceId: z.uuid() });

/**
 * The invoice as a PDF, before payment as after (then it says paid; the receipt is the paying
 * order's, /invoice/{id}/receipt): its price, deadline and the link to pay it. 429 or 503 with
 * Retry-After past the client's or the process's bound on renders (lib/receipts render-gate).
 */
export async function GET(_request: Request, context: { params: Promise<{ invoiceId: string }> }): Promise<Response> {
  const parsed = params.safeParse(await context.params);
  const notFound = () => new Response('Invoice not found.', { status: 404, headers: { 'cache-control': 'no-store' } });
  if (!parsed.success) return notFound();
  const { invoiceId } = parsed.data;
  try {
    const view = await loadInvoiceView(await getDatabase(), invoiceId);
    if (!view) return notFound();
    const requestHeaders = await headers();
    const language = languageFrom(requestHeaders.get(LANGUAGE_HEADER));
    const document = invoiceDocument(view, language, `${invoiceLink(invoiceId)}?lang=${language}`);
    return await gatedPdfResponse(requestHeaders, async () => {
      const pdf = await renderPdf(document, pdfLogoOf(view.brand.logo), new Date());
      return new Response(new Uint8Array(pdf), { headers: pdfHeaders(`invoice-${invoiceId}.pdf`) });
    });
  } catch (error) {
    if (!isDatabaseBusy(error)) throw error;
    return new Response('Busy, retry shortly.', { status: 503, headers: { 'retry-after': '1' } });
  }
}
