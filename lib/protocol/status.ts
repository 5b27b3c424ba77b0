/**
 * The status values of the wire contract, one list each. The database schema's columns, the
 * request and response schemas and the state machines all take their values from here.
 *
 * Order statuses:
 * - pending: created, waiting for payment.
 * - processed: received at least the threshold and at most the amount. Final; success webhook.
 * - overpaid: received more than the amount. Final; success webhook.
 * - partial: expired with something received, but below the threshold. Final; error webhook.
 * - expired: expired with nothing received. Final; error webhook.
 * - error: a payment was flagged by risk screening. Final; error webhook.
 */
/** A key's mode, and everything it made: test keys use the sandbox ledger, live keys real chains. */
export const MODE_VALUES = ['test', 'live'] as const;
export type Mode = (typeof MODE_VALUES)[number];

export const ORDER_STATUS_VALUES = ['pending', 'processed', 'overpaid', 'partial', 'expired', 'error'] as const;
export type OrderStatus = (typeof ORDER_STATUS_VALUES)[number];

export const FINAL_STATUSES: ReadonlySet<OrderStatus> = new Set([
  'processed',
  'overpaid',
  'partial',
  'expired',
  'error',
]);

/** An order's payment: pending until confirmed, then processed; reversed when a counted payment was dropped; rejected by risk screening. */
export const PAYMENT_STATUS_VALUES = ['pending', 'processed', 'reversed', 'rejected'] as const;

/** A deposit (seed 2.3): stage DEPOSIT until an outgoing transfer from its address is seen, then WITHDRAWAL. */
export const DEPOSIT_STAGE_VALUES = ['DEPOSIT', 'WITHDRAWAL'] as const;
/** A deposit's status: PENDING until confirmed, then PROCESSED. */
export const DEPOSIT_STATUS_VALUES = ['PENDING', 'PROCESSED', 'ERROR'] as const;
/** ORPHAN: a transfer that did not count for an order; PERSONAL: one to a personal address. */
export const DEPOSIT_KIND_VALUES = ['ORPHAN', 'PERSONAL'] as const;
/** A transfer to or from an address (addresses/transactions): pending until confirmed, then processed; rejected by risk screening; error otherwise. */
export const ADDRESS_TRANSACTION_STATUS_VALUES = ['pending', 'processed', 'rejected', 'error'] as const;
/** PAY_IN: an order's own address; PERSONAL: an external user's (seed: addressType). */
export const ADDRESS_KIND_VALUES = ['PAY_IN', 'PERSONAL'] as const;

/**
 * Invoice statuses (docs/invoices.md has the transitions). An invoice's status is a pure function
 * of the order made for the coin its payer chose (lib/invoices/lifecycle.ts):
 * - CREATED: no coin chosen yet (or the chosen coin's order ran out while the invoice has time left).
 * - INIT: a coin was chosen; its order waits for a payment.
 * - PENDING: a payment of the order was seen (confirming, or confirmed below the amount).
 * - PROCESSED / OVERPAID / PARTIAL: the order's final status of the same meaning. Final.
 * - EXPIRED: the invoice's time ran out with nothing received. Final.
 * - REJECTED: a payment was refused by risk screening (the order's `error`). Final.
 * - ERROR: reserved by the API we follow; this gateway does not produce it.
 */
export const INVOICE_STATUS_VALUES = [
  'CREATED',
  'INIT',
  'PENDING',
  'PROCESSED',
  'PARTIAL',
  'OVERPAID',
  'EXPIRED',
  'ERROR',
  'REJECTED',
] as const;
export type InvoiceStatus = (typeof INVOICE_STATUS_VALUES)[number];

export const FINAL_INVOICE_STATUSES: ReadonlySet<InvoiceStatus> = new Set([
  'PROCESSED',
  'PARTIAL',
  'OVERPAID',
  'EXPIRED',
  'ERROR',
  'REJECTED',
]);

/**
 * success: processed or overpaid, to successWebhook; error: expired, partial or error, to
 * errorWebhook; invoice: an invoice's final status, to its webhookURL; endpoint: an event (or a
 * test event) to a webhook endpoint the merchant configured.
 */
export const WEBHOOK_KIND_VALUES = ['success', 'error', 'invoice', 'endpoint'] as const;
export type WebhookKind = (typeof WEBHOOK_KIND_VALUES)[number];
/** pending (waiting or being tried), delivered (a 2xx), failed (retries used up), refused (target not allowed). */
export const WEBHOOK_STATE_VALUES = ['pending', 'delivered', 'failed', 'refused'] as const;
/** What one delivery attempt came to. */
export const WEBHOOK_OUTCOME_VALUES = ['delivered', 'http_error', 'timeout', 'network_error', 'refused'] as const;
export type WebhookOutcome = (typeof WEBHOOK_OUTCOME_VALUES)[number];
/** A webhook endpoint's: enabled, receives its events; paused, by its owner; disabled, by the gateway after its deliveries failed for days. */
export const ENDPOINT_STATUS_VALUES = ['enabled', 'paused', 'disabled'] as const;
export type EndpointStatus = (typeof ENDPOINT_STATUS_VALUES)[number];
