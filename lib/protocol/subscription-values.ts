/**
 * The values of subscriptions (subscriptions/*, operations of our own; docs/subscriptions.md):
 * the wire's and the database's, one list each.
 */

/** A plan's period unit: a period is `intervalCount` of them (months and years are calendar ones, UTC). */
export const SUBSCRIPTION_INTERVAL_VALUES = ['day', 'week', 'month', 'year'] as const;
export type SubscriptionInterval = (typeof SUBSCRIPTION_INTERVAL_VALUES)[number];

/**
 * trialing: in the free trial; active: the current period is paid (or the first invoice is still
 * within its grace); past_due: the current period started unpaid; canceled: no more renewals.
 */
export const SUBSCRIPTION_STATUS_VALUES = ['trialing', 'active', 'past_due', 'canceled'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUS_VALUES)[number];

/** Why a subscription was canceled: unpaid after the grace period, or by the subscriber or the merchant. */
export const SUBSCRIPTION_CANCEL_REASON_VALUES = ['unpaid', 'subscriber', 'merchant'] as const;
export type SubscriptionCancelReason = (typeof SUBSCRIPTION_CANCEL_REASON_VALUES)[number];

/** A period's renewal, periods paid ahead, or a reactivation's payment. */
export const SUBSCRIPTION_INVOICE_KIND_VALUES = ['renewal', 'prepay', 'reactivation'] as const;
export type SubscriptionInvoiceKind = (typeof SUBSCRIPTION_INVOICE_KIND_VALUES)[number];
