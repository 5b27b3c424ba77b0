import type { orders, payments, RowOf } from '../db';

/** An `orders` row as raw SQL answers it (docs/decisions/017). */
export type OrderRow = RowOf<typeof orders>;

/** A `payments` row (an incoming transfer credited to an order). */
export type PaymentRow = RowOf<typeof payments>;

/** The columns of an order's payments that its answers show (`order`, the webhook body). */
export const ORDER_PAYMENT_COLUMNS = [
  'id',
  'tx_hash',
  'amount',
  'currency',
  'network',
  'status',
  'confirmations',
  'created_at',
] as const satisfies readonly (keyof PaymentRow)[];
export type OrderPayment = Pick<PaymentRow, (typeof ORDER_PAYMENT_COLUMNS)[number]>;
