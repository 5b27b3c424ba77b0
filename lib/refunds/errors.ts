import { DomainError } from '../errors';
import type { RefundTransactionProblem } from './transfer-check';

/** What was asked cannot be refunded (yet): an order still pending, a deposit not confirmed, an invoice without a paid order. */
export class NotRefundable extends DomainError<'NotRefundable'> {
  /** @param path the request's field at fault, when one is. */
  constructor(message: string, path?: string) {
    super('NotRefundable', message, path ? [{ path, message }] : []);
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

/** Why a claim's address was refused: the claim page says it in the payer's language (lib/mail REFUND_CLAIM_MESSAGES). */
export type ClaimAddressProblem = 'address' | 'no-tag' | 'tag';

/**
 * An address (or tag) a payer gave that the refund's network cannot take. The message is
 * English, for the API; the claim page says `problem` in the payer's language.
 */
export class ClaimAddressInvalid extends DomainError<'ClaimAddressInvalid'> {
  constructor(
    readonly problem: ClaimAddressProblem,
    message: string,
  ) {
    super('ClaimAddressInvalid', message, [{ path: problem === 'address' ? 'address' : 'tag', message }]);
  }
}

/**
 * A transaction entered to complete a refund that does not (docs/decisions/092): `problem` says
 * which check failed (lib/refunds/transfer-check.ts), the message what the chain showed.
 */
export class RefundTransactionRefused extends DomainError<'RefundTransactionRefused'> {
  constructor(
    readonly problem: RefundTransactionProblem,
    message: string,
  ) {
    super('RefundTransactionRefused', message, [{ path: 'txId', message }]);
  }
}

/**
 * A refund to the payment's sender (docs/decisions/125) cannot be made: no one address to go back
 * to, or a network whose refunds need a tag the gateway cannot know. The claim link still can.
 */
export class RefundDestinationRefused extends DomainError<'RefundDestinationRefused'> {
  constructor(message: string) {
    super('RefundDestinationRefused', message, [{ path: 'to', message }]);
  }
}

/** The refund's network did not answer a transaction lookup: nothing was decided, ask again. */
export class RefundNetworkUnavailable extends DomainError<'RefundNetworkUnavailable'> {
  constructor(network: string) {
    super('RefundNetworkUnavailable', `The ${network} node did not answer; try again shortly.`);
  }
}

/** Every refusal of lib/refunds, for the API edge's table (lib/api/route.ts). */
export type RefundError =
  | NotRefundable
  | RefundExceedsReceived
  | RefundStateConflict
  | ClaimLinkInvalid
  | ClaimAddressInvalid
  | RefundTransactionRefused
  | RefundDestinationRefused
  | RefundNetworkUnavailable;
