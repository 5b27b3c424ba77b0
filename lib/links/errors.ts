/**
 * What the payment-link rules refuse, one class each (lib/api answers each with its documented
 * error; the link page says it in the payer's words).
 */
import { DomainError } from '../errors';
import type { ErrorDetail } from '../protocol';

/** A field of a new link that the request's shape allowed but the link's rules do not (a price's precision, an image's bytes, a past expiry). */
export class PaymentLinkInvalid extends DomainError<'PaymentLinkInvalid'> {
  constructor(details: ErrorDetail[]) {
    super('PaymentLinkInvalid', details.map((d) => `${d.path} ${d.message}`).join('; '), details);
  }
}

/** The link makes no invoice now: disabled, expired, or its uses are used up. */
export class PaymentLinkClosed extends DomainError<'PaymentLinkClosed'> {
  constructor(linkId: string, status: string) {
    super('PaymentLinkClosed', `Payment link ${linkId} makes no more invoices (${status}).`);
  }
}

/** The payer's amount or quantity is outside what the link allows. */
export class LinkChoiceInvalid extends DomainError<'LinkChoiceInvalid'> {
  constructor(readonly problem: 'amount' | 'quantity') {
    super('LinkChoiceInvalid', `The ${problem} is outside what this link allows.`);
  }
}

/**
 * The link (or this client on it, or every link of the gateway) made its most invoices for this
 * minute: a link is public, and each invoice may take addresses (docs/payment-links.md).
 */
export class LinkBusy extends DomainError<'LinkBusy'> {
  constructor(readonly retryAfterSeconds: number) {
    super('LinkBusy', `Too many invoices from payment links; retry in ${retryAfterSeconds} s.`);
  }
}

export type PaymentLinkError = PaymentLinkInvalid | PaymentLinkClosed | LinkChoiceInvalid | LinkBusy;
