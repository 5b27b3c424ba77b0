'use server';
/**
 * The claim page's confirmation, a form post (it works without JavaScript): the address (and tag)
 * the payer reviewed, with the link's token bound from the route. Stored once (lib/refunds
 * `confirmClaim`); a refusal sends the payer back to the page, which says why. Bad input is a
 * refusal too, never a server error.
 */
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { getDatabase, isDatabaseBusy } from '@/lib/db';
import { isDomainErrorOf } from '@/lib/errors';
import { confirmClaim } from '@/lib/refunds';

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

export async function confirmRefundClaim(token: string, form: FormData): Promise<void> {
  const parsed = given.safeParse({ token, address: form.get('address'), tag: form.get('tag') });
  // The bound token comes back from the browser with the form: checked like the rest of it.
  if (!parsed.success) {
    if (typeof token === 'string' && /^[A-Za-z0-9_-]{43}$/.test(token)) redirect(`/refund/${token}?error=address`);
    redirect('/refund/invalid');
  }
  const page = `/refund/${parsed.data.token}`;
  try {
    await confirmClaim(await getDatabase(), parsed.data.token, parsed.data, new Date());
  } catch (error) {
    // An invalid link (expired, replayed, replaced): the page says so.
    if (isDomainErrorOf(error, 'ClaimLinkInvalid')) redirect(page);
    if (isDomainErrorOf(error, 'ClaimAddressInvalid')) redirect(`${page}?error=address`);
    if (isDatabaseBusy(error)) redirect(`${page}?error=busy`);
    throw error;
  }
  redirect(page);
}
