import 'server-only';
/**
 * The refund mails to the payer's `payerEmail` (docs/refunds.md). The refund-claim mail
 * (docs/decisions/071): a refund's claim link. As team mails do (./team, docs/decisions/065), the row holds no token: the
 * link's token is derived from the row's id and APP_SECRET (`refundClaimToken`), lib/refunds keeps
 * only its hash, and the renderer makes the same link on every attempt. A claim reopened since
 * (a new token) makes the old message unsendable: its link would be dead.
 */
import { randomUUID } from 'node:crypto';
import { config } from '../config';
import {
  bare,
  collectionPlans,
  mailMessages,
  mailUnsubscribes,
  merchants,
  param,
  refunds,
  sql,
  statement,
  type Queryable,
  type RowOf,
} from '../db';
import { appSecret } from '../merchants';
import { interpolate, isolate } from '../pay/format';
import { directionOf, type Language } from '../pay/i18n';
import { isUuid } from '../protocol';
import { derivedToken, tokenHash } from '../security';
import { escapeHtml, type ComposedMail } from './compose';
import { MAIL_MESSAGES } from './mail-messages';
import { MESSAGES } from '../pay/messages';
import { headerText } from './header-text';
import { MAIL_CHANNEL } from './outbox';
import { REFUND_CLAIM_MESSAGES } from './refund-claim-messages';
import { REFUND_SENT_MESSAGES } from './refund-sent-messages';
import { formatSubscriptionDate } from './subscription';

/** A claim link's token (43 base64url characters, 256 bits) from its claim id: the refund-claim mail's id when mailed. */
export function refundClaimToken(claimId: string, secret = appSecret()): string {
  return derivedToken('refund-claim-link', claimId, secret);
}

/** The payer's page of a claim token, in `language` when given (the mail's link: the page speaks the mail's language). */
export function refundClaimUrl(token: string, language?: Language): string {
  const lang = language ? `?lang=${encodeURIComponent(language)}` : '';
  return `${config().publicBaseUrl}/refund/${token}${lang}`;
}

const mm = mailMessages;
/**
 * A refund's mail to its payer (the claim link, or the refund sent): a row where the payer has not
 * unsubscribed from the merchant's mail and got fewer than the hourly limit of messages (as the
 * order mails, ./outbox); `event_key` keeps it to one.
 */
const ADD_REFUND_MAIL = statement<
  { id: string },
  {
    id: string;
    merchantId: string;
    mode: string;
    kind: string;
    eventKey: string;
    orderId: string;
    recipient: string;
    detail: string | null;
    hourlyLimit: number;
  }
>(sql`with added as (
    insert into ${mm} (${sql.join([mm.id, mm.merchantId, mm.mode, mm.kind, mm.eventKey, mm.orderId, mm.recipient, mm.detail].map(bare), sql`, `)})
    select ${param('id')}::uuid, ${param('merchantId')}::uuid, ${param('mode')}, ${param('kind')}, ${param('eventKey')},
           ${param('orderId')}::uuid, lower(${param('recipient')}), ${param('detail')}::jsonb
     where not exists (select 1 from ${mailUnsubscribes} where ${mailUnsubscribes.merchantId} = ${param('merchantId')}::uuid and ${mailUnsubscribes.recipient} = lower(${param('recipient')}))
       and (select count(*) from ${mm} where ${mm.recipient} = lower(${param('recipient')})
             and ${mm.createdAt} > now() - interval '1 hour') < ${param('hourlyLimit')}
    on conflict (${bare(mm.eventKey)}) do nothing
    returning ${bare(mm.id)}
  )
  select id, pg_notify('${sql.raw(MAIL_CHANNEL)}', '') from added`);

/**
 * Writes a refund's claim mail in `tx` (the refund's transaction): `id` is the claim id its link's
 * token follows from. Answers whether it was written (not for a payer who unsubscribed, or one
 * mailed too often this hour: the merchant shares the link then).
 */
export async function enqueueRefundClaimMail(
  tx: Queryable,
  mail: { id: string; merchantId: string; mode: string; orderId: string; recipient: string },
  hourlyLimit = config().mailRecipientHourlyLimit,
): Promise<boolean> {
  const row = { ...mail, kind: 'refund-claim', eventKey: `refund-claim/${mail.id}`, detail: null, hourlyLimit };
  return (await ADD_REFUND_MAIL.run(tx, row)).length > 0;
}

type ClaimedRefund = Pick<RowOf<typeof refunds>, 'amount' | 'currency' | 'network' | 'claim_expires_at' | 'state'> &
  Pick<RowOf<typeof merchants>, 'name'>;
