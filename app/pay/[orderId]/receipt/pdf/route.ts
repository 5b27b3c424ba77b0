import { headers } from 'next/headers';
import { z } from 'zod';
import { getDatabase, isDatabaseBusy } from '@/lib/db';
import { LANGUAGE_HEADER, languageFrom } from '@/lib/pay/i18n';
import { gatedPdfResponse, loadReceipt, pdfHeaders, pdfLogoOf, receiptDocument, renderPdf } from '@/lib/receipts';

const params = z.object({ orderId: z.uuid() });

/**
 * The receipt of a paid order as a PDF, in the language of `?lang=` (or the browser's), with the
 * merchant's logo when it is PNG or JPEG (docs/decisions/075). 404 for an unknown, malformed or
 * unpaid order, as the receipt page; 429 or 503 with Retry-After past the client's or the process's
 * bound on renders (lib/receipts render-gate).
 */
export async function GET(_request: Request, context: { params: Promise<{ orderId: string }> }): Promise<Response> {
  const parsed = params.safeParse(await context.params);
  const notFound = () => new Response('Receipt not found.', { status: 404, headers: { 'cache-control': 'no-store' } });
  if (!parsed.success) return notFound();
  const { orderId } = parsed.data;
  try {
    const receipt = await loadReceipt(await getDatabase(), orderId);
    if (!receipt) return notFound();
    const requestHeaders = await headers();
    const language = languageFrom(requestHeaders.get(LANGUAGE_HEADER));
    return await gatedPdfResponse(requestHeaders, async () => {
      const pdf = await renderPdf(receiptDocument(receipt.facts, language), pdfLogoOf(receipt.brand.logo), new Date());
      return new Response(new Uint8Array(pdf), { headers: pdfHeaders(`receipt-${orderId}.pdf`) });
    });
  } catch (error) {
    if (!isDatabaseBusy(error)) throw error;
    return new Response('Busy, retry shortly.', { status: 503, headers: { 'retry-after': '1' } });
  }
}
