/**
 * A payer goes on from a payment link's page: a form post (it works without JavaScript) with the
 * quantity or the amount. The link makes the invoice (lib/links `startLinkInvoice`, which caps
 * what links make per link, per client address and gateway-wide) and the payer is sent to the
 * invoice page; a refusal sends them back to the link's page with `?error=`, said in their
 * language. Bad input is a refusal too, never a server error.
 */
import { z } from 'zod';
import { config } from '@/lib/config';
import { getDatabase, isDatabaseBusy } from '@/lib/db';
import { isDomainError, isDomainErrorOf } from '@/lib/errors';
import { startLinkInvoice } from '@/lib/links';
import { isLanguage } from '@/lib/pay/i18n';
import { decimalString } from '@/lib/protocol';
import type { LinkPageError } from '@/lib/pay/link-messages';
import { clientOfRequest } from '@/lib/security';

const form = z.object({
  quantity: z
    .string()
    .regex(/^\d{1,4}$/)
    .transform(Number)
    .optional(),
  amount: decimalString.max(100).optional(),
});

/** The page's words for each refusal; anything else is not the payer's doing and stays an error. */
const REFUSALS: Partial<Record<string, LinkPageError>> = {
  LinkBusy: 'busy',
  PaymentLinkClosed: 'closed',
  RateUnavailable: 'rate',
};

const MAX_FORM_BYTES = 4096;

export async function POST(request: Request, { params }: { params: Promise<{ linkId: string }> }): Promise<Response> {
  const { linkId } = await params;
  const page = `/link/${encodeURIComponent(linkId)}`;
  const go = (path: string) =>
    new Response(null, { status: 303, headers: { location: path, 'cache-control': 'no-store' } });

  let fields: Record<string, string> = {};
  const length = Number(request.headers.get('content-length') ?? 0);
  if (length <= MAX_FORM_BYTES) {
    try {
      fields = Object.fromEntries(
        [...(await request.formData()).entries()].flatMap(([k, v]) => (typeof v === 'string' ? [[k, v]] : [])),
      );
    } catch {
      fields = {}; // not a form: refused below like an empty one
    }
  }
  const lang = fields.lang !== undefined && isLanguage(fields.lang) ? fields.lang : null;
  const query = lang ? `lang=${lang}` : '';
  const back = (error: LinkPageError) => go(`${page}?error=${error}${query ? `&${query}` : ''}`);

  const parsed = form.safeParse({ quantity: fields.quantity || undefined, amount: fields.amount || undefined });
  if (!parsed.success) return back(fields.quantity ? 'quantity' : 'amount');
  let invoiceId: string;
  try {
    // Behind a trusted proxy, the client it forwarded for: the per-client cap is the payer's, not the proxy's.
    const client = clientOfRequest(request.headers, config().trustedProxies);
    invoiceId = (await startLinkInvoice(await getDatabase(), linkId, parsed.data, client)).id;
  } catch (error) {
    if (isDomainErrorOf(error, 'NotFound')) return go(page);
    if (isDomainErrorOf(error, 'LinkChoiceInvalid'))
      return back((error as unknown as { problem: string }).problem === 'quantity' ? 'quantity' : 'amount');
    // By kind, not `instanceof`: the rate service may throw another bundle's classes (lib/errors).
    const refusal = isDomainError(error) ? REFUSALS[error.kind] : isDatabaseBusy(error) ? 'busy' : undefined;
    if (!refusal) throw error;
    return back(refusal);
  }
  return go(`/invoice/${invoiceId}${query ? `?${query}` : ''}`);
}
