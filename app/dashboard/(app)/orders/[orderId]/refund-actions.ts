'use server';
/**
 * The order page's refunds (docs/refunds.md): make one in the order's coin, cancel one, reopen
 * its claim, approve one above the owner's threshold (a second person: docs/decisions/082),
 * complete one sent by hand by its transaction id (docs/decisions/092), mark one sent by hand not
 * sent when its transaction has been missing for an hour (docs/decisions/129). Each action checks the session and the `refunds` permission itself, every call,
 * parses its input with zod, calls lib/refunds, and writes the audit log. A refusal comes back to
 * the page as `?refund=<reason>`; a claim link to share is handed to the page in a short-lived
 * cookie for this order's page only, never in a URL (it is the payer's bearer secret).
 */
import { cookies } from 'next/headers';
import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { getDatabase, isDatabaseBusy, type Database } from '@/lib/db';
import { isDomainError } from '@/lib/errors';
import { completeRefundRequest, REFUND_DESTINATION_VALUES } from '@/lib/protocol';
import {
  approveRefund,
  cancelRefund,
  completeRefundByTransaction,
  makeRefund,
  markRefundNotSent,
  NotRefundable,
  planRefund,
  priceRefund,
  refundablePayment,
  refundRates,
  reopenRefund,
  RefundTransactionRefused,
  type MadeRefund,
} from '@/lib/refunds';
import { postedForm } from '@/lib/security';
import { requireAction } from '../../../session';
import { PLAN_REFUSAL_COOKIE, PLAN_REFUSAL_COOKIE_OPTIONS } from '../../funds/plan-cookie';
import { handOverClaimLinks } from './refund-cookie';
import { auditAction } from '@/app/dashboard/action-helpers';

const decimal = z
  .string()
  .trim()
  .regex(/^(0|[1-9]\d{0,76})(\.\d{1,36})?$/);
/**
 * The refund form: an amount in the coin, or for an invoice's order in the invoice's currency at
 * its rate, the current one or the merchant's own (issue 37's three rates side by side), and
 * whether the network fee is taken from the refund.
 */
const makeForm = z.object({
  orderId: z.uuid(),
  amount: decimal,
  priceIn: z.enum(['coin', 'fiat']).default('coin'),
  rate: z.enum(['invoice', 'current', 'custom']).default('invoice'),
  customRate: decimal.optional(),
  feeFromRefund: z.literal('on').optional(),
  /** The claim link (default), or the address the payment came from (decision 125). */
  to: z.enum(REFUND_DESTINATION_VALUES).default('claim'),
});
const refundForm = z.object({ orderId: z.uuid(), refundId: z.uuid() });

/** What the page says for each refusal of lib/refunds; anything else is not the user's doing. */
const REFUSALS: Partial<Record<string, string>> = {
  NotRefundable: 'refused',
  RateUnavailable: 'rate',
  RefundExceedsReceived: 'exceeds',
  RefundStateConflict: 'state',
  NotFound: 'unknown',
  CollectionRefused: 'plan',
  RefundTransactionRefused: 'transaction',
  RefundDestinationRefused: 'sender',
  RefundNetworkUnavailable: 'node',
};
/** Refusals whose reason is lib's own sentence (what the chain showed, the plan that pays the refund), carried by cookie, never in the URL. */
const SAID_BY_COOKIE = new Set(['plan', 'transaction', 'state']);

async function refusedOr<T>(page: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const refusal = isDomainError(error) ? REFUSALS[error.kind] : isDatabaseBusy(error) ? 'busy' : undefined;
    if (!refusal) throw error;
    // A plan refused says why in lib/payouts' words (no treasury, no fee estimate), a transaction
    // refused what the chain showed, a state refused why (an open plan pays the refund): kept out of the URL.
    if (SAID_BY_COOKIE.has(refusal))
      (await cookies()).set(PLAN_REFUSAL_COOKIE, (error as Error).message, {
        ...PLAN_REFUSAL_COOKIE_OPTIONS,
        path: page,
      });
    redirect(`${page}?refund=${refusal}`);
  }
}

async function handOver(page: string, made: MadeRefund): Promise<void> {
  await handOverClaimLinks(page, [made]);
}

