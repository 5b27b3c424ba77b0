/**
 * What the invoice rules refuse, one class each (lib/api answers each with its documented error;
 * the invoice page says it in the payer's words). The messages and details are what the merchant reads.
 */
import { DomainError } from '../errors';
import type { ErrorDetail } from '../protocol';

/** externalId (or `order`) already names an invoice with another currency or amount. */
export class InvoiceConflict extends DomainError<'InvoiceConflict'> {
  constructor(existing: { id: string }, key: 'externalId' | 'order') {
    super(
      'InvoiceConflict',
      `An invoice with this ${key} already exists (id ${existing.id}) with another currency or amount.`,
      [{ path: key, message: `already used for invoice ${existing.id}` }],
    );
  }
}

/** A coin or network of `currencies` (or the price's precision) that this mode cannot take. */
export class InvoiceCurrencyUnsupported extends DomainError<'InvoiceCurrencyUnsupported'> {
  constructor(message: string, details: ErrorDetail[]) {
    super('InvoiceCurrencyUnsupported', message, details);
  }
}

/** The price has more decimals than its currency, or is too large; or its line items do not make it. */
export class InvoiceAmountInvalid extends DomainError<'InvoiceAmountInvalid'> {
  constructor(problem: string, path = 'amount') {
    super('InvoiceAmountInvalid', `${path} ${problem}`, [{ path, message: problem }]);
  }
}

/** The payer chose a coin the invoice does not offer. */
export class CoinNotOffered extends DomainError<'CoinNotOffered'> {
  constructor(currency: string, network: string) {
    super('CoinNotOffered', `${currency} on ${network} is not offered by this invoice.`);
  }
}

/** The invoice no longer takes a choice: paid, final, expired, or a payment was already seen. */
export class InvoiceClosed extends DomainError<'InvoiceClosed'> {
  constructor(invoiceId: string) {
    super('InvoiceClosed', `Invoice ${invoiceId} no longer accepts a coin choice.`);
  }
}

/**
 * The payer chose a new coin after the invoice made its most orders (each took a deposit
 * address); a coin chosen before can be chosen again while its order runs.
 */
export class TooManyCoinChoices extends DomainError<'TooManyCoinChoices'> {
  constructor(invoiceId: string, most: number) {
    super(
      'TooManyCoinChoices',
      `Invoice ${invoiceId} made its ${most} payment orders: choose a coin chosen before while its order runs.`,
    );
  }
}

export type InvoiceError =
  | InvoiceConflict
  | InvoiceCurrencyUnsupported
  | InvoiceAmountInvalid
  | CoinNotOffered
  | InvoiceClosed
  | TooManyCoinChoices;
