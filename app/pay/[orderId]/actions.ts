'use server';
/**
 * "Pay the rest" (docs/decisions/069), a form post from the payment page (it works without
 * JavaScript), with the order id bound from the page: the order's one remainder order is opened
 * (made by the first post, the same one after) and the payer sent to its page. A refusal (the
 * order offers none any more, no address free this second, no current price for an invoice's rest) sends the payer back to the order's
 * page, which shows what there is; bad input is a refusal too, never a server error.
 */
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { getDatabase, isDatabaseBusy } from '@/lib/db';
import { isDomainError, isDomainErrorOf } from '@/lib/errors';
import { openRemainder } from '@/lib/mispayments';

/** Refusals that leave the payer on the order's page: nothing was made, and the page says what there is. */
const BACK_TO_THE_PAGE = new Set(['NoRemainder', 'NoAddressAvailable', 'OrderCreatedConcurrently', 'RateUnavailable']);

export async function payTheRest(orderId: string, form: FormData): Promise<void> {
  // The bound id comes back from the browser with the form: checked like the rest of it.
  if (typeof orderId !== 'string' || !z.uuid().safeParse(orderId).success) redirect('/pay/unknown');
  const embed = form.get('embed') === '1' ? '?embed=1' : '';
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
