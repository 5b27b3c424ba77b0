'use server';
/**
 * The API keys page's server actions. Each checks the session and the `keys` permission first
 * (requireAction: a viewer posting one directly gets 403 and changes nothing), then parses its
 * form with zod and calls lib/merchants, and writes an audit entry. What each change does to
 * requests and webhooks: docs/decisions/048.
 */
import { redirect } from 'next/navigation';
import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { clientAddress, requireAction } from '@/app/dashboard/session';
import { getDatabase } from '@/lib/db';
import {
  createKey,
  KEY_NAME_MAX,
  KeyChangeRefused,
  revokeMerchantKey,
  REVOKED_KEY_SIGNING_HOURS,
  ROLL_OVERLAP_HOURS,
  listKeys,
  rollKey,
  setKeyScopes,
  setWebhookKey,
} from '@/lib/merchants';
import { confirmFreshSecondFactor } from '@/lib/users';
import {
  BASE_KEY_SCOPES,
  KEY_SCOPES,
  MODE_VALUES,
  MONEY_OUT_SCOPES,
  validKeyScopes,
  type KeyScope,
  type Mode,
} from '@/lib/protocol';
import { postedForm } from '@/lib/security';
import { auditAction } from '@/app/dashboard/action-helpers';

/** A key pair as the page shows it once (never stored where a page load could read it). */
interface ShownKey {
  publicKey: string;
  privateKey: string;
  mode: Mode;
}

/** What "Create key" answers: the new key pair once, or why not. */
export type CreateKeyState = ({ ok: true } & ShownKey) | { ok: false; error: string } | null;

/** What "Roll" answers: the new key pair once and when the old one stops working, or why not. */
export type RollKeyState = ({ ok: true; oldKeyExpiresAt: string } & ShownKey) | { ok: false; error: string } | null;

/** The longest expiry the form offers: ten years. */
const EXPIRY_DAYS_MAX = 3650;
const DAY_MS = 24 * 60 * 60 * 1000;

const CREATE_FORM = z.object({
  mode: z.enum(MODE_VALUES),
  name: z.string().trim().max(KEY_NAME_MAX),
  // The page offers the payment scopes only: money-out scopes are never granted here (decision 048).
  scope: z.enum(BASE_KEY_SCOPES as [KeyScope, ...KeyScope[]]),
  expiresInDays: z.union([z.literal(''), z.coerce.number().int().min(1).max(EXPIRY_DAYS_MAX)]),
});

export async function createKeyAction(_previous: CreateKeyState, posted: FormData): Promise<CreateKeyState> {
  const form = postedForm(posted);
  const session = await requireAction('keys');
  const parsed = CREATE_FORM.safeParse({
    mode: form.get('mode'),
    name: form.get('name') ?? '',
    scope: form.get('scope') ?? 'full',
    expiresInDays: form.get('expiresInDays') ?? '',
  });
  if (!parsed.success)
    return {
      ok: false,
      error: `Check the form: a name of at most ${KEY_NAME_MAX} characters, a scope of the list, an expiry of 1 to ${EXPIRY_DAYS_MAX} days or none.`,
    };
  // The page showed keys of one mode; another tab may have switched the session since.
  if (parsed.data.mode !== session.mode) {
    return {
      ok: false,
      error: `You switched to ${session.mode} mode in another tab: reload this page before creating a key.`,
    };
  }
  const { name, scope, expiresInDays } = parsed.data;
  const expiresAt = expiresInDays === '' ? null : new Date(Date.now() + expiresInDays * DAY_MS);
  const db = await getDatabase();
  const keys = await createKey(db, session.merchantId, session.mode, {
    name,
    scopes: [scope],
    createdBy: session.email,
    expiresAt,
  });
  await auditAction(db, session, 'key.create', {
    publicKey: keys.publicKey,
    mode: keys.mode,
    name,
    scopes: [scope],
    expiresAt: expiresAt?.toISOString(),
  });
  revalidatePath('/dashboard/keys');
  return { ok: true, publicKey: keys.publicKey, privateKey: keys.privateKey, mode: keys.mode };
}

const ROLL_FORM = z.object({
  keyId: z.guid(),
  overlapHours: z.coerce.number().int().min(ROLL_OVERLAP_HOURS.min).max(ROLL_OVERLAP_HOURS.max),
});

export async function rollKeyAction(_previous: RollKeyState, posted: FormData): Promise<RollKeyState> {
  const form = postedForm(posted);
  const session = await requireAction('keys');
  const parsed = ROLL_FORM.safeParse({ keyId: form.get('keyId'), overlapHours: form.get('overlapHours') });
  if (!parsed.success)
    return {
      ok: false,
      error: `The overlap is a whole number of hours from ${ROLL_OVERLAP_HOURS.min} to ${ROLL_OVERLAP_HOURS.max}.`,
    };
  const db = await getDatabase();
  try {
    const rolled = await rollKey(db, session.merchantId, parsed.data.keyId, parsed.data.overlapHours, session.email);
    await auditAction(db, session, 'key.roll', {
      publicKey: rolled.publicKey,
      mode: rolled.mode,
      overlapHours: parsed.data.overlapHours,
      oldKeyExpiresAt: rolled.oldKeyExpiresAt.toISOString(),
    });
    revalidatePath('/dashboard/keys');
    return {
      ok: true,
      publicKey: rolled.publicKey,
      privateKey: rolled.privateKey,
      mode: rolled.mode,
      oldKeyExpiresAt: rolled.oldKeyExpiresAt.toISOString(),
    };
  } catch (error) {
    if (error instanceof KeyChangeRefused) return { ok: false, error: error.message };
    throw error;
  }
}

