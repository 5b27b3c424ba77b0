import 'server-only';
/**
 * The deposits and webhooks screens: keyset lists of the scope's deposits (orphan and personal)
 * and webhook events with their last attempt, and re-sending an event of the scope.
 */
import { alias, columnsOf, deposits, sql, webhookAttempts, webhookEvents, type Queryable, type RowOf } from '../db';
import { DEPOSIT_ROWS, serializeDeposit, type DepositRow } from '../deposits';
import { resendWebhook } from '../webhooks';
import type { DeliveryFilters, DepositFilters } from './filters';
import { keysetPage, type Page, type Position } from './keyset';
import { explorerOverrides, transactionLink, type DepositView } from './orders';
import { isUuid } from '../protocol';
import type { MerchantScope } from '../merchants';

const d = alias(deposits, 'd');

export type DepositListItem = DepositView & { kind: DepositRow['kind']; explorerUrl?: string; createdAt: Date };

/** The scope's deposits, newest first; `kind` ORPHAN or PERSONAL narrows them. */
export async function listDepositItems(
  db: Queryable,
  scope: MerchantScope,
  filters: Omit<DepositFilters, 'after' | 'before'> & Position = {},
  pageSize = 50,
): Promise<Page<DepositListItem>> {
  const conditions = [
    sql`${d.merchantId} = ${scope.merchantId}::uuid`,
    sql`${d.mode} = ${scope.mode}`,
    filters.kind !== undefined && sql`${d.kind} = ${filters.kind}`,
  ];
  const [page, overrides] = await Promise.all([
    keysetPage<DepositRow>(db, DEPOSIT_ROWS, d, conditions, filters, pageSize),
    explorerOverrides(db, scope.merchantId),
  ]);
  return {
    ...page,
    rows: page.rows.map((d) => ({
      ...serializeDeposit(d),
      kind: d.kind,
      explorerUrl: transactionLink(scope.mode, d.network, d.in_tx_hash, overrides),
      createdAt: d.created_at,
    })),
  };
}

const EVENT_COLUMNS = [
  'id',
  'order_id',
  'invoice_id',
  'kind',
  'order_status',
  'invoice_status',
  'url',
  'state',
  'attempts',
  'next_attempt_at',
  'delivered_at',
  'created_at',
] as const;
const ATTEMPT_COLUMNS = ['attempt', 'started_at', 'latency_ms', 'status_code', 'outcome', 'error'] as const;
type DeliveryRow = Pick<RowOf<typeof webhookEvents>, (typeof EVENT_COLUMNS)[number]> & {
  last: Pick<RowOf<typeof webhookAttempts>, (typeof ATTEMPT_COLUMNS)[number]> | null;
};
const e = alias(webhookEvents, 'e');
/** Each event with its last attempt. */
const DELIVERIES = sql`select ${columnsOf(e, EVENT_COLUMNS)},
       (select row_to_json(a) from (select ${columnsOf(webhookAttempts, ATTEMPT_COLUMNS)} from ${webhookAttempts}
                                     where ${webhookAttempts.eventId} = ${e.id} order by ${webhookAttempts.attempt} desc, ${webhookAttempts.id} desc limit 1) a) as last
  from ${webhookEvents} e`;

/** A webhook event as the webhooks table shows it, with its last attempt. */
export interface DeliveryListItem {
  id: string;
  orderId: string | null;
  invoiceId: string | null;
  kind: DeliveryRow['kind'];
  /** The order or invoice status it announces. */
  status: string | null;
  url: string;
  state: DeliveryRow['state'];
  attempts: number;
  nextAttemptAt: Date | null;
  deliveredAt: Date | null;
  createdAt: Date;
  lastAttempt: {
    attempt: number;
    at: Date;
    latencyMs: number;
    statusCode: number | null;
    outcome: string;
    error: string | null;
  } | null;
}

/**
 * The scope's webhook events, newest first, each with its last attempt; `failed` shows only those
 * that gave up (failed: retries used up; refused: target not allowed).
 */
export async function listDeliveryItems(
  db: Queryable,
  scope: MerchantScope,
  filters: Omit<DeliveryFilters, 'after' | 'before'> & Position = {},
  pageSize = 50,
): Promise<Page<DeliveryListItem>> {
  const conditions = [
    sql`${e.merchantId} = ${scope.merchantId}::uuid`,
    sql`${e.mode} = ${scope.mode}`,
    // A literal, as the partial index webhook_events_failed is written.
    filters.failed && sql`${e.state} in ('failed', 'refused')`,
  ];
  const page = await keysetPage<DeliveryRow>(db, DELIVERIES, e, conditions, filters, pageSize);
  return {
    ...page,
    rows: page.rows.map((e) => ({
      id: e.id,
      orderId: e.order_id,
      invoiceId: e.invoice_id,
      kind: e.kind,
      status: e.order_status ?? e.invoice_status,
      url: e.url,
      state: e.state,
      attempts: e.attempts,
      nextAttemptAt: e.state === 'pending' ? e.next_attempt_at : null,
      deliveredAt: e.delivered_at,
      createdAt: e.created_at,
      lastAttempt: e.last && {
        attempt: e.last.attempt,
        // row_to_json answers times as text.
        at: new Date(e.last.started_at),
        latencyMs: e.last.latency_ms,
        statusCode: e.last.status_code,
        outcome: e.last.outcome,
        error: e.last.error,
      },
    })),
  };
}

/**
 * Sends a webhook event of the scope again (lib/webhooks `resendWebhook`). False, changing
 * nothing, when the event is not the scope's (another merchant's or mode's, or no event at all).
 */
export async function resendDelivery(db: Queryable, scope: MerchantScope, eventId: string): Promise<boolean> {
  if (!isUuid(eventId)) return false;
  return (await resendWebhook(db, eventId, { merchantId: scope.merchantId, mode: scope.mode })) !== undefined;
}
