'use server';
/**
 * The webhook endpoints page's server actions (docs/webhooks.md, "Webhook endpoints"): the same
 * operations as `webhook-endpoints/*`, parsed with the API's own request schemas, for the
 * session's merchant and mode. Each checks the session and the `keys` permission first (an
 * endpoint's secret is a credential, like a key), and writes an audit entry.
 */
import { redirect } from 'next/navigation';
import { revalidatePath } from 'next/cache';
import { requireAction } from '@/app/dashboard/session';
import { getDatabase } from '@/lib/db';
import { DomainError } from '@/lib/errors';
import {
  createEndpointRequest,
  endpointRequest,
  rollEndpointSecretRequest,
  updateEndpointRequest,
  type Mode,
} from '@/lib/protocol';
import { createEndpoint, deleteEndpoint, rollEndpointSecret, sendTestEvent, updateEndpoint } from '@/lib/webhooks';
import { postedForm } from '@/lib/security';
import { auditAction } from '@/app/dashboard/action-helpers';

const PAGE = '/dashboard/webhooks/endpoints';

/** What "Add endpoint" and "Roll secret" answer: the endpoint's (new) secret, shown once, or why not. */
export type EndpointSecretState =
  | { ok: true; endpointId: string; url: string; secret: string; mode: Mode; previousSecretExpiresAt: string | null }
  | { ok: false; error: string }
  | null;

/** The first problem of a refused form, as a sentence. */
function problem(issues: readonly { path: PropertyKey[]; message: string }[]): string {
  const [first] = issues;
  return first ? `${first.path.map(String).join('.') || 'form'}: ${first.message}.` : 'The form is incomplete.';
}

type Session = Awaited<ReturnType<typeof requireAction>>;

async function audit(session: Session, action: string, detail: Record<string, unknown>): Promise<void> {
  await auditAction(await getDatabase(), session, action, { mode: session.mode, ...detail });
}

export async function createEndpointAction(
  _previous: EndpointSecretState,
  posted: FormData,
): Promise<EndpointSecretState> {
  const form = postedForm(posted);
  const session = await requireAction('keys');
  const types = form.getAll('eventTypes').map(String);
  const description = String(form.get('description') ?? '').trim();
  const parsed = createEndpointRequest.safeParse({
    url: String(form.get('url') ?? '').trim(),
    // "All events" wins over single types ticked beside it.
    eventTypes: types.includes('*') ? ['*'] : types,
    ...(description ? { description } : {}),
  });
  if (!parsed.success) return { ok: false, error: problem(parsed.error.issues) };
  const scope = { merchantId: session.merchantId, mode: session.mode };
  try {
    const { endpoint, secret } = await createEndpoint(await getDatabase(), scope, parsed.data);
    await audit(session, 'webhook-endpoint.create', {
      id: endpoint.id,
      url: endpoint.url,
      eventTypes: endpoint.eventTypes,
    });
    revalidatePath(PAGE);
    return {
      ok: true,
      endpointId: endpoint.id,
      url: endpoint.url,
      secret,
      mode: session.mode,
      previousSecretExpiresAt: null,
    };
  } catch (error) {
    if (error instanceof DomainError) return { ok: false, error: error.message };
    throw error;
  }
}

export async function rollEndpointSecretAction(
  _previous: EndpointSecretState,
  posted: FormData,
): Promise<EndpointSecretState> {
  const form = postedForm(posted);
  const session = await requireAction('keys');
  const parsed = rollEndpointSecretRequest.safeParse({
    id: form.get('id'),
    overlapHours: Number(form.get('overlapHours')),
  });
  if (!parsed.success) return { ok: false, error: problem(parsed.error.issues) };
  const scope = { merchantId: session.merchantId, mode: session.mode };
  try {
    const { endpoint, secret } = await rollEndpointSecret(
      await getDatabase(),
      scope,
      parsed.data.id,
      parsed.data.overlapHours,
    );
    await audit(session, 'webhook-endpoint.roll-secret', { id: endpoint.id, overlapHours: parsed.data.overlapHours });
    revalidatePath(PAGE);
    return {
      ok: true,
      endpointId: endpoint.id,
      url: endpoint.url,
      secret,
      mode: session.mode,
      previousSecretExpiresAt: endpoint.previousSecretExpiresAt,
    };
  } catch (error) {
    if (error instanceof DomainError) return { ok: false, error: error.message };
    throw error;
  }
}

/** Pause, enable, send a test event or delete: one form per button, then back to the page with a notice. */
export async function endpointCommandAction(posted: FormData): Promise<void> {
  const form = postedForm(posted);
  const session = await requireAction('keys');
  const command = String(form.get('command'));
  const target = endpointRequest.safeParse({ id: form.get('id') });
  if (!target.success) redirect(`${PAGE}?notice=not-found`);
  const { id } = target.data;
  const scope = { merchantId: session.merchantId, mode: session.mode };
  const db = await getDatabase();
  let notice: string;
  try {
    if (command === 'pause' || command === 'enable') {
      const status = command === 'pause' ? 'paused' : 'enabled';
      const input = updateEndpointRequest.parse({ id, status });
      await updateEndpoint(db, scope, input);
      await audit(session, `webhook-endpoint.${command}`, { id });
      notice = command === 'pause' ? 'paused' : 'enabled';
    } else if (command === 'test') {
      await sendTestEvent(db, scope, id);
      notice = 'test-sent';
    } else if (command === 'delete') {
      await deleteEndpoint(db, scope, id);
      await audit(session, 'webhook-endpoint.delete', { id });
      notice = 'deleted';
    } else {
      notice = 'not-found';
    }
  } catch (error) {
    if (error instanceof DomainError) redirect(`${PAGE}?notice=not-found`);
    throw error;
  }
  redirect(`${PAGE}?notice=${notice}`);
}
