import 'server-only';
/**
 * Mail to payers (SPEC "Mail", docs/mail.md, docs/decisions/053): the outbox written in the
 * transaction of the change it tells, the mailer that sends it at least once (SMTP, or the built-in
 * catcher of the dashboard's Mail page), the payer's texts in the page's languages, and the
 * team's mails: password resets, invitations, sign-ins from a new device (./team).
 */
export { enqueueOrderMails, MAIL_CHANNEL } from './outbox';
export {
  isPayerMailKind,
  PAYER_MAIL_KINDS,
  payerMailOf,
  type MailKind,
  type PayerMailKind,
  type RefundMailKind,
} from './kinds';
export { mailerOptions, startMailer, type Mailer, type MailerOptions } from './mailer';
export { smtpTransport, type MailTransport } from './transport';
export { messageIdOf } from './render';
export { unsubscribe, unsubscribeTarget, type UnsubscribeTarget } from './unsubscribe';
export { escapeHtml } from './compose';
export { MAIL_MESSAGES, type MailMessages } from './mail-messages';
export { getMail, listMail, MAIL_PAGE_SIZE, type MailItem, type MailMessage, type MailScope } from './catcher';
export { MAIL_SETTINGS } from './settings';
export {
  enqueueInvitationMail,
  enqueueNewDeviceMail,
  enqueueResetMail,
  PASSWORD_RESET_LIFETIME_MS,
  setUpLinkUrl,
  TEAM_MAIL_KINDS,
  teamLinkToken,
  type TeamMailKind,
} from './team';
export { enqueueRefundClaimMail, enqueueRefundSentMail, refundClaimToken, refundClaimUrl } from './refunds';
export {
  composeSubscriberMail,
  enqueueSubscriberMail,
  formatSubscriptionDate,
  SUBSCRIBER_LINK_DAYS,
  SUBSCRIBER_MAIL_KINDS,
  subscriberLinkToken,
  subscriberPageUrl,
  type SubscriberMailKind,
} from './subscription';
export { SUBSCRIPTION_MESSAGES, type SubscriptionMessages } from './subscription-messages';
export { REFUND_CLAIM_MESSAGES, type RefundClaimMessages } from './refund-claim-messages';
export { REFUND_SENT_MESSAGES, type RefundSentMessages } from './refund-sent-messages';
