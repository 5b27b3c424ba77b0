'use server';
/**
 * The invoice page's coin choice, a form post (it works without JavaScript): `coin=TICKER@network`
 * with the invoice id bound from the route. The order is made (lib/invoices `chooseCoin`) and the
 * payer sent to its payment page; a refusal sends them back to the invoice page with `?error=`,
 * which says it in their language. Bad input is a refusal too, never a server error.
 */
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { getDatabase, isDatabaseBusy } from '@/lib/db';
import { isDomainError, isDomainErrorOf } from '@/lib/errors';
import { chooseCoin } from '@/lib/invoices';
import { isLanguage } from '@/lib/pay/i18n';
import type { InvoiceChoiceError } from '@/lib/pay/messages';
import { postedForm } from '@/lib/security';

const choice = z.object({
  invoiceId: z.uuid(),
  coin: z
    .string()
    .regex(/^[A-Za-z0-9]{1,16}@[a-z0-9-]{1,32}$/)
    .transform((value) => {
      const [currency = '', network = ''] = value.split('@');
      return { currency, network };
    }),
});

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

  const parsed = choice.safeParse({ invoiceId, coin: form.get('coin') });
  if (!parsed.success) return back('invalid');
  const { coin } = parsed.data;

  let orderId: string;
  try {
    orderId = (await chooseCoin(await getDatabase(), invoiceId, coin)).id;
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
