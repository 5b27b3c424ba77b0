import 'server-only';
/**
 * Subscriptions the watch-only way (docs/subscriptions.md, docs/decisions/067 and 068): a gateway
 * that cannot pull money sends a fresh invoice each period, with reminders, and counts periods
 * paid ahead as credit. Plans and subscribers (./store), the rules as pure functions (./rules),
 * the changes with their events and mails (./lifecycle), the renewal pass the worker runs, the
 * subscriber's page (./page) and the test clock (./clock).
 */
export * from './errors';
export {
  creditPeriods,
  periodAt,
  periodStart,
  priceOfPeriods,
  renewalDue,
  statusAt,
  type SubscriptionFacts,
} from './rules';
export {
  createPlan,
  getPlan,
  getSubscription,
  listPlans,
  listSubscriptions,
  updatePlan,
  type SubscriptionPlanRow,
  type SubscriptionScope,
  type SubscriptionWithPlan,
} from './store';
export {
  cancelSubscription,
  createSubscription,
  renewSubscription,
  runRenewals,
  startSubscriberInvoice,
} from './lifecycle';
export { serializePlan, serializeSubscription } from './serialize';
export { InvoiceQuotes, withInvoiceQuotes } from './quotes';
export { clockOffset, moveTestClock, subscriptionNow } from './clock';
export {
  askToCancel,
  CANCEL_CONFIRMATION_MINUTES,
  confirmCancel,
  subscriberView,
  subscriptionOfPageToken,
  type SubscriberPageView,
} from './page';
