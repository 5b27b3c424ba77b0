'use server';
/**
 * The invoice page's form posts (they work without JavaScript), with the invoice id bound from the
 * route. Bad input is a refusal too, never a server error.
 *
 * - The coin choice: `coin=TICKER@network` and an optional `payerEmail` (docs/decisions/110). The
 *   order is made (lib/invoices `chooseCoin`) and the payer sent to its payment page; a refusal
 *   sends them back to the invoice page with `?error=`, which says it in their language.
 * - "Claim the excess" of the order that paid the invoice (docs/decisions/088, 110): asked as on
 *   its payment page, answered on the invoice page alike (`?refund=asked`).
 */
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { getDatabase, isDatabaseBusy } from '@/lib/db';
import { isDomainError, isDomainErrorOf } from '@/lib/errors';
import { chooseCoin, COIN_CHOICE_FORM, coinChoiceRefusal, loadInvoice } from '@/lib/invoices';
import { isLanguage } from '@/lib/pay/i18n';
import type { InvoiceChoiceError } from '@/lib/pay/messages';
import { postedForm } from '@/lib/security';
import { askPayerRefund, PAYER_REFUND_KIND } from '../../pay/[orderId]/payer-posts';

/** The page's words for each refusal of chooseCoin; anything else is not the payer's doing and stays an error. */
const REFUSALS: Partial<Record<string, InvoiceChoiceError>> = {
  InvoiceClosed: 'closed',
  RateUnavailable: 'rate',
  CoinNotOffered: 'not-offered',
  TooManyCoinChoices: 'choices',
  NoAddressAvailable: 'busy',
  OrderCreatedConcurrently: 'busy',
};

export async function chooseInvoiceCoin(invoiceId: string, posted: FormData): Promise<void> {
  const form = postedForm(posted);
  // The bound id comes back from the browser with the form: checked like the rest of it.
  if (typeof invoiceId !== 'string' || !z.uuid().safeParse(invoiceId).success) redirect('/invoice/unknown');
  const page = `/invoice/${invoiceId}`;
  const lang = form.get('lang');
  const query = typeof lang === 'string' && isLanguage(lang) ? `lang=${lang}` : '';
  const back = (error: InvoiceChoiceError): never => redirect(`${page}?error=${error}${query ? `&${query}` : ''}`);

  const parsed = COIN_CHOICE_FORM.safeParse({ coin: form.get('coin'), payerEmail: form.get('payerEmail') });
  if (!parsed.success) return back(coinChoiceRefusal(parsed.error));
  const { coin, payerEmail } = parsed.data;

  let orderId: string;
  try {
    orderId = (await chooseCoin(await getDatabase(), invoiceId, { ...coin, payerEmail })).id;
  } catch (error) {
    // An unknown invoice: its page says so (404).
    if (isDomainErrorOf(error, 'NotFound')) return redirect(page);
    // By kind, not `instanceof`: the rate service may throw another bundle's classes (lib/errors).
    const refusal = isDomainError(error) ? REFUSALS[error.kind] : isDatabaseBusy(error) ? 'busy' : undefined;
    if (!refusal) throw error;
    return back(refusal);
  }
  redirect(`/pay/${orderId}${query ? `?${query}` : ''}`);
}

/** The invoice page with `lang` kept and `refund` said. */
function invoicePageOf(invoiceId: string, form: FormData, refund?: 'asked' | 'busy'): string {
  const query = new URLSearchParams();
  const lang = form.get('lang');
  if (typeof lang === 'string' && isLanguage(lang)) query.set('lang', lang);
  if (refund) query.set('refund', refund);
  return `/invoice/${invoiceId}${query.size ? `?${query}` : ''}`;
}

/**
 * "Claim the excess" on the invoice page: asked of the order that paid the invoice (its `order_id`,
 * never an order named by the form) with the posted kind, as its payment page would ask it (the
 * order's own rules decide), then `?refund=asked` whatever came of it, `busy` when nothing was asked.
 */
export async function askForInvoiceRefund(invoiceId: string, posted: FormData): Promise<void> {
  const form = postedForm(posted);
  if (typeof invoiceId !== 'string' || !z.uuid().safeParse(invoiceId).success) redirect('/invoice/unknown');
  const kind = PAYER_REFUND_KIND.safeParse(form.get('kind'));
  if (!kind.success) redirect(invoicePageOf(invoiceId, form));
  const orderId = (await loadInvoice(await getDatabase(), invoiceId))?.order_id;
  if (!orderId) redirect(invoicePageOf(invoiceId, form));
  const outcome = await askPayerRefund(orderId, kind.data);
  redirect(invoicePageOf(invoiceId, form, outcome === 'unknown' ? undefined : outcome));
}
