import 'server-only';
/**
 * An order's own webhook body (the seed's per-order webhook): the order exactly as the `order`
 * operation answers it (status, received, transactions...), plus `event: "ORDER"` and `id`, the id
 * of the event it reports, which `x-webhook-id` repeats. Serialised once, in the status change's
 * transaction: every attempt sends (and signs) the same bytes.
 */
import type { OrderDetails, OrderStatus, WebhookKind, WebhookPayload } from '../protocol';

/** Which webhook a final status fires (SPEC "Webhooks"); none for pending. */
export function webhookKindOf(status: OrderStatus): WebhookKind | undefined {
  if (status === 'processed' || status === 'overpaid') return 'success';
  if (status === 'expired' || status === 'partial' || status === 'error') return 'error';
  return undefined;
}

export function webhookBody(order: OrderDetails, eventId: string): string {
  return JSON.stringify({ ...order, event: 'ORDER', id: eventId } satisfies WebhookPayload);
}