/** "Refund" on an order: an amount in the order's coin, in full or in part. */
export async function makeRefundAction(posted: FormData): Promise<void> {
  const form = postedForm(posted);
  const session = await requireAction('refunds');
  const field = (name: string) => {
    const value = form.get(name);
    return value === null || value === '' ? undefined : value;
  };
  const parsed = makeForm
    .refine((f) => f.priceIn === 'coin' || f.rate !== 'custom' || f.customRate !== undefined)
    .safeParse({
      orderId: form.get('orderId'),
      amount: form.get('amount'),
      priceIn: field('priceIn'),
      rate: field('rate'),
      customRate: field('customRate'),
      feeFromRefund: field('feeFromRefund'),
      to: field('to'),
    });
  if (!parsed.success) {
    const orderId = z.uuid().safeParse(form.get('orderId'));
    redirect(orderId.success ? `/dashboard/orders/${orderId.data}?refund=invalid` : '/dashboard/orders');
  }
  const { orderId, amount, priceIn, rate, customRate, feeFromRefund, to } = parsed.data;
  const page = `/dashboard/orders/${orderId}`;
  const db = await getDatabase();
  const scope = { merchantId: session.merchantId, mode: session.mode };
  const made = await refusedOr(page, async () => {
    const target = { kind: 'order' as const, id: orderId };
    const payment = await refundablePayment(db, scope, target);
    const rates = priceIn === 'fiat' ? await refundRates(db, session.mode, payment) : null;
    if (priceIn === 'fiat' && !rates) throw new NotRefundable('Only an invoice has a rate of its own.');
    const price = rates ? { amount, currency: rates.fiat, rate: rate === 'custom' ? customRate! : rate } : { amount };
    const priced = await priceRefund(db, session.mode, payment, price);
    return makeRefund(db, scope, {
      target,
      ...priced,
      feeFromRefund: feeFromRefund === 'on',
      to,
      createdBy: `user:${session.userId}`,
      now: new Date(),
    });
  });
  await auditAction(db, session, 'refund.create', {
    refundId: made.refund.id,
    orderId,
    amount: made.refund.amount,
    currency: made.refund.currency,
    price: made.refund.price,
    feeFromRefund: feeFromRefund === 'on',
    to,
    mode: session.mode,
  });
  // A refund to the payment's sender has no claim link to hand over.
  if (made.claimUrl === null) {
    revalidatePath(page);
    redirect(`${page}?refund=made-to-sender`);
  }
  await handOver(page, made);
  revalidatePath(page);
  redirect(`${page}?refund=made`);
}

type RefundScope = { merchantId: string; mode: 'live' | 'test' };

/**
 * One refund of the order page changed (cancel, reopen, approve): the form read, the session's
 * refunds permission checked, the change made (a refusal said on the page) and audited as `action`.
 * Answers the page and what the change answered.
 */
async function changeRefund<T>(
  posted: FormData,
  action: string,
  change: (db: Database, scope: RefundScope, refundId: string, userId: string) => Promise<T>,
  detail: (result: T) => Record<string, unknown> = () => ({}),
): Promise<{ page: string; result: T }> {
  const form = postedForm(posted);
  const session = await requireAction('refunds');
  const parsed = refundForm.safeParse({ orderId: form.get('orderId'), refundId: form.get('refundId') });
  if (!parsed.success) redirect('/dashboard/orders');
  const page = `/dashboard/orders/${parsed.data.orderId}`;
  const db = await getDatabase();
  const scope = { merchantId: session.merchantId, mode: session.mode };
  const result = await refusedOr(page, () => change(db, scope, parsed.data.refundId, session.userId));
  await auditAction(db, session, action, { refundId: parsed.data.refundId, ...detail(result), mode: session.mode });
  return { page, result };
}

/** "Cancel" on a refund not sent yet: its amount is refundable again. */
export async function cancelRefundAction(posted: FormData): Promise<void> {
  const { page } = await changeRefund(posted, 'refund.cancel', (db, scope, refundId) =>
    cancelRefund(db, scope, refundId, new Date()),
  );
  revalidatePath(page);
  redirect(`${page}?refund=canceled`);
}

/** "Reopen claim": the payer's address is forgotten, the old link dies, a new one is mailed or shown. */
export async function reopenRefundAction(posted: FormData): Promise<void> {
  const { page, result: made } = await changeRefund(posted, 'refund.reopen', (db, scope, refundId) =>
    reopenRefund(db, scope, refundId, new Date()),
  );
  await handOver(page, made);
  revalidatePath(page);
  redirect(`${page}?refund=reopened`);
}

/** Base units per vbyte, as the Funds page's "Prepare collection" takes it; empty: the node's estimate. */
const planFeeRate = z
  .string()
  .trim()
  .regex(/^([1-9]\d{0,9})?$/);

/**
 * "Prepare plan" on a ready refund (docs/decisions/081): the plan that pays it from the merchant's
 * deposits, the change to the treasury, shown on its own page to download and sign. The network
 * fee is taken from the change unless "take the fee from the refund" is ticked; its rate is the
 * node's estimate unless one is given (a node without fee data, such as a young or quiet chain, has
 * no estimate).
 */
