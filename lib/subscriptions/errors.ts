/**
 * What the subscription rules refuse, one class each (lib/api answers each with its documented
 * error; the subscriber's page says it in the subscriber's words).
 */
import { DomainError } from '../errors';
import type { ErrorDetail } from '../protocol';

/** A field the request's shape allowed but the rules do not (a price's precision, an unknown language, a closed plan). */
export class SubscriptionInvalid extends DomainError<'SubscriptionInvalid'> {
  constructor(details: ErrorDetail[]) {
    super('SubscriptionInvalid', details.map((d) => `${d.path} ${d.message}`).join('; '), details);
  }
}

/** The test clock exists in test mode only: live subscriptions always run on real time (docs/decisions/068). */
export class TestClockLiveMode extends DomainError<'TestClockLiveMode'> {
  constructor() {
    super('TestClockLiveMode', 'The test clock exists in test mode only; live subscriptions run on real time.');
  }
}

export type SubscriptionError = SubscriptionInvalid | TestClockLiveMode;
