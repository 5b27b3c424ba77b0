import 'server-only';
/**
 * The webhook body: the order exactly as the `order` operation answers it (status, received,
 * transactions...), plus `event: "ORDER"` and `id`, the event id that `x-webhook-id` repeats.
 * Serialised once, in the status change's transaction: every attempt sends (and signs) the same
 * bytes.
 */
import type { OrderRow, PaymentRow } from '../orders/rows';
import { serializeOrderDetails } from '../orders/serialize';
import type { OrderStatus } from '../orders/status';

export type WebhookKind = 'success' | 'error';

/** Which webhook a final status fires (SPEC "Webhooks"); none for pending. */
export function webhookKindOf(status: OrderStatus): WebhookKind | undefined {
  if (status === 'processed' || status === 'overpaid') return 'success';
  if (status === 'expired' || status === 'partial' || status === 'error') return 'error';
  return undefined;
}

export function webhookBody(order: OrderRow, payments: PaymentRow[], eventId: string): string {
  return JSON.stringify({ ...serializeOrderDetails(order, payments), event: 'ORDER', id: eventId });
}
