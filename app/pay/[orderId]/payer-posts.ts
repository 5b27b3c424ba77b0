import 'server-only';
/**
 * What the payer's posts share, the payment page's (./actions) and the invoice page's
 * (app/invoice/[invoiceId]/actions.ts): the rate limits (lib/pay `payerPostWait`) and the payer's
 * refund asked of an order (docs/decisions/088), whose every outcome but a busy one is answered
 * alike. Not a server action module: nothing here is callable from a browser.
 */
import { headers } from 'next/headers';
import { z } from 'zod';
import { config } from '@/lib/config';
import { getDatabase, isDatabaseBusy } from '@/lib/db';
import { isDomainError, isDomainErrorOf } from '@/lib/errors';
import { requestPayerRefund } from '@/lib/mispayments';
import { payerPostWait } from '@/lib/pay';
import { clientOfRequest } from '@/lib/security';

/** This post may go on: within the client's and the order's budgets. */
export async function withinLimits(orderId: string): Promise<boolean> {
  const list = await headers();
  const client = clientOfRequest(list, config().trustedProxies);
  return payerPostWait(client, orderId) === 0;
}

/** The refund a payer's form asks for: `sent` (get back what I sent) or `excess` (claim the excess). */
export const PAYER_REFUND_KIND = z.enum(['sent', 'excess']);

/** Refusals of the payer's refund answered like a refund asked: no address to mail, nothing of the minimum, settled, nothing left. */
const ANSWERED_ALIKE = new Set(['NoPayerRefund', 'NotRefundable', 'RefundExceedsReceived']);

/**
 * "Get back what I sent" / "Claim the excess" of `orderId`: `asked` whatever came of it (the page
 * says one sentence), `busy` when nothing was asked (rate-limited, the database busy), `unknown`
 * for an order that does not exist.
 */
export async function askPayerRefund(orderId: string, kind: 'sent' | 'excess'): Promise<'asked' | 'busy' | 'unknown'> {
  if (!(await withinLimits(orderId))) return 'busy';
  try {
    await requestPayerRefund(await getDatabase(), orderId, kind, new Date());
  } catch (error) {
    if (isDomainErrorOf(error, 'NotFound')) return 'unknown';
    if (isDatabaseBusy(error)) return 'busy';
    if (!isDomainError(error) || !ANSWERED_ALIKE.has(error.kind)) throw error;
  }
  return 'asked';
}
