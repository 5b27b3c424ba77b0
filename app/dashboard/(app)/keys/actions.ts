'use server';
/**
 * The API keys page's server actions. Each checks the session and the `keys` permission first
 * (requireAction: a viewer posting one directly gets 403 and changes nothing), then parses its
 * form with zod and calls lib/merchants, and writes an audit entry.
 */
import { redirect } from 'next/navigation';
import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { clientAddress, requireAction } from '@/app/dashboard/session';
import { getDatabase } from '@/lib/db';
import { createKey, revokeMerchantKey } from '@/lib/merchants';
import { recordAudit } from '@/lib/users';
import { MODE_VALUES, type Mode } from '@/lib/protocol';

/** What "Create key" answers: the new key pair once (never stored where a page load could read it), or why not. */
export type CreateKeyState =
  { ok: true; publicKey: string; privateKey: string; mode: Mode } | { ok: false; error: string } | null;

const CREATE_FORM = z.object({ mode: z.enum(MODE_VALUES) });

export async function createKeyAction(_previous: CreateKeyState, form: FormData): Promise<CreateKeyState> {
  const session = await requireAction('keys');
  const parsed = CREATE_FORM.safeParse({ mode: form.get('mode') });
  if (!parsed.success) return { ok: false, error: 'The form is incomplete: reload the page and try again.' };
  // The page showed keys of one mode; another tab may have switched the session since.
  if (parsed.data.mode !== session.mode) {
    return {
      ok: false,
      error: `You switched to ${session.mode} mode in another tab: reload this page before creating a key.`,
    };
  }
  const db = await getDatabase();
  const keys = await createKey(db, session.merchantId, session.mode);
  await recordAudit(db, {
    merchantId: session.merchantId,
    userId: session.userId,
    actor: session.email,
    action: 'key.create',
    detail: { publicKey: keys.publicKey, mode: keys.mode },
    ip: await clientAddress(),
  });
  revalidatePath('/dashboard/keys');
  return { ok: true, publicKey: keys.publicKey, privateKey: keys.privateKey, mode: keys.mode };
}

const REVOKE_FORM = z.object({ keyId: z.guid('Unknown key.') });

export async function revokeKeyAction(form: FormData): Promise<void> {
  const session = await requireAction('keys');
  const parsed = REVOKE_FORM.safeParse({ keyId: form.get('keyId') });
  const db = await getDatabase();
  const revoked = parsed.success ? await revokeMerchantKey(db, session.merchantId, parsed.data.keyId) : undefined;
  if (revoked) {
    await recordAudit(db, {
      merchantId: session.merchantId,
      userId: session.userId,
      actor: session.email,
      action: 'key.revoke',
      detail: { publicKey: revoked.publicKey, mode: revoked.mode },
      ip: await clientAddress(),
    });
  }
  // Post, then redirect: a reload does not post the form again.
  redirect(`/dashboard/keys?notice=${revoked ? 'revoked' : 'not-found'}`);
}
