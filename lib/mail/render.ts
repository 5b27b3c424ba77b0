import 'server-only';
/**
 * A claimed message made ready to send: its order's payer-safe view (lib/pay, what the payment
 * page shows; never the webhooks, the merchant's ids or another order), the merchant's brand and
 * sender, the payer's language, and the headers. Rendered on each attempt from the rows as they
 * are; its Message-ID is the row's id, the same on every attempt.
 */
import { findNetwork } from '../catalog';
import { config } from '../config';
import { transactionLink } from '../dashboard';
import { invoiceLineItems } from '../invoices';
import { merchants, orders, param, sql, statement, type Queryable, type RowOf } from '../db';
import { loadPublicView } from '../pay';
import { mailLogoOf } from '../receipts';
import { formatUnits } from '../money';
import { decimalsOf } from '../orders';
import { formatAmount } from '../pay/format';
import { isLanguage } from '../pay/i18n';
import type { ClaimedMail } from './claims';
import { composePayerMail } from './compose';
import { headerText, mailbox } from './header-text';
import { isPayerMailKind } from './kinds';
import { composeRefundClaimMail, composeRefundSentMail, refundOfClaimMail, refundOfSentMail } from './refunds';
import { isTeamMailKind, teamMailInput, type TeamMailKind } from './team';
import { composeTeamMail } from './team-texts';
import { isSubscriberMailKind, renderSubscriberMail } from './subscription';

type SenderRow = Pick<
  RowOf<typeof merchants>,
  'name' | 'mail_sender_name' | 'mail_reply_to' | 'brand_logo' | 'brand_color' | 'explorer_urls'
> &
  Pick<RowOf<typeof orders>, 'payer_language'>;

const SENDER = statement<SenderRow, { merchantId: string; orderId: string | null }>(
  sql`select ${merchants.name}, ${merchants.mailSenderName}, ${merchants.mailReplyTo}, ${merchants.brandLogo}, ${merchants.brandColor},
        ${merchants.explorerUrls}, (select ${orders.payerLanguage} from ${orders} where ${orders.id} = ${param('orderId')}::uuid) as payer_language
   from ${merchants} where ${merchants.id} = ${param('merchantId')}`,
);

/** A message ready for nodemailer, and what the outbox keeps of it. */
export interface RenderedMail {
  from: { name: string; address: string };
  to: string;
  replyTo: string | undefined;
  subject: string;
  text: string;
  html: string;
  messageId: string;
  /** The headers besides From, To, Subject, Message-ID and Date. */
  headers: Record<string, string>;
  /** The merchant's logo, a PNG or JPEG data: URL (lib/receipts mailLogoOf), attached inline. */
  logo: string | null;
}

/** Why a message cannot be sent at all (no retry helps): its state becomes `refused`. */
export class Unsendable extends Error {
  override name = 'Unsendable';
}

/** The domain of the gateway's From address: the right-hand side of every Message-ID. */
export function messageIdOf(id: string, from = config().mailFrom): string {
  return `<${id}@${from.split('@')[1]}>`;
}

