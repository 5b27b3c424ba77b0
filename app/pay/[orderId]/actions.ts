'use server';
/**
 * The payment page's form posts (they work without JavaScript), with the order id bound from the
 * page, each rate-limited per client and per order (lib/pay `payerPostWait`):
 *
 * - "Pay the rest" (docs/decisions/069): the order's one remainder order is opened (made by the
 *   first post, the same one after) and the payer sent to its page. A refusal (the order offers
 *   none any more, no address free this second, no current price for an invoice's rest) sends the
 *   payer back to the order's page, which shows what there is.
 * - The payer's refund (docs/decisions/088): "get back what I sent" or "claim the excess" asks
 *   lib/mispayments `requestPayerRefund`, and the page says one thing whatever came of it (a link
 *   mailed to the order's address if it has one, else ask the shop): the payment link never tells
 *   whether the order has an e-mail address, or whether someone asked before.
 *
 * Bad input is a refusal too, never a server error.
 */
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { getDatabase, isDatabaseBusy } from '@/lib/db';
import { isDomainError, isDomainErrorOf } from '@/lib/errors';
import { openRemainder } from '@/lib/mispayments';
import { isLanguage } from '@/lib/pay/i18n';
import { askPayerRefund, PAYER_REFUND_KIND, withinLimits } from './payer-posts';

/** Refusals that leave the payer on the order's page: nothing was made, and the page says what there is. */
const BACK_TO_THE_PAGE = new Set(['NoRemainder', 'NoAddressAvailable', 'OrderCreatedConcurrently', 'RateUnavailable']);

/** The order's page, with the form's `embed` and `lang` kept, and `extra` parameters. */
function pageOf(orderId: string, form: FormData, extra: Record<string, string> = {}): string {
  const query = new URLSearchParams();
  if (form.get('embed') === '1') query.set('embed', '1');
  const lang = form.get('lang');
  if (typeof lang === 'string' && isLanguage(lang)) query.set('lang', lang);
  for (const [name, value] of Object.entries(extra)) query.set(name, value);
  return `/pay/${orderId}${query.size ? `?${query}` : ''}`;
}

export async function payTheRest(orderId: string, form: FormData): Promise<void> {
  // The bound id comes back from the browser with the form: checked like the rest of it.
  if (typeof orderId !== 'string' || !z.uuid().safeParse(orderId).success) redirect('/pay/unknown');
  const embed = form.get('embed') === '1' ? '?embed=1' : '';
  if (!(await withinLimits(orderId))) redirect(`/pay/${orderId}${embed}`);
  let restId: string;
  try {
    restId = (await openRemainder(await getDatabase(), orderId)).orderId;
  } catch (error) {
    // An unknown order: its page says so (404).
    if (isDomainErrorOf(error, 'NotFound')) return redirect(`/pay/${orderId}`);
    if ((isDomainError(error) && BACK_TO_THE_PAGE.has(error.kind)) || isDatabaseBusy(error))
      return redirect(`/pay/${orderId}${embed}`);
    throw error;
  }
  redirect(`/pay/${restId}${embed}`);
}

/** "Get back what I sent" / "Claim the excess": the page then says `?refund=asked` (or `busy`: nothing was asked). */
export async function askForRefund(orderId: string, form: FormData): Promise<void> {
  if (typeof orderId !== 'string' || !z.uuid().safeParse(orderId).success) redirect('/pay/unknown');
  const kind = PAYER_REFUND_KIND.safeParse(form.get('kind'));
  if (!kind.success) redirect(pageOf(orderId, form));
  const outcome = await askPayerRefund(orderId, kind.data);
  if (outcome === 'unknown') redirect(`/pay/${orderId}`);
  redirect(pageOf(orderId, form, { refund: outcome }));
}
