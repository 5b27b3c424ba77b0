/**
 * What the order rules refuse, one class each (lib/api answers each with its documented error).
 * The messages and details are what the merchant reads.
 */
import { DomainError } from '../errors';

/** `order` already names an order with another currency, network or amount. */
export class OrderConflict extends DomainError<'OrderConflict'> {
  constructor(existing: { id: string; client_order_id: string }) {
    super(
      'OrderConflict',
      `Order "${existing.client_order_id}" already exists (orderId ${existing.id}) with another currency, network or amount.`,
      [{ path: 'order', message: `already used for orderId ${existing.id}` }],
    );
  }
}

/** The external user already has a pending order for this currency on this network. */
export class PersonalAddressBusy extends DomainError<'PersonalAddressBusy'> {
  constructor(externalUserId: string, currency: string, network: string, pendingOrderId: string) {
    super(
      'PersonalAddressBusy',
      `User "${externalUserId}" already has a pending ${currency} order on ${network}: orderId ${pendingOrderId}.`,
      [{ path: 'externalUserId', message: `has pending orderId ${pendingOrderId}` }],
    );
  }
}

/** The currency and network pair (or the network) is not enabled for the key's mode. */
export class UnsupportedCurrency extends DomainError<'UnsupportedCurrency'> {
  constructor(message: string, details: { currency?: string; network: string }) {
    super('UnsupportedCurrency', message, [
      ...(details.currency === undefined ? [] : [{ path: 'currency', message: details.currency }]),
      { path: 'network', message: details.network },
    ]);
  }
}

/** The amount does not fit the currency (too many decimals, too large). */
export class AmountInvalid extends DomainError<'AmountInvalid'> {
  constructor(problem: string) {
    super('AmountInvalid', `amount ${problem}`, [{ path: 'amount', message: problem }]);
  }
}

/** The network's address pool stayed empty for as long as a request may wait. */
export class NoAddressAvailable extends DomainError<'NoAddressAvailable'> {
  /** @param network the network whose pool is empty, when the caller asked for one. */
  constructor(network?: string) {
    super(
      'NoAddressAvailable',
      network
        ? `No ${network} address is free yet; retry shortly.`
        : 'No deposit address is available right now; retry shortly.',
    );
  }
}

/** Another request is creating the same `order` at this moment: a retry receives it. */
export class OrderCreatedConcurrently extends DomainError<'OrderCreatedConcurrently'> {
  constructor() {
    super('OrderCreatedConcurrently', 'A concurrent request created this order; retry to receive it.');
  }
}

/** The request's nonce was already used with its key (make-order records it with the order). */
export class NonceReused extends DomainError<'NonceReused'> {
  constructor() {
    super('NonceReused');
  }
}

export type OrderError =
  | OrderConflict
  | PersonalAddressBusy
  | UnsupportedCurrency
  | AmountInvalid
  | NoAddressAvailable
  | OrderCreatedConcurrently
  | NonceReused;
