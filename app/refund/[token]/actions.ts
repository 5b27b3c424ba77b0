'use server';
/**
 * The claim page's confirmation, a form post (it works without JavaScript): the address (and tag)
 * the payer reviewed, with the link's token bound from the route. Stored once (lib/refunds
 * `confirmClaim`); a refusal sends the payer back to the page, which says why in the payer's
 * language (the form's `lang`). Bad input is a refusal too, never a server error.
 */
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { getDatabase, isDatabaseBusy } from '@/lib/db';
import { isDomainErrorOf } from '@/lib/errors';
import { isLanguage } from '@/lib/pay/i18n';
import { ClaimAddressInvalid, confirmClaim } from '@/lib/refunds';

const given = z.object({
  token: z.string().regex(/^[A-Za-z0-9_-]{43}$/),
  // NUL cannot be stored: refused here.
  address: z
    .string()
    .max(128)
    .refine((address) => !address.includes('\u0000')),
  tag: z
    .string()
    .max(10)
    .regex(/^\d*$/)
    .nullish()
    .transform((tag) => tag ?? ''),
});

/** The claim page of `token`, with `error` and the form's language when it names one. */
function pageOf(token: string, form: FormData, error?: string): string {
  const query = new URLSearchParams();
  if (error) query.set('error', error);
  const lang = form.get('lang');
  if (typeof lang === 'string' && isLanguage(lang)) query.set('lang', lang);
  return `/refund/${token}${query.size ? `?${query}` : ''}`;
}

export async function confirmRefundClaim(token: string, form: FormData): Promise<void> {
  const parsed = given.safeParse({ token, address: form.get('address'), tag: form.get('tag') });
  // The bound token comes back from the browser with the form: checked like the rest of it.
  if (!parsed.success) {
    if (typeof token === 'string' && /^[A-Za-z0-9_-]{43}$/.test(token)) redirect(pageOf(token, form, 'address'));
    redirect(pageOf('invalid', form));
  }
  const { token: checked } = parsed.data;
  try {
    await confirmClaim(await getDatabase(), checked, parsed.data, new Date());
  } catch (error) {
    // An invalid link (expired, replayed, replaced): the page says so.
    if (isDomainErrorOf(error, 'ClaimLinkInvalid')) redirect(pageOf(checked, form));
    if (error instanceof ClaimAddressInvalid) redirect(pageOf(checked, form, error.problem));
    if (isDatabaseBusy(error)) redirect(pageOf(checked, form, 'busy'));
    throw error;
  }
  redirect(pageOf(checked, form));
}
