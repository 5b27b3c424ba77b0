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

export type MispaymentError = NoRemainder | NothingToDecide;
