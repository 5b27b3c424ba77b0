import 'server-only';
/**
 * A subscriber's mail (lib/subscriptions, docs/subscriptions.md): the subscription started, a
 * renewal invoice to pay, a period past due, the subscription ended. Written in the transaction of
 * the change (lib/subscriptions), one per event (`event_key`), in the subscriber's language, each
 * with the subscriber page's link.
 *
 * The row holds no token: the page link's token is derived from the row's id and APP_SECRET
 * (`subscriberLinkToken`, as team mail does, docs/decisions/065), lib/subscriptions keeps only its
 * hash with its expiry, and the renderer makes the same link on every attempt.
 */
import { config } from '../config';
import {
  bare,
  invoices,
  mailMessages,
  mailUnsubscribes,
  merchants,
  param,
  sql,
  statement,
  subscriptionInvoices,
  subscriptionPlans,
  subscriptions,
  type Queryable,
  type RowOf,
} from '../db';
import { appSecret } from '../merchants';
import { derivedToken } from '../security';
import { formatDecimal } from '../money';
import { formatPrice, interpolate, isolate } from '../pay/format';
import { directionOf, isLanguage, type Language } from '../pay/i18n';
import { MESSAGES } from '../pay/messages';
import { FIAT_CURRENCIES } from '../catalog';
import { escapeHtml, type ComposedMail } from './compose';
import { headerText } from './header-text';
import { MAIL_MESSAGES } from './mail-messages';
import { MAIL_CHANNEL } from './outbox';
import { SUBSCRIPTION_MESSAGES } from './subscription-messages';

export const SUBSCRIBER_MAIL_KINDS = [
  'subscription-started',
  'subscription-invoice',
  'subscription-past-due',
  'subscription-canceled',
] as const;
export type SubscriberMailKind = (typeof SUBSCRIBER_MAIL_KINDS)[number];

export function isSubscriberMailKind(value: string): value is SubscriberMailKind {
  return (SUBSCRIBER_MAIL_KINDS as readonly string[]).includes(value);
}

/** How long a mail's subscriber-page link works, in days: it opens the page as often as needed in them. */
export const SUBSCRIBER_LINK_DAYS = 30;

/** The subscriber-page link's token of a subscriber mail (43 base64url characters: 256 bits). */
export function subscriberLinkToken(mailId: string, secret = appSecret()): string {
  return derivedToken('subscriber-mail-link', mailId, secret);
}

/** The subscriber's page a token opens. */
export function subscriberPageUrl(token: string, language?: string): string {
  const lang = language ? `?lang=${encodeURIComponent(language)}` : '';
  return `${config().publicBaseUrl}/subscription/${token}${lang}`;
}

const mm = mailMessages;
const ADD_SUBSCRIBER_MAIL = statement<
  { id: string },
  { id: string; kind: SubscriberMailKind; eventKey: string; subscriptionId: string }
>(sql`with added as (
    insert into ${mm} (${sql.join([mm.id, mm.merchantId, mm.mode, mm.kind, mm.eventKey, mm.subscriptionId, mm.recipient].map(bare), sql`, `)})
    select ${param('id')}::uuid, ${subscriptions.merchantId}, ${subscriptions.mode}, ${param('kind')}, ${param('eventKey')}, ${subscriptions.id}, ${subscriptions.email}
      from ${subscriptions}
     where ${subscriptions.id} = ${param('subscriptionId')}
       and not exists (select 1 from ${mailUnsubscribes} where ${mailUnsubscribes.merchantId} = ${subscriptions.merchantId} and ${mailUnsubscribes.recipient} = ${subscriptions.email})
    on conflict (${bare(mm.eventKey)}) do nothing
    returning ${bare(mm.id)}
  )
  select id, pg_notify('${sql.raw(MAIL_CHANNEL)}', '') from added`);

/**
 * Writes a subscriber mail in `tx` unless the event already has one or the subscriber
 * unsubscribed from the merchant's mail. `id` is the message's id, chosen by the caller: its link's
 * token follows from it. Answers whether it was written.
 */
export async function enqueueSubscriberMail(
  tx: Queryable,
  mail: { id: string; kind: SubscriberMailKind; eventKey: string; subscriptionId: string },
): Promise<boolean> {
  return (await ADD_SUBSCRIBER_MAIL.run(tx, mail)).length > 0;
}