export async function planRefundAction(posted: FormData): Promise<void> {
  const form = postedForm(posted);
  const feeFromRefund = form.get('feeFromRefund') === 'on';
  const feeRate = planFeeRate.safeParse(form.get('feeRate') ?? '');
  if (!feeRate.success) {
    const orderId = z.uuid().safeParse(form.get('orderId'));
    redirect(orderId.success ? `/dashboard/orders/${orderId.data}?refund=fee-rate` : '/dashboard/orders');
  }
  const { result: plan } = await changeRefund(posted, 'refund.plan', (db, scope, refundId) =>
    planRefund(db, scope, refundId, {
      feeFromRefund,
      ...(feeRate.data !== '' && { feeRate: BigInt(feeRate.data) }),
    }),
  );
  redirect(`/dashboard/funds/plans/${plan.planId}?notice=prepared`);
}

/** "Approve" on a refund above the owner's threshold: by someone with the refunds permission who did not make it. */
export async function approveRefundAction(posted: FormData): Promise<void> {
  const { page } = await changeRefund(posted, 'refund.approve', (db, scope, refundId, userId) =>
    approveRefund(db, scope, refundId, userId, new Date()),
  );
  revalidatePath(page);
  redirect(`${page}?refund=approved`);
}

/** What "Send with wallet" is told of the transaction the merchant's wallet sent. */
export type WalletRefundRecord =
  | { outcome: 'recorded' }
  /** Not in a block yet (or the node or the database did not answer): ask again shortly. */
  | { outcome: 'waiting' }
  /** Why lib refused it (what the chain showed, or the refund's state). */
  | { outcome: 'refused'; message: string };

const walletRecord = z.object({ orderId: z.uuid(), refundId: z.uuid(), txId: completeRefundRequest.shape.txId });

/**
 * "Send with wallet" on a ready EVM refund (docs/decisions/098): the transaction the merchant's
 * browser wallet sent, recorded as one sent by hand is (verified on chain, decision 092; audited
 * as `refund.complete` with `via: wallet`). Called by the button, not a form, so it answers instead
 * of redirecting: an EVM transaction is found once it is in a block, and until then the button
 * asks again. Its arguments come from the browser: parsed here like a form.
 */
export async function recordWalletRefundAction(
  orderId: unknown,
  refundId: unknown,
  txId: unknown,
): Promise<WalletRefundRecord> {
  const session = await requireAction('refunds');
  const parsed = walletRecord.safeParse({ orderId, refundId, txId });
  if (!parsed.success) return { outcome: 'refused', message: 'That is not a transaction id of this refund.' };
  const db = await getDatabase();
  const scope = { merchantId: session.merchantId, mode: session.mode };
  let refund;
  try {
    refund = await completeRefundByTransaction(db, scope, parsed.data.refundId, parsed.data.txId, { now: new Date() });
  } catch (error) {
    const notYet =
      (isDomainError(error) &&
        error.kind === 'RefundTransactionRefused' &&
        (error as RefundTransactionRefused).problem === 'unknown') ||
      (isDomainError(error) && error.kind === 'RefundNetworkUnavailable') ||
      isDatabaseBusy(error);
    if (notYet) return { outcome: 'waiting' };
    if (isDomainError(error)) return { outcome: 'refused', message: error.message };
    throw error;
  }
  await auditAction(db, session, 'refund.complete', {
    refundId: parsed.data.refundId,
    txId: refund.txId,
    state: refund.state,
    via: 'wallet',
    mode: session.mode,
  });
  revalidatePath(`/dashboard/orders/${parsed.data.orderId}`);
  return { outcome: 'recorded' };
}

/**
 * "Sent by hand" on a ready refund, or "Check again" on one sent so: its transaction id, verified
 * on the refund's network (docs/decisions/092); audited with the id and the state it left.
 */
export async function completeRefundAction(posted: FormData): Promise<void> {
  const txId = completeRefundRequest.shape.txId.safeParse(postedForm(posted).get('txId'));
  const { page } = await changeRefund(
    posted,
    'refund.complete',
    (db, scope, refundId) => {
      if (!txId.success) throw new RefundTransactionRefused('txId', 'That is not a transaction id.');
      return completeRefundByTransaction(db, scope, refundId, txId.data, { now: new Date() });
    },
    (refund) => ({ txId: refund.txId, state: refund.state }),
  );
  revalidatePath(page);
  redirect(`${page}?refund=completed`);
}

/**
 * "Mark as not sent" on a refund sent by hand whose transaction the node has missed for an hour
 * (docs/decisions/129): looked up once more now, refused (and the refund stays sent) when found;
 * otherwise the refund fails, its amount refundable again. Audited as `refund.fail`.
 */
export async function markRefundNotSentAction(posted: FormData): Promise<void> {
  const { page } = await changeRefund(
    posted,
    'refund.fail',
    (db, scope, refundId) => markRefundNotSent(db, scope, refundId, { now: new Date() }),
    (refund) => ({ txId: refund.txId, missingSince: refund.missingSince }),
  );
  revalidatePath(page);
  redirect(`${page}?refund=not-sent`);
}
