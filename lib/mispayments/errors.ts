import { DomainError } from '../errors';

/** The order offers no "pay the rest": it is not underpaid or paid late, already settled, or what is left is below the minimum. */
export class NoRemainder extends DomainError<'NoRemainder'> {
  constructor(orderId: string) {
    super('NoRemainder', `Order ${orderId} has nothing left to pay through a remainder order.`);
  }
}

/** The late payment is no longer waiting for a decision: the order was settled already, or has no late payment. */
export class NothingToDecide extends DomainError<'NothingToDecide'> {
  constructor(orderId: string) {
    super('NothingToDecide', `Order ${orderId} has no late or short payment waiting for a decision.`);
  }
}

/**
 * What arrived for the order is being (or was) refunded, by its payer's own ask or the team's refund:
 * the merchant can no longer accept it, leave it or refund it again. Canceling the refund (while no
 * address was confirmed or it is not sent) makes the order wait for a decision again.
 */
export class PaymentBeingRefunded extends DomainError<'PaymentBeingRefunded'> {
  constructor(orderId: string, by: 'payer' | 'team') {
    super(
      'PaymentBeingRefunded',
      `Order ${orderId}: what arrived is being refunded (${by === 'payer' ? 'its payer asked for it back' : 'your team refunded it'}); cancel that refund to decide otherwise.`,
    );
  }
}

/** The order offers the payer no refund of this kind: not underpaid (or overpaid), below the minimum, or no address to mail the link to. */
export class NoPayerRefund extends DomainError<'NoPayerRefund'> {
  constructor(orderId: string, why: string) {
    super('NoPayerRefund', `Order ${orderId} offers no refund to its payer: ${why}.`);
  }
}

export type MispaymentError = NoRemainder | NothingToDecide | PaymentBeingRefunded | NoPayerRefund;
