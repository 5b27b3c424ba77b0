import 'server-only';
/**
 * The webhook body: the order exactly as the `order` operation answers it (status, received,
 * transactions...), plus `event: "ORDER"` and `id`, the event id that `x-webhook-id` repeats.
 * Serialised once, in the status change's transaction: every attempt sends (and signs) the same
 * bytes.
 */
import { serializeOrderDetails, type OrderPayment, type OrderRow } from '../orders';
import type { OrderStatus, WebhookKind, WebhookPayload } from '../protocol';

/** Which webhook a final status fires (SPEC "Webhooks"); none for pending. */
export function webhookKindOf(status: OrderStatus): WebhookKind | undefined {
  if (status === 'processed' || status === 'overpaid') return 'success';
  if (status === 'expired' || status === 'partial' || status === 'error') return 'error';
  return undefined;
}

export function webhookBody(order: OrderRow, payments: readonly OrderPayment[], eventId: string): string {
  return JSON.stringify({
    ...serializeOrderDetails(order, payments),
    event: 'ORDER',
    id: eventId,
  } satisfies WebhookPayload);
}
