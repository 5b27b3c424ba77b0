/**
 * Order statuses (client-safe).
 * - pending: created, waiting for payment.
 * - processed: received at least the threshold and at most the amount. Final; success webhook.
 * - overpaid: received more than the amount. Final; success webhook.
 * - partial: expired with something received, but below the threshold. Final; error webhook.
 * - expired: expired with nothing received. Final; error webhook.
 * - error: a payment was flagged by risk screening. Final; error webhook.
 */
export const ORDER_STATUS_VALUES = ['pending', 'processed', 'overpaid', 'partial', 'expired', 'error'] as const;
export type OrderStatus = (typeof ORDER_STATUS_VALUES)[number];

export const FINAL_STATUSES: ReadonlySet<OrderStatus> = new Set(['processed', 'overpaid', 'partial', 'expired', 'error']);