type SubscriberMailRow = Pick<RowOf<typeof subscriptions>, 'language' | 'anchor' | 'canceled_at'> &
  Pick<RowOf<typeof subscriptionPlans>, 'currency' | 'amount' | 'price_decimals' | 'grace_days'> & {
    plan_name: string;
    merchant_name: string;
    mail_sender_name: string | null;
    mail_reply_to: string | null;
    brand_color: string | null;
    /** The subscription's newest unpaid renewal: its invoice while it can be paid, and its period's start. */
    open_invoice_id: string | null;
    unpaid_period_start: Date | null;
  };
const si = subscriptionInvoices;
const NEWEST_UNPAID = sql`from ${si} where ${si.subscriptionId} = ${subscriptions.id} and ${si.creditedAt} is null
   and ${si.kind} = 'renewal' and ${si.cycle} = ${subscriptions.cycle}
   order by ${si.createdAt} desc limit 1`;
const SUBSCRIBER_MAIL = statement<SubscriberMailRow, { id: string }>(
  sql`select ${subscriptions.language}, ${subscriptions.anchor}, ${subscriptions.canceledAt},
        ${subscriptionPlans.currency}, ${subscriptionPlans.amount}, ${subscriptionPlans.priceDecimals}, ${subscriptionPlans.graceDays},
        ${subscriptionPlans.name} as plan_name, ${merchants.name} as merchant_name, ${merchants.mailSenderName}, ${merchants.mailReplyTo}, ${merchants.brandColor},
        (select ${invoices.id} from ${invoices} where ${invoices.status} in ('CREATED', 'INIT')
          and ${invoices.id} = (select ${si.invoiceId} ${NEWEST_UNPAID})) as open_invoice_id,
        (select ${si.periodStart} ${NEWEST_UNPAID}) as unpaid_period_start
   from ${subscriptions} join ${subscriptionPlans} on ${subscriptionPlans.id} = ${subscriptions.planId}
   join ${merchants} on ${merchants.id} = ${subscriptions.merchantId}
   where ${subscriptions.id} = ${param('id')}`,
);

/** What composing a subscriber mail needs, all of it payer-safe (no merchant ids, no webhooks). */
export interface SubscriberMailInput {
  kind: SubscriberMailKind;
  language: Language;
  merchant: { name: string; color: string | null };
  plan: string;
  /** The price of one period, formatted. */
  price: string;
  /** Dates, formatted in the subscriber's language. */
  dates: { start: string; deadline: string; canceled: string };
  links: { page: string; invoice: string | null; unsubscribe: string };
  linkDays: number;
}