const REFUND_OF_TOKEN = statement<ClaimedRefund, { hash: string; merchantId: string }>(
  sql`select ${refunds.amount}, ${refunds.currency}, ${refunds.network}, ${refunds.claimExpiresAt}, ${refunds.state}, ${merchants.name}
   from ${refunds} join ${merchants} on ${merchants.id} = ${refunds.merchantId}
   where ${refunds.claimTokenHash} = ${param('hash')} and ${refunds.merchantId} = ${param('merchantId')}`,
);

/** The refund a claim mail's link opens, while it still does (null once the claim was reopened or canceled). */
export async function refundOfClaimMail(
  db: Queryable,
  mail: { id: string; merchant_id: string },
  language: Language,
): Promise<{ refund: ClaimedRefund; link: string } | null> {
  const token = refundClaimToken(mail.id);
  const [refund] = await REFUND_OF_TOKEN.run(db, { hash: tokenHash(token), merchantId: mail.merchant_id });
  if (!refund || refund.state === 'canceled') return null;
  return { refund, link: refundClaimUrl(token, language) };
}

/** The claim mail in the payer's language (the one their payment page spoke, else English). Pure. */
export function composeRefundClaimMail(input: {
  language: Language;
  merchant: string;
  /** The amount with its coin, "0.5 LTC", as the language writes it. */
  amount: string;
  network: string;
  link: string;
  expiresAt: Date;
}): ComposedMail {
  const { language } = input;
  const t = REFUND_CLAIM_MESSAGES[language];
  // Each name and number isolated from the sentence (a merchant "Shop 42!" in Arabic keeps its "!").
  const values = {
    merchant: isolate(headerText(input.merchant)),
    amount: isolate(input.amount),
    network: isolate(input.network),
    date: isolate(formatSubscriptionDate(input.expiresAt, language)),
  };
  const subject = interpolate(t.mail.subject, values);
  const lines = [interpolate(t.mail.intro, values), interpolate(t.mail.ask, values)];
  const after = [t.exchangeNote, t.mail.ignore];
  const text = [...lines, '', input.link, '', ...after, ''].join('\n');
  const dir = directionOf(language);
  const html = `<!doctype html>
<html lang="${escapeHtml(language)}" dir="${dir}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:16px;background:#f4f4f5;color:#18181b;font-family:system-ui,sans-serif">
<table role="presentation" dir="${dir}" style="max-width:560px;width:100%;margin:0 auto;background:#fff;border-radius:8px;padding:16px">
<tr><td>
<h1 style="font-size:20px;margin:0 0 8px">${escapeHtml(subject)}</h1>
${lines.map((line) => `<p style="margin:0 0 12px">${escapeHtml(line)}</p>`).join('\n')}
<p><a href="${escapeHtml(input.link)}" style="display:inline-block;padding:10px 16px;background:#1f4fd1;color:#fff;text-decoration:none;border-radius:6px">${escapeHtml(t.mail.button)}</a></p>
${after.map((line) => `<p style="margin:0 0 12px;font-size:14px;color:#555">${escapeHtml(line)}</p>`).join('\n')}
</td></tr>
</table>
</body>
</html>
`;
  return { subject, text, html };
}

/**
 * The refund-sent mail (docs/decisions/088): written in the transaction that confirms the refund
 * (lib/refunds `applyRefundAction`), one per refund (`event_key` `refund-sent/<refund id>`), under
 * the claim mail's conditions (no unsubscribe, the hourly limit). The row keeps the refund's id in
 * `detail`: the renderer reads the refund as it is when it sends.
 */
/** Writes a confirmed refund's mail to the payer in `tx`; answers whether it was written. */
export async function enqueueRefundSentMail(
  tx: Queryable,
  mail: { refundId: string; merchantId: string; mode: string; orderId: string; recipient: string },
  hourlyLimit = config().mailRecipientHourlyLimit,
): Promise<boolean> {
  const { refundId, ...rest } = mail;
  const row = {
    ...rest,
    id: randomUUID(),
    kind: 'refund-sent',
    eventKey: `refund-sent/${refundId}`,
    detail: JSON.stringify({ refundId }),
    hourlyLimit,
  };
  return (await ADD_REFUND_MAIL.run(tx, row)).length > 0;
}

type SentRefund = Pick<
  RowOf<typeof refunds>,
  'amount' | 'currency' | 'network' | 'address' | 'tag' | 'txid' | 'state'
