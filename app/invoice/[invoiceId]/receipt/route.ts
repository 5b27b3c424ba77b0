import { headers } from 'next/headers';
import { z } from 'zod';
import { getDatabase } from '@/lib/db';
import { loadInvoiceView } from '@/lib/invoices';
import { LANGUAGE_HEADER, languageFrom } from '@/lib/pay/i18n';

const params = z.object({ invoiceId: z.uuid() });

/**
 * A paid invoice's receipt is the receipt of the order that paid it (its price and rate are on
 * it): a redirect there. 404 while the invoice is not paid.
 */
export async function GET(_request: Request, context: { params: Promise<{ invoiceId: string }> }): Promise<Response> {
  const parsed = params.safeParse(await context.params);
  const view = parsed.success ? await loadInvoiceView(await getDatabase(), parsed.data.invoiceId) : null;
  if (!view || view.screen !== 'paid' || !view.chosen)
    return new Response('Receipt not found.', { status: 404, headers: { 'cache-control': 'no-store' } });
  const language = languageFrom((await headers()).get(LANGUAGE_HEADER));
  // A relative Location: behind a proxy the request's own URL names an inner host.
  const location = `/pay/${view.chosen.orderId}/receipt?lang=${language}`;
  return new Response(null, { status: 303, headers: { location, 'cache-control': 'no-store' } });
}
