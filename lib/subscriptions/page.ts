import 'server-only';
/**
 * The subscriber's page (docs/subscriptions.md, docs/decisions/067): reached by the link of a
 * subscriber mail, whose token (256 bits, kept only as its hash) opens the page as often as needed
 * for SUBSCRIBER_LINK_DAYS days. Cancelling takes a second, single-use token made when the
 * subscriber asks to cancel, spent by the confirmation: a link that leaks (a forwarded mail) can
 * show the subscription and pay it, and a cancel needs the page's own confirmation.
 */
import { FIAT_CURRENCIES } from '../catalog';
import { bare, param, sql, statement, subscriptionTokens, type Queryable } from '../db';
import { formatSubscriptionDate } from '../mail';
import { formatDecimal } from '../money';
import { formatPrice } from '../pay/format';
import type { Language } from '../pay/i18n';
import type { SubscriptionStatus } from '../protocol';
import { isTokenShaped, newToken, tokenHash } from '../security';
import { subscriptionNow } from './clock';
import { cancelSubscription } from './lifecycle';
import { serializeSubscription } from './serialize';
import { SUBSCRIPTION_BY_ID, type SubscriptionWithPlan } from './store';

/** How long a cancel confirmation works once asked for. */
export const CANCEL_CONFIRMATION_MINUTES = 30;

const PAGE_TOKEN = statement<{ subscription_id: string }, { hash: string; now: Date }>(
  sql`select ${subscriptionTokens.subscriptionId} from ${subscriptionTokens}
   where ${subscriptionTokens.tokenHash} = ${param('hash')} and ${subscriptionTokens.purpose} = 'page'
     and ${subscriptionTokens.expiresAt} > ${param('now')}::timestamptz`,
);
const ADD_CANCEL_TOKEN = statement<unknown, { hash: string; subscriptionId: string; expiresAt: Date }>(
  sql`insert into ${subscriptionTokens} (${bare(subscriptionTokens.tokenHash)}, ${bare(subscriptionTokens.subscriptionId)}, ${bare(subscriptionTokens.purpose)}, ${bare(subscriptionTokens.expiresAt)})
   values (${param('hash')}, ${param('subscriptionId')}, 'cancel', ${param('expiresAt')}::timestamptz)`,
);
const SPEND_CANCEL_TOKEN = statement<{ subscription_id: string }, { hash: string; subscriptionId: string; now: Date }>(
  sql`update ${subscriptionTokens} set ${bare(subscriptionTokens.usedAt)} = ${param('now')}::timestamptz
   where ${subscriptionTokens.tokenHash} = ${param('hash')} and ${subscriptionTokens.purpose} = 'cancel'
     and ${subscriptionTokens.subscriptionId} = ${param('subscriptionId')} and ${subscriptionTokens.usedAt} is null
     and ${subscriptionTokens.expiresAt} > ${param('now')}::timestamptz
   returning ${subscriptionTokens.subscriptionId}`,
);

/** The subscription a page link's token opens, or undefined (unknown, expired, or not a token). */
export async function subscriptionOfPageToken(
  db: Queryable,
  token: string,
  real = new Date(),
): Promise<SubscriptionWithPlan | undefined> {
  if (!isTokenShaped(token)) return undefined;
  const [link] = await PAGE_TOKEN.run(db, { hash: tokenHash(token), now: real });
  if (!link) return undefined;
  const [row] = await SUBSCRIPTION_BY_ID.run(db, { id: link.subscription_id });
  return row;
}

/** A fresh single-use cancel confirmation for the subscription (its token; only its hash is kept). */
export async function askToCancel(db: Queryable, subscriptionId: string, real = new Date()): Promise<string> {
  const token = newToken();
  await ADD_CANCEL_TOKEN.run(db, {
    hash: tokenHash(token),
    subscriptionId,
    expiresAt: new Date(real.getTime() + CANCEL_CONFIRMATION_MINUTES * 60_000),
  });
  return token;
}

/**
 * Spends a cancel confirmation and cancels the subscription, in `tx`. Answers false (changing
 * nothing) for a confirmation unknown, spent, expired or of another subscription.
 */
export async function confirmCancel(
  tx: Queryable,
  subscriptionId: string,
  cancelToken: string,
  real = new Date(),
): Promise<boolean> {
  if (!isTokenShaped(cancelToken)) return false;
  const [spent] = await SPEND_CANCEL_TOKEN.run(tx, { hash: tokenHash(cancelToken), subscriptionId, now: real });
  if (!spent) return false;
  await cancelSubscription(tx, subscriptionId, 'subscriber', real);
  return true;
}

/** What the subscriber's page shows (components/subscription/subscriber-page.tsx). */
export interface SubscriberPageView {
  token: string;
  language: Language;
  plan: string;
  status: SubscriptionStatus;
  price: string;
  paidUntil: string | null;
  creditPeriods: number;
  openInvoiceId: string | null;
  confirm: string | null;
  canceled: boolean;
}

/** The page a token opens, in `language`, or undefined for a token that opens none. */
export async function subscriberView(
  db: Queryable,
  token: string,
  language: Language,
  state: { confirm: string | null; canceled: boolean },
  real = new Date(),
): Promise<SubscriberPageView | undefined> {
  const row = await subscriptionOfPageToken(db, token, real);
  if (!row) return undefined;
  const view = serializeSubscription(row, await subscriptionNow(db, row.merchant_id, row.mode, real));
  return {
    token,
    language,
    plan: row.plan_name,
    status: view.status,
    price: formatPrice(
      formatDecimal({ value: BigInt(row.amount), scale: row.price_decimals }),
      row.currency,
      language,
      FIAT_CURRENCIES.includes(row.currency),
    ),
    paidUntil: view.paidUntil ? formatSubscriptionDate(new Date(view.paidUntil), language) : null,
    creditPeriods: view.creditPeriods,
    openInvoiceId: view.openInvoiceId,
    confirm: state.confirm !== null && isTokenShaped(state.confirm) ? state.confirm : null,
    canceled: state.canceled,
  };
}
