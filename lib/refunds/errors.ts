import { DomainError } from '../errors';

/** What was asked cannot be refunded (yet): an order still pending, a deposit not confirmed, an invoice without a paid order. */
export class NotRefundable extends DomainError<'NotRefundable'> {
  constructor(message: string) {
    super('NotRefundable', message);
  }
}

/**
 * The refund would take the sum refunded for its payment above what the payment received: the
 * database refused it (refund_balances), so a concurrent refund cannot slip past either.
 */
export class RefundExceedsReceived extends DomainError<'RefundExceedsReceived'> {
  constructor(left: string, currency: string) {
    super('RefundExceedsReceived', `At most ${left} ${currency} of this payment is left to refund.`, [
      { path: 'amount', message: `more than the ${left} ${currency} left to refund` },
    ]);
  }
}

/** The refund's state does not allow the change (lib/refunds/lifecycle.ts says why). */
export class RefundStateConflict extends DomainError<'RefundStateConflict'> {
  constructor(reason: string) {
    super('RefundStateConflict', reason.charAt(0).toUpperCase() + reason.slice(1) + '.');
  }
}

/**
 * A claim link that does not open a claim: unknown, expired, already used to confirm an address,
 * or made dead by a reopening. One answer for all, so the page tells a guesser nothing.
 */
export class ClaimLinkInvalid extends DomainError<'ClaimLinkInvalid'> {
  constructor() {
    super('ClaimLinkInvalid', 'This refund link is not valid: it expired, was already used, or was replaced.');
  }
}