export async function renderMail(db: Queryable, mail: ClaimedMail): Promise<RenderedMail> {
  const cfg = config();
  const to = mailbox(mail.recipient);
  if (!to) throw new Unsendable('the recipient is not a plain e-mail address');
  if (isTeamMailKind(mail.kind)) return renderTeamMail(db, { ...mail, kind: mail.kind }, to);
  if (mail.kind === 'refund-claim') return renderRefundClaimMail(db, mail, to);
  if (mail.kind === 'refund-sent') return renderRefundSentMail(db, mail, to);
  if (isSubscriberMailKind(mail.kind)) {
    const composed = await renderSubscriberMail(db, {
      id: mail.id,
      kind: mail.kind,
      subscription_id: mail.subscription_id,
    });
    if (!composed) throw new Unsendable('the subscription or its merchant is gone');
    const base = cfg.publicBaseUrl;
    return {
      from: { name: headerText(composed.sender.name), address: cfg.mailFrom },
      to,
      replyTo: composed.sender.replyTo ? (mailbox(composed.sender.replyTo) ?? undefined) : undefined,
      subject: composed.subject,
      text: composed.text,
      html: composed.html,
      messageId: messageIdOf(mail.id, cfg.mailFrom),
      headers: {
        'Content-Language': composed.language,
        'Auto-Submitted': 'auto-generated',
        'List-Unsubscribe': `<${base}/mail/unsubscribe/${mail.id}>`,
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      },
      logo: null,
    };
  }
  if (!isPayerMailKind(mail.kind) || !mail.order_id)
    throw new Unsendable(`no texts for ${mail.kind} yet (the refunds work adds them)`);
  const [sender] = await SENDER.run(db, { merchantId: mail.merchant_id, orderId: mail.order_id });
  const view = await loadPublicView(db, mail.order_id);
  if (!sender || !view) throw new Unsendable('the order or its merchant is gone');
  const language = isLanguage(sender.payer_language) ? sender.payer_language : 'en';
  const base = cfg.publicBaseUrl;
  const overrides = (sender.explorer_urls ?? {}) as Record<string, string>;
  const composed = composePayerMail({
    kind: mail.kind,
    language,
    view,
    merchant: { name: sender.name, color: sender.brand_color, hasLogo: !!sender.brand_logo },
    links: {
      page: `${base}/pay/${view.orderId}?lang=${encodeURIComponent(language)}`,
      receipt: `${base}/pay/${view.orderId}/receipt?lang=${encodeURIComponent(language)}`,
      unsubscribe: `${base}/mail/unsubscribe/${mail.id}`,
    },
    // The link of a transaction in the order's mode, as the receipt and the dashboard give it: none
    // in test mode (the sandbox's transactions are on no public chain) nor on a live test chain.
    explorer: (tx) => transactionLink(mail.mode, view.network, tx, overrides) ?? null,
    items: view.invoice ? await invoiceLineItems(db, view.invoice.invoiceId) : [],
  });
  const replyTo = sender.mail_reply_to ? (mailbox(sender.mail_reply_to) ?? undefined) : undefined;
  return {
    from: { name: headerText(sender.mail_sender_name ?? sender.name), address: cfg.mailFrom },
    to,
    replyTo,
    subject: composed.subject,
    text: composed.text,
    html: composed.html,
    messageId: messageIdOf(mail.id, cfg.mailFrom),
    headers: {
      'Content-Language': language,
      'Auto-Submitted': 'auto-generated',
      // RFC 8058: a mail client's one-click unsubscribe posts to the link.
      'List-Unsubscribe': `<${base}/mail/unsubscribe/${mail.id}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
    // PNG or JPEG whatever was uploaded: Outlook's desktop client shows no WebP (docs/decisions/095).
    logo: mailLogoOf(sender.brand_logo),
  };
}

/** A refund's claim mail: from the merchant, its link made again from the row's id (./refunds). */
async function renderRefundClaimMail(db: Queryable, mail: ClaimedMail, to: string): Promise<RenderedMail> {
  const cfg = config();
  const [sender] = await SENDER.run(db, { merchantId: mail.merchant_id, orderId: mail.order_id });
  if (!sender) throw new Unsendable('the merchant is gone');
  // The language of the refunded order's payment page, as the order's mails speak (an orphan deposit's refund: English).
  const language = isLanguage(sender.payer_language) ? sender.payer_language : 'en';
  const claim = await refundOfClaimMail(db, mail, language);
  if (!claim) throw new Unsendable('the claim was reopened or canceled since: its link is dead');
  const { refund } = claim;
  const composed = composeRefundClaimMail({
    language,
    merchant: sender.name,
    amount: `${formatAmount(formatUnits(BigInt(refund.amount), decimalsOf(refund.network, refund.currency)), language)} ${refund.currency}`,
    network: findNetwork(refund.network)?.displayName ?? refund.network,
    link: claim.link,
    expiresAt: refund.claim_expires_at,
  });
  const replyTo = sender.mail_reply_to ? (mailbox(sender.mail_reply_to) ?? undefined) : undefined;
  return {
    from: { name: headerText(sender.mail_sender_name ?? sender.name), address: cfg.mailFrom },
    to,
    replyTo,
    ...composed,
    messageId: messageIdOf(mail.id, cfg.mailFrom),
    headers: { 'Content-Language': language, 'Auto-Submitted': 'auto-generated' },
    logo: null,
  };
}

/** A confirmed refund's mail: from the merchant, what the payer received, where, and the transaction (docs/decisions/088). */
async function renderRefundSentMail(db: Queryable, mail: ClaimedMail, to: string): Promise<RenderedMail> {
  const cfg = config();
  const [sender] = await SENDER.run(db, { merchantId: mail.merchant_id, orderId: mail.order_id });
  if (!sender) throw new Unsendable('the merchant is gone');
  const language = isLanguage(sender.payer_language) ? sender.payer_language : 'en';
  const refund = await refundOfSentMail(db, mail);
  if (!refund) throw new Unsendable('the refund is gone or not confirmed');
  const received = refund.pays ?? formatUnits(BigInt(refund.amount), decimalsOf(refund.network, refund.currency));
  const unsubscribe = `${cfg.publicBaseUrl}/mail/unsubscribe/${mail.id}`;
  const composed = composeRefundSentMail({
    language,
    merchant: sender.name,
    amount: `${formatAmount(received, language)} ${refund.currency}`,
    network: findNetwork(refund.network)?.displayName ?? refund.network,
    address: refund.address,
    tag: refund.tag,
    txid: refund.txid,
    // None in test mode (the sandbox's transactions are on no public chain) nor on a live test chain.
    explorer:
      transactionLink(mail.mode, refund.network, refund.txid, (sender.explorer_urls ?? {}) as Record<string, string>) ??
      null,
    unsubscribe,
  });
  const replyTo = sender.mail_reply_to ? (mailbox(sender.mail_reply_to) ?? undefined) : undefined;
  return {
    from: { name: headerText(sender.mail_sender_name ?? sender.name), address: cfg.mailFrom },
    to,
    replyTo,
    ...composed,
    messageId: messageIdOf(mail.id, cfg.mailFrom),
    headers: {
      'Content-Language': language,
      'Auto-Submitted': 'auto-generated',
      'List-Unsubscribe': `<${unsubscribe}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
    logo: null,
  };
}

/** A team mail: from the gateway itself (no merchant's brand), its texts and link made again from its rows. */
async function renderTeamMail(
  db: Queryable,
  mail: ClaimedMail & { kind: TeamMailKind },
  to: string,
): Promise<RenderedMail> {
  const cfg = config();
  const input = await teamMailInput(db, mail);
  if (!input) throw new Unsendable('what the mail tells is gone');
  const composed = composeTeamMail(input);
  return {
    from: { name: 'Payment gateway dashboard', address: cfg.mailFrom },
    to,
    replyTo: undefined,
    ...composed,
    // A merchant's name goes into some subjects: one line, whatever it holds.
    subject: headerText(composed.subject),
    messageId: messageIdOf(mail.id, cfg.mailFrom),
    headers: { 'Content-Language': 'en', 'Auto-Submitted': 'auto-generated' },
    logo: null,
  };
}

/** The headers as the dashboard's Mail page shows them. */
export function headerList(rendered: RenderedMail): [string, string][] {
  const from = `"${rendered.from.name.replace(/["\\]/g, '\\$&')}" <${rendered.from.address}>`;
  return [
    ['From', from],
    ['To', rendered.to],
    ...(rendered.replyTo ? ([['Reply-To', rendered.replyTo]] as [string, string][]) : []),
    ['Subject', rendered.subject],
    ['Message-ID', rendered.messageId],
    ...Object.entries(rendered.headers),
  ];
}