> & {
  /** What the plan's output paid the payer (the refund less the fee when the fee was taken from it), a decimal; null without a plan. */
  pays: string | null;
};
const SENT_REFUND = statement<SentRefund, { id: string; merchantId: string }>(
  sql`select ${refunds.amount}, ${refunds.currency}, ${refunds.network}, ${refunds.address}, ${refunds.tag}, ${refunds.txid}, ${refunds.state},
        (select ${collectionPlans.refund} ->> 'pays' from ${collectionPlans}
          where ${collectionPlans.refundId} = ${refunds.id} and ${collectionPlans.txid} = ${refunds.txid}
          order by ${collectionPlans.createdAt} desc limit 1) as pays
   from ${refunds} where ${refunds.id} = ${param('id')}::uuid and ${refunds.merchantId} = ${param('merchantId')}`,
);

/** The confirmed refund a refund-sent mail tells of (null when it is gone, or is not confirmed: nothing to tell). */
export async function refundOfSentMail(
  db: Queryable,
  mail: { merchant_id: string; detail: Record<string, string> | null },
): Promise<(SentRefund & { txid: string; address: string }) | null> {
  const id = mail.detail?.refundId;
  if (!id || !isUuid(id)) return null;
  const [refund] = await SENT_REFUND.run(db, { id, merchantId: mail.merchant_id });
  if (!refund || refund.state !== 'confirmed' || !refund.txid || !refund.address) return null;
  return { ...refund, txid: refund.txid, address: refund.address };
}

/** The refund-sent mail in the payer's language. Pure. */
export function composeRefundSentMail(input: {
  language: Language;
  merchant: string;
  /** What the payer received, with its coin, as the language writes it. */
  amount: string;
  network: string;
  address: string;
  tag: string | null;
  txid: string;
  /** The transaction on the network's explorer, where the catalog (or the merchant) has one. */
  explorer: string | null;
  unsubscribe: string;
}): ComposedMail {
  const { language } = input;
  const t = REFUND_SENT_MESSAGES[language];
  const m = MESSAGES[language];
  const mm = MAIL_MESSAGES[language];
  const merchant = headerText(input.merchant);
  const values = { merchant: isolate(merchant), amount: isolate(input.amount), network: isolate(input.network) };
  const subject = interpolate(t.subject, values);
  const intro = interpolate(t.intro, values);
  const details: [string, string][] = [[m.address, input.address]];
  if (input.tag !== null) details.push([m.tag, input.tag]);
  details.push([m.transaction, input.txid]);
  const why = interpolate(mm.why, { merchant: isolate(merchant) });
  const text = [
    intro,
    t.confirmed,
    '',
    ...details.map(([label, value]) => `${label}${m.separators.label}${isolate(value)}`),
    ...(input.explorer ? [`${t.explorer}${m.separators.label}${input.explorer}`] : []),
    '',
    '--',
    why,
    `${mm.unsubscribe}${m.separators.label}${input.unsubscribe}`,
    '',
  ].join('\n');
  const dir = directionOf(language);
  const cell = 'padding:4px 8px;vertical-align:top;';
  const rows = details.map(
    ([label, value]) =>
      `<tr><th scope="row" style="${cell}text-align:start;font-weight:normal;color:#555">${escapeHtml(label)}</th><td style="${cell}font-family:monospace;word-break:break-all"><bdi>${escapeHtml(value)}</bdi></td></tr>`,
  );
  const html = `<!doctype html>
<html lang="${escapeHtml(language)}" dir="${dir}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:16px;background:#f4f4f5;color:#18181b;font-family:system-ui,sans-serif">
<table role="presentation" dir="${dir}" style="max-width:560px;width:100%;margin:0 auto;background:#fff;border-radius:8px;padding:16px">
<tr><td>
<h1 style="font-size:20px;margin:0 0 8px">${escapeHtml(subject)}</h1>
<p style="margin:0 0 12px">${escapeHtml(intro)}</p>
<p style="margin:0 0 12px">${escapeHtml(t.confirmed)}</p>
<table role="presentation" style="border-collapse:collapse;margin-bottom:16px">
${rows.join('\n')}
</table>
${input.explorer ? `<p><a href="${escapeHtml(input.explorer)}" style="display:inline-block;padding:10px 16px;background:#1f4fd1;color:#fff;text-decoration:none;border-radius:6px">${escapeHtml(t.explorer)}</a></p>` : ''}
<hr style="border:0;border-top:1px solid #e4e4e7;margin:24px 0 8px">
<p style="font-size:12px;color:#555;margin:0">${escapeHtml(why)} <a href="${escapeHtml(input.unsubscribe)}" style="color:#555">${escapeHtml(mm.unsubscribe)}</a></p>
</td></tr>
</table>
</body>
</html>
`;
  return { subject, text, html };
}
