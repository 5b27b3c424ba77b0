/**
 * Which mail an order's state calls for (SPEC "Mail", docs/mail.md). Pure: unit-tested in
 * kinds.test.ts; the watcher's settling applies it to every order it settles (lib/watcher/settle)
 * and the outbox writes each kind at most once per order.
 *
 * A payer is mailed only about an order that a payment reached: `payerEmail` comes from the
 * shopper, so a gateway that mailed about every order would mail whomever a shop's visitor names.
 */
import type { OrderStatus } from '../protocol';
import type { MAIL_KIND_VALUES } from '../db';

export type MailKind = (typeof MAIL_KIND_VALUES)[number];

/** The payer mails of an order's life, each switchable per merchant (settings). */
export const PAYER_MAIL_KINDS = ['payment-detected', 'payment-partial', 'payment-paid', 'payment-expired'] as const;
export type PayerMailKind = (typeof PAYER_MAIL_KINDS)[number];

/**
 * The refund mails: a claim link (the payer gives the address to refund to) and the refund sent.
 * Kinds of the outbox already; the refunds work (issue 37) writes them with its own texts.
 */
export type RefundMailKind = Exclude<MailKind, PayerMailKind>;

export function isPayerMailKind(value: string): value is PayerMailKind {
  return (PAYER_MAIL_KINDS as readonly string[]).includes(value);
}

/** What settling knows of an order once it is evaluated. */
export interface SettledOrderFacts {
  status: OrderStatus;
  /** Sum of the counted payments, base units. */
  received: bigint;
  /** A payment of the order is on the chain (confirming or counted). */
  paymentSeen: boolean;
}

/**
 * The mail an order's settled state calls for, or null:
 * - pending with a payment still confirming and nothing counted yet: `payment-detected`;
 * - pending with payments counted below the amount, time still running: `payment-partial` ("pay the rest");
 * - processed or overpaid: `payment-paid`, with the receipt;
 * - partial or expired: `payment-expired`, only where a payment was seen (the outbox also sends
 *   it where an earlier mail told the payer of a payment the chain later dropped);
 * - error (risk screening): none, the merchant looks into it and writes themselves.
 */
export function payerMailOf(order: SettledOrderFacts): PayerMailKind | null {
  switch (order.status) {
    case 'processed':
    case 'overpaid':
      return 'payment-paid';
    case 'partial':
    case 'expired':
      return 'payment-expired';
    case 'error':
      return null;
    case 'pending':
      if (order.received > 0n) return 'payment-partial';
      return order.paymentSeen ? 'payment-detected' : null;
  }
}
