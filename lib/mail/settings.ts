/**
 * The merchant's mail settings as the dashboard's form posts them: a sender name (one line, shown
 * as the From name of its payer mail), a reply-to address, which payer mails are on, and whether
 * the team gets a daily summary. One
 * schema for the form and its tests (settings.test.ts); what it refuses changes nothing.
 */
import { z } from 'zod';
import { PAYER_MAIL_KINDS, type PayerMailKind } from './kinds';

const ONE_LINE = /^[^\p{Cc}\p{Zl}\p{Zp}]*$/u;

export const MAIL_SETTINGS = z
  .object({
    senderName: z
      .string()
      .trim()
      .max(100, 'The sender name must be at most 100 characters.')
      .regex(ONE_LINE, 'The sender name must be one line, without control characters.'),
    replyTo: z.union([
      z.literal(''),
      z.email('The reply-to must be an e-mail address such as help@shop.example.').max(254),
    ]),
    on: z.array(z.enum(PAYER_MAIL_KINDS, 'Unknown kind of mail.')),
    dailySummary: z.literal('on', 'The daily summary is a checkbox.').optional(),
  })
  .transform(({ senderName, replyTo, on, dailySummary }) => ({
    senderName: senderName === '' ? null : senderName,
    replyTo: replyTo === '' ? null : replyTo.toLowerCase(),
    off: PAYER_MAIL_KINDS.filter((kind) => !on.includes(kind)) as PayerMailKind[],
    dailySummary: dailySummary === 'on',
  }));
