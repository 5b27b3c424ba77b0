'use server';
/**
 * "Prepare collection" on the Funds page (docs/collections.md): a plan that moves a network's
 * confirmed deposit outputs to the treasury, for the merchant to download and sign on its own
 * machine; and "Submit" on a plan's page: its signed transaction pasted back, handed to the node
 * (the sandbox in test mode) as `collections/submit` hands it (docs/decisions/109). The session
 * and the permission are checked here, every call: `settings` for a collection, `refunds` for a
 * refund's plan (lib/users planPermission, docs/decisions/116); the forms are parsed with zod; the
 * plan and its audit entry (`collection.prepare`, `plan.submit`) commit together. A plan that
 * cannot be prepared, or a transaction refused, comes back to the page with lib/payouts' reason.
 */
import { cookies } from 'next/headers';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { getDatabase } from '@/lib/db';
import { isDomainErrorOf } from '@/lib/errors';
import { collectionPlan, prepareAnyCollection, refuseKeyMaterial, submitPlan } from '@/lib/payouts';
import { feePayerSchema, signedTransactionHex } from '@/lib/protocol';
import { postedForm } from '@/lib/security';
import { planPermission, recordAudit } from '@/lib/users';
import { clientAddress, requireAction } from '../../session';
import { PLAN_REFUSAL_COOKIE, PLAN_REFUSAL_COOKIE_OPTIONS } from './plan-cookie';

const COLLECT_FORM = z.object({
  network: z.string().regex(/^[a-z]{1,32}$/),
  /** Base units per vbyte; empty: the node's estimate. */
  feeRate: z
    .string()
    .trim()
    .regex(/^([1-9]\d{0,9})?$/),
  /** EVM and Tron: the line's currency, and the fee payer (both fields, or neither). */
  currency: z.string().regex(/^[A-Z0-9]{0,16}$/),
  feePayer: z.union([feePayerSchema, z.object({ address: z.literal(''), path: z.literal('') })]),
});

export async function prepareCollectionAction(posted: FormData): Promise<void> {
  const form = postedForm(posted);
  const session = await requireAction(planPermission('collection'));
  const parsed = COLLECT_FORM.safeParse({
    network: form.get('network') ?? '',
    feeRate: form.get('feeRate') ?? '',
    currency: form.get('currency') ?? '',
    feePayer: {
      address: String(form.get('feePayer') ?? '').trim(),
      path: String(form.get('feePayerPath') ?? '').trim(),
    },
  });
  if (!parsed.success) redirect('/dashboard/funds?notice=plan-invalid');
  const { network, feeRate, currency, feePayer } = parsed.data;
  const db = await getDatabase();
  const ip = await clientAddress();
  let planId: string;
  try {
    const plan = await prepareAnyCollection(
      db,
      {
        merchantId: session.merchantId,
        mode: session.mode,
        network,
        ...(feeRate !== '' && { feeRate: BigInt(feeRate) }),
        ...(currency !== '' && { currency }),
        ...(feePayer.address !== '' && { feePayer }),
      },
      {
        within: (tx, id) =>
          recordAudit(tx, {
            merchantId: session.merchantId,
            userId: session.userId,
            actor: session.email,
            action: 'collection.prepare',
            detail: { planId: id, network, mode: session.mode },
            ip,
          }),
      },
    );
    planId = plan.planId;
  } catch (error) {
    if (!isDomainErrorOf(error, 'CollectionRefused')) throw error;
    (await cookies()).set(PLAN_REFUSAL_COOKIE, error.message, {
      ...PLAN_REFUSAL_COOKIE_OPTIONS,
      path: '/dashboard/funds',
    });
    redirect('/dashboard/funds?notice=plan-refused');
  }
  redirect(`/dashboard/funds/plans/${planId}?notice=prepared`);
}

// Pasted: line breaks and spaces of a wrapped hex dump, and upper case, are not the transaction's.
const PASTED_TRANSACTION = z
  .string()
  .max(1_100_000)
  .transform((pasted) => pasted.replace(/\s+/g, '').toLowerCase())
  .pipe(signedTransactionHex());

/**
 * "Submit" on a plan's page: the plan's signed transaction (hex, as `npm run signer` writes it),
 * checked to be the plan's own and handed to the node by lib/payouts `submitPlan`, the function
 * behind `collections/submit`; taken, its id and the audit entry (`plan.submit`) commit together.
 * The permission is the plan's kind's, checked once the caller's plan is read.
 */
export async function submitSignedPlanAction(posted: FormData): Promise<void> {
  const form = postedForm(posted);
  const viewer = await requireAction('view');
  const planId = z.uuid().safeParse(form.get('planId'));
  if (!planId.success) redirect('/dashboard/funds');
  const db = await getDatabase();
  const plan = await collectionPlan(db, viewer.merchantId, viewer.mode, planId.data);
  if (!plan) redirect('/dashboard/funds');
  const session = await requireAction(planPermission(plan.kind));
  const page = `/dashboard/funds/plans/${planId.data}`;
  const pasted = form.get('transaction') ?? '';
  // A seed or private key pasted by mistake: said as such (never echoed, kept or logged), as the API refuses one.
  try {
    if (typeof pasted === 'string') refuseKeyMaterial({ transaction: pasted });
  } catch (error) {
    if (!isDomainErrorOf(error, 'KeyMaterialRefused')) throw error;
    redirect(`${page}?notice=submit-key-material#submit`);
  }
  const transaction = PASTED_TRANSACTION.safeParse(pasted);
  if (!transaction.success) redirect(`${page}?notice=submit-invalid#submit`);
  const ip = await clientAddress();
  try {
    await submitPlan(
      db,
      { merchantId: session.merchantId, mode: session.mode, id: planId.data, transaction: transaction.data },
      {
        within: (tx, id) =>
          recordAudit(tx, {
            merchantId: session.merchantId,
            userId: session.userId,
            actor: session.email,
            action: 'plan.submit',
            detail: { planId: id, mode: session.mode },
            ip,
          }),
      },
    );
  } catch (error) {
    if (isDomainErrorOf(error, 'NotFound')) redirect('/dashboard/funds');
    if (!isDomainErrorOf(error, 'CollectionRefused')) throw error;
    // Every reason of a transaction of many inputs could outgrow a cookie (4 KB): the first ones say enough.
    const reason = error.message.length > 600 ? `${error.message.slice(0, 600)}…` : error.message;
    (await cookies()).set(PLAN_REFUSAL_COOKIE, reason, { ...PLAN_REFUSAL_COOKIE_OPTIONS, path: page });
    redirect(`${page}?notice=submit-refused#submit`);
  }
  redirect(`${page}?notice=submitted`);
}