/** Composes a subscriber mail (pure: unit-tested in subscription.test.ts). */
export function composeSubscriberMail(input: SubscriberMailInput): ComposedMail {
  const { kind, language, merchant, links } = input;
  const t = SUBSCRIPTION_MESSAGES[language];
  const mm = MAIL_MESSAGES[language];
  const merchantName = headerText(merchant.name);
  const values = {
    plan: isolate(input.plan),
    price: isolate(input.price),
    start: isolate(input.dates.start),
    deadline: isolate(input.dates.deadline),
    date: isolate(input.dates.canceled),
    merchant: isolate(merchantName),
    days: input.linkDays,
  };
  const texts = {
    'subscription-started': t.mail.started,
    'subscription-invoice': t.mail.invoice,
    'subscription-past-due': t.mail.pastDue,
    'subscription-canceled': t.mail.canceled,
  }[kind];
  const title = interpolate(texts.title, values);
  const body = interpolate(texts.body, values);
  // The language's own colon (French "\u00a0: ", Chinese "："), as the order mails (./compose).
  const { label } = MESSAGES[language].separators;
  const subject = `${merchantName}${label}${title}`;
  const actions: { label: string; href: string }[] = [];
  if (links.invoice && (kind === 'subscription-invoice' || kind === 'subscription-past-due'))
    actions.push({ label: t.mail.payInvoice, href: links.invoice });
  actions.push({ label: t.mail.openPage, href: links.page });
  const validity = interpolate(t.mail.linkValid, values);
  const why = interpolate(t.mail.why, values);
  const text = [
    merchantName,
    '',
    title,
    body,
    '',
    ...actions.map((a) => `${a.label}${label}${a.href}`),
    validity,
    '',
    '--',
    why,
    `${mm.unsubscribe}${label}${links.unsubscribe}`,
    '',
  ].join('\n');
  const dir = directionOf(language);
  const accent = merchant.color && /^#[0-9a-f]{6}$/i.test(merchant.color) ? merchant.color : '#1f4fd1';
  const html = `<!doctype html>
<html lang="${escapeHtml(language)}" dir="${dir}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:16px;background:#f4f4f5;color:#18181b;font-family:system-ui,sans-serif">
<table role="presentation" dir="${dir}" style="max-width:560px;width:100%;margin:0 auto;background:#fff;border-radius:8px;border-top:4px solid ${accent};padding:16px">
<tr><td>
<p style="margin:0;font-weight:bold">${escapeHtml(merchantName)}</p>
<h1 style="font-size:20px;margin:16px 0 8px">${escapeHtml(title)}</h1>
<p style="margin:0 0 16px">${escapeHtml(body)}</p>
${actions.map((a) => `<p><a href="${escapeHtml(a.href)}" style="display:inline-block;padding:10px 16px;background:${accent};color:#fff;text-decoration:none;border-radius:6px">${escapeHtml(a.label)}</a></p>`).join('\n')}
<p style="font-size:13px;color:#555">${escapeHtml(validity)}</p>
<hr style="border:0;border-top:1px solid #e4e4e7;margin:24px 0 8px">
<p style="font-size:12px;color:#555;margin:0">${escapeHtml(why)} <a href="${escapeHtml(links.unsubscribe)}" style="color:#555">${escapeHtml(mm.unsubscribe)}</a></p>
</td></tr>
</table>
</body>
</html>
`;
  return { subject, text, html };
}

/** A date as the subscriber reads it (UTC: the periods are counted in UTC). */
export function formatSubscriptionDate(date: Date, language: string): string {
  return new Intl.DateTimeFormat(language, { dateStyle: 'long', timeZone: 'UTC', numberingSystem: 'latn' }).format(
    date,
  );
}

/** What the renderer needs to send a subscriber mail: composed, with its sender. */
export async function renderSubscriberMail(
  db: Queryable,
  mail: { id: string; kind: SubscriberMailKind; subscription_id: string | null },
): Promise<(ComposedMail & { language: Language; sender: { name: string; replyTo: string | null } }) | null> {
  if (!mail.subscription_id) return null;
  const [row] = await SUBSCRIBER_MAIL.run(db, { id: mail.subscription_id });
  if (!row) return null;
  const language: Language = isLanguage(row.language) ? row.language : 'en';
  const base = config().publicBaseUrl;
  const price = formatPrice(
    formatDecimal({ value: BigInt(row.amount), scale: row.price_decimals }),
    row.currency,
    language,
    FIAT_CURRENCIES.includes(row.currency),
  );
  const unpaidStart = row.unpaid_period_start ?? row.anchor;
  const deadline = new Date(unpaidStart.getTime() + row.grace_days * 86_400_000);
  const composed = composeSubscriberMail({
    kind: mail.kind,
    language,
    merchant: { name: row.merchant_name, color: row.brand_color },
    plan: row.plan_name,
    price,
    dates: {
      start: formatSubscriptionDate(unpaidStart, language),
      deadline: formatSubscriptionDate(deadline, language),
      canceled: formatSubscriptionDate(row.canceled_at ?? new Date(), language),
    },
    links: {
      page: subscriberPageUrl(subscriberLinkToken(mail.id), language),
      invoice: row.open_invoice_id
        ? `${base}/invoice/${row.open_invoice_id}?lang=${encodeURIComponent(language)}`
        : null,
      unsubscribe: `${base}/mail/unsubscribe/${mail.id}`,
    },
    linkDays: SUBSCRIBER_LINK_DAYS,
  });
  return {
    ...composed,
    language,
    sender: { name: row.mail_sender_name ?? row.merchant_name, replyTo: row.mail_reply_to },
  };
}
