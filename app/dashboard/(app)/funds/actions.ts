'use server';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { getDatabase } from '@/lib/db';
import { isDomainErrorOf } from '@/lib/errors';
import { checkDepositKey, checkTreasury, setDepositKey, setFeePayer, setTreasury } from '@/lib/payouts';
import { postedForm } from '@/lib/security';
import { confirmFreshSecondFactor } from '@/lib/users';
import { clientAddress, requireAction } from '../../session';
import { auditAction } from '@/app/dashboard/action-helpers';

/** How many of the address's last characters the owner types again: a pasted look-alike fails here. */
const CONFIRM_CHARACTERS = 6;

const TREASURY_FORM = z.object({
  network: z.string().regex(/^[a-z]{1,32}$/),
  address: z.string().trim().min(1).max(128),
  confirm: z.string().trim().length(CONFIRM_CHARACTERS),
  code: z.string().trim().min(1).max(64),
});

/**
 * Sets where a network's collections go (docs/collections.md, "The treasury"): only an owner, with
 * a current authenticator code (a fresh second factor), after typing the address's last six
 * characters again; the address and its checksum are checked for the network, a key pasted in its
 * place is refused unechoed (lib/payouts setTreasury), and the change is audited. The signer pins
 * its own copy: a treasury changed here alone only gets plans the signer refuses.
 */
export async function setTreasuryAction(posted: FormData): Promise<void> {
  const form = postedForm(posted);
  const session = await requireAction('settings');
  if (session.role !== 'owner') redirect('/dashboard/funds?notice=owner-only');
  const parsed = TREASURY_FORM.safeParse({
    network: form.get('network') ?? '',
    address: form.get('address') ?? '',
    confirm: form.get('confirm') ?? '',
    code: form.get('code') ?? '',
  });
  if (!parsed.success) redirect('/dashboard/funds?notice=treasury-invalid');
  const { network, address, confirm, code } = parsed.data;
  if (!address.endsWith(confirm)) redirect('/dashboard/funds?notice=confirm-refused');
  // The address is checked before the code is: a mistyped address does not spend the code.
  try {
    checkTreasury({ network, mode: session.mode, address });
  } catch (error) {
    if (isDomainErrorOf(error, 'TreasuryInvalid') || isDomainErrorOf(error, 'KeyMaterialRefused'))
      redirect('/dashboard/funds?notice=treasury-invalid');
    throw error;
  }
  const db = await getDatabase();
  const ip = await clientAddress();
  if (await confirmFreshSecondFactor(db, { id: session.userId, email: session.email }, code, { ip }))
    redirect('/dashboard/funds?notice=code-refused');
  await setTreasury(db, { merchantId: session.merchantId, network, mode: session.mode, address });
  await auditAction(db, session, 'treasury.set', { network, mode: session.mode, address, secondFactor: 'totp' });
  redirect('/dashboard/funds?notice=treasury');
}

const DEPOSIT_KEY_FORM = z.object({
  network: z.string().regex(/^[a-z]{1,32}$/),
  key: z.string().trim().min(1).max(400),
  code: z.string().trim().min(1).max(64),
});

/**
 * Sets the merchant's own deposit key of a network (docs/collections.md, "Your own key"): only an
 * owner, with a current authenticator code; the descriptor is checked for the network before the
 * code is spent, a private key or phrase pasted in its place is refused unechoed, and the change is
 * audited. Orders from now on pay addresses of this key; the earlier key's unissued addresses are
 * dropped, those handed out stay watched.
 */
export async function setDepositKeyAction(posted: FormData): Promise<void> {
  const form = postedForm(posted);
  const session = await requireAction('settings');
  if (session.role !== 'owner') redirect('/dashboard/funds?notice=owner-only');
  const parsed = DEPOSIT_KEY_FORM.safeParse({
    network: form.get('network') ?? '',
    key: form.get('key') ?? '',
    code: form.get('code') ?? '',
  });
  if (!parsed.success) redirect('/dashboard/funds?notice=deposit-key-invalid');
  const { network, key, code } = parsed.data;
  const invalid = (error: unknown) =>
    isDomainErrorOf(error, 'DepositKeyInvalid') || isDomainErrorOf(error, 'KeyMaterialRefused');
  try {
    checkDepositKey({ network, mode: session.mode, key });
  } catch (error) {
    if (invalid(error)) redirect('/dashboard/funds?notice=deposit-key-invalid');
    throw error;
  }
  const db = await getDatabase();
  const ip = await clientAddress();
  if (await confirmFreshSecondFactor(db, { id: session.userId, email: session.email }, code, { ip }))
    redirect('/dashboard/funds?notice=code-refused');
  let set;
  try {
    set = await setDepositKey(db, { merchantId: session.merchantId, network, mode: session.mode, key });
  } catch (error) {
    // Another merchant's key, or the gateway's: known only once the database is asked.
    if (invalid(error)) redirect('/dashboard/funds?notice=deposit-key-invalid');
    throw error;
  }
  await auditAction(db, session, 'deposit-key.set', {
    network: set.network,
    mode: set.mode,
    key: set.key,
    keyFingerprint: set.keyFingerprint,
    secondFactor: 'totp',
  });
  redirect('/dashboard/funds?notice=deposit-key');
}

const FEE_PAYER_FORM = z.object({
  network: z.string().regex(/^[a-z]{1,32}$/),
  address: z.string().trim().min(1).max(64),
  path: z.string().trim().min(1).max(120),
});

/**
 * Keeps the account that pays a network's collection fees (docs/decisions/099): the gas payer on
 * EVM, the resource account with staked TRX on Tron, by address and path (never a key). An owner
 * or an admin (the `settings` permission); the network, the address (its checksum) and the path
 * are checked, a key pasted in either field is refused unechoed; the change and its audit entry
 * (`fee-payer.set`) commit together. A prepare that names no fee payer uses this one.
 */
export async function setFeePayerAction(posted: FormData): Promise<void> {
  const form = postedForm(posted);
  const session = await requireAction('settings');
  const parsed = FEE_PAYER_FORM.safeParse({
    network: form.get('network') ?? '',
    address: form.get('address') ?? '',
    path: form.get('path') ?? '',
  });
  if (!parsed.success) redirect('/dashboard/funds?notice=fee-payer-invalid');
  const db = await getDatabase();
  try {
    await db.transaction(async (tx) => {
      const kept = await setFeePayer(tx, { merchantId: session.merchantId, mode: session.mode, ...parsed.data });
      await auditAction(tx, session, 'fee-payer.set', { ...kept, mode: session.mode });
    });
  } catch (error) {
    if (isDomainErrorOf(error, 'FeePayerInvalid') || isDomainErrorOf(error, 'KeyMaterialRefused'))
      redirect('/dashboard/funds?notice=fee-payer-invalid');
    throw error;
  }
  redirect('/dashboard/funds?notice=fee-payer');
}