/** What becomes of the revoked key's webhooks: nothing chosen (it has none open), moved now, or kept signing for hours. */
const REVOKE_FORM = z.discriminatedUnion('handover', [
  z.object({ keyId: z.guid(), handover: z.literal('none') }),
  z.object({ keyId: z.guid(), handover: z.literal('move'), moveTo: z.guid() }),
  z.object({
    keyId: z.guid(),
    handover: z.literal('keep'),
    keepHours: z.coerce.number().int().min(REVOKED_KEY_SIGNING_HOURS.min).max(REVOKED_KEY_SIGNING_HOURS.max),
  }),
]);

export async function revokeKeyAction(posted: FormData): Promise<void> {
  const form = postedForm(posted);
  const session = await requireAction('keys');
  const parsed = REVOKE_FORM.safeParse({
    keyId: form.get('keyId'),
    handover: form.get('handover') ?? 'none',
    moveTo: form.get('moveTo'),
    keepHours: form.get('keepHours'),
  });
  if (!parsed.success) redirect('/dashboard/keys?notice=bad-handover');
  const handover =
    parsed.data.handover === 'move'
      ? { moveTo: parsed.data.moveTo }
      : parsed.data.handover === 'keep'
        ? { keepHours: parsed.data.keepHours }
        : {};
  const db = await getDatabase();
  let revoked: Awaited<ReturnType<typeof revokeMerchantKey>>;
  try {
    revoked = await revokeMerchantKey(db, session.merchantId, parsed.data.keyId, handover);
  } catch (error) {
    if (error instanceof KeyChangeRefused) redirect('/dashboard/keys?notice=bad-handover');
    throw error;
  }
  if (revoked) {
    await auditAction(db, session, 'key.revoke', { publicKey: revoked.publicKey, mode: revoked.mode, ...handover });
  }
  // Post, then redirect: a reload does not post the form again.
  redirect(`/dashboard/keys?notice=${revoked ? 'revoked' : 'not-found'}`);
}

const WEBHOOK_KEY_FORM = z.object({ keyId: z.guid() });

export async function webhookKeyAction(posted: FormData): Promise<void> {
  const form = postedForm(posted);
  const session = await requireAction('keys');
  const parsed = WEBHOOK_KEY_FORM.safeParse({ keyId: form.get('keyId') });
  const db = await getDatabase();
  const chosen = parsed.success ? await setWebhookKey(db, session.merchantId, parsed.data.keyId) : undefined;
  if (chosen) {
    await auditAction(db, session, 'key.webhook-key', { publicKey: chosen.publicKey, mode: chosen.mode });
  }
  redirect(`/dashboard/keys?notice=${chosen ? 'webhook-key' : 'not-found'}`);
}

const MONEY_OUT_FORM = z.object({
  keyId: z.guid(),
  code: z.string().trim().min(1).max(64),
  moneyOut: z.array(z.enum(MONEY_OUT_SCOPES as [KeyScope, ...KeyScope[]])),
});

/**
 * Sets which money-out scopes an active key has (docs/decisions/048): only an owner, and only with
 * a current authenticator code (a fresh second factor), whether it grants or takes away. The key's
 * payment scope stays as it is.
 */
export async function moneyOutScopesAction(posted: FormData): Promise<void> {
  const form = postedForm(posted);
  const session = await requireAction('keys');
  if (session.role !== 'owner') redirect('/dashboard/keys?notice=owner-only');
  const parsed = MONEY_OUT_FORM.safeParse({
    keyId: form.get('keyId'),
    code: form.get('code') ?? '',
    moneyOut: form.getAll('moneyOut'),
  });
  if (!parsed.success) redirect('/dashboard/keys?notice=code-refused');
  const db = await getDatabase();
  const key = (await listKeys(db, session.merchantId, session.mode)).find(
    (listed) =>
      listed.keyId === parsed.data.keyId && !listed.revokedAt && (!listed.expiresAt || listed.expiresAt > new Date()),
  );
  if (!key) redirect('/dashboard/keys?notice=not-found');
  const ip = await clientAddress();
  const refused = await confirmFreshSecondFactor(db, { id: session.userId, email: session.email }, parsed.data.code, {
    ip,
  });
  if (refused) redirect('/dashboard/keys?notice=code-refused');
  const scopes = [...key.scopes.filter((scope) => !KEY_SCOPES[scope].moneyOut), ...new Set(parsed.data.moneyOut)];
  if (!validKeyScopes(scopes)) redirect('/dashboard/keys?notice=not-found');
  const changed = await setKeyScopes(db, session.merchantId, key.keyId, scopes);
  if (!changed) redirect('/dashboard/keys?notice=not-found');
  await auditAction(db, session, 'key.scopes', {
    publicKey: key.publicKey,
    mode: key.mode,
    from: key.scopes,
    to: scopes,
    secondFactor: 'totp',
  });
  redirect('/dashboard/keys?notice=scopes');
}
