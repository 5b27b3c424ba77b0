import 'server-only';
import { z } from 'zod';
import { bare, columnsOf, merchants, param, sql, statement, type Queryable, type RowOf } from '../db';
import type { ExplorerChanges } from './brand';
import { formatPercent, parsePercent } from '../money';

export interface MerchantSettings {
  name: string;
  /** A data: URL of a PNG, JPEG, WebP or GIF image (lib/merchants/brand.ts LOGO_UPLOAD), or null. */
  brandLogo: string | null;
  /** `#rrggbb` on which white text passes WCAG AA, or null. */
  brandColor: string | null;
  /** Explorer link templates the merchant set, per network; other networks use the defaults. */
  explorerUrls: Record<string, string>;
  requireTwoFactor: boolean;
  /** The From name of its payer mail (null: its name), and their Reply-To (null: none). */
  mailSenderName: string | null;
  mailReplyTo: string | null;
  /** The payer mails it switched off (lib/mail PAYER_MAIL_KINDS). */
  payerMailOff: string[];
  /** Owners and admins get the daily summary mail. */
  dailySummary: boolean;
  /** The late-payment rule (lib/mispayments): minutes after the deadline (0: off) and the price move below which a late payment settles the order. */
  lateAcceptMinutes: number;
  /** A canonical decimal string of percent ("2.5"). */
  lateAcceptRateMovePercent: string;
}

type SettingsRow = Pick<
  RowOf<typeof merchants>,
  | 'name'
  | 'brand_logo'
  | 'brand_color'
  | 'require_two_factor'
  | 'mail_sender_name'
  | 'mail_reply_to'
  | 'payer_mail_off'
  | 'daily_summary'
  | 'late_accept_minutes'
  | 'late_accept_rate_move_percent'
> & {
  explorer_urls: Record<string, string>;
};
const SETTINGS = statement<SettingsRow, { id: string }>(
  sql`select ${columnsOf(merchants, ['name', 'brand_logo', 'brand_color', 'explorer_urls', 'require_two_factor', 'mail_sender_name', 'mail_reply_to', 'payer_mail_off', 'daily_summary', 'late_accept_minutes', 'late_accept_rate_move_percent'])} from ${merchants} where ${merchants.id} = ${param('id')}`,
);

export async function merchantSettings(db: Queryable, merchantId: string): Promise<MerchantSettings | undefined> {
  const [row] = await SETTINGS.run(db, { id: merchantId });
  return (
    row && {
      name: row.name,
      brandLogo: row.brand_logo,
      brandColor: row.brand_color,
      explorerUrls: row.explorer_urls,
      requireTwoFactor: row.require_two_factor,
      mailSenderName: row.mail_sender_name,
      mailReplyTo: row.mail_reply_to,
      payerMailOff: row.payer_mail_off,
      dailySummary: row.daily_summary,
      lateAcceptMinutes: row.late_accept_minutes,
      lateAcceptRateMovePercent: formatPercent(parsePercent(row.late_accept_rate_move_percent)!),
    }
  );
}

const SET_MAIL = statement<
  unknown,
  { id: string; senderName: string | null; replyTo: string | null; off: string[]; dailySummary: boolean }
>(
  sql`update ${merchants} set ${bare(merchants.mailSenderName)} = ${param('senderName')}, ${bare(merchants.mailReplyTo)} = ${param('replyTo')},
        ${bare(merchants.payerMailOff)} = ${param('off')}::text[], ${bare(merchants.dailySummary)} = ${param('dailySummary')}
   where ${merchants.id} = ${param('id')}`,
);

/** Sets the sender name and reply-to of the merchant's payer mail, the kinds it switched off, and the team's daily summary. */
export async function updateMailSettings(
  db: Queryable,
  merchantId: string,
  mail: { senderName: string | null; replyTo: string | null; off: readonly string[]; dailySummary: boolean },
): Promise<void> {
  await SET_MAIL.run(db, {
    id: merchantId,
    senderName: mail.senderName,
    replyTo: mail.replyTo,
    off: [...mail.off],
    dailySummary: mail.dailySummary,
  });
}

const SET_BRAND = statement<unknown, { id: string; color: string | null; setLogo: boolean; logo: string | null }>(
  sql`update ${merchants} set ${bare(merchants.brandColor)} = ${param('color')},
        ${bare(merchants.brandLogo)} = case when ${param('setLogo')}::boolean then ${param('logo')} else ${merchants.brandLogo} end
   where ${merchants.id} = ${param('id')}`,
);

/**
 * Sets the brand the payment and invoice pages show. `logo`: a data: URL from LOGO_UPLOAD, null to
 * remove it, undefined to keep it; `color`: from BRAND_COLOR, or null for the default look. Answers
 * what changed, for the audit log (never the logo itself: only whether it changed).
 */
export async function updateBrand(
  db: Queryable,
  merchantId: string,
  brand: { logo?: string | null; color: string | null },
): Promise<{ logo: 'set' | 'removed' | 'kept'; color: string | null }> {
  await SET_BRAND.run(db, {
    id: merchantId,
    color: brand.color,
    setLogo: brand.logo !== undefined,
    logo: brand.logo ?? null,
  });
  return { logo: brand.logo === undefined ? 'kept' : brand.logo === null ? 'removed' : 'set', color: brand.color };
}

const SET_EXPLORERS = statement<
  { explorer_urls: Record<string, string> },
  { id: string; set: string; reset: string[] }
>(
  sql`update ${merchants} set ${bare(merchants.explorerUrls)} = (${merchants.explorerUrls} || ${param('set')}::jsonb) - ${param('reset')}::text[]
   where ${merchants.id} = ${param('id')} returning ${bare(merchants.explorerUrls)}`,
);

/** Sets or resets (null: back to the default link) the explorer templates of the networks named. */
export async function updateExplorers(
  db: Queryable,
  merchantId: string,
  changes: ExplorerChanges,
): Promise<Record<string, string>> {
  const set = Object.fromEntries(
    Object.entries(changes).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
  const reset = Object.entries(changes)
    .filter(([, template]) => template === null)
    .map(([network]) => network);
  const [row] = await SET_EXPLORERS.run(db, { id: merchantId, set: JSON.stringify(set), reset });
  return row?.explorer_urls ?? {};
}

const SET_REQUIRE_TWO_FACTOR = statement<unknown, { id: string; required: boolean }>(
  sql`update ${merchants} set ${bare(merchants.requireTwoFactor)} = ${param('required')} where ${merchants.id} = ${param('id')}`,
);

export async function setRequireTwoFactor(db: Queryable, merchantId: string, required: boolean): Promise<void> {
  await SET_REQUIRE_TWO_FACTOR.run(db, { id: merchantId, required });
}

const SET_LATE_RULE = statement<unknown, { id: string; minutes: number; percent: string }>(
  sql`update ${merchants} set ${bare(merchants.lateAcceptMinutes)} = ${param('minutes')}::int,
        ${bare(merchants.lateAcceptRateMovePercent)} = ${param('percent')}::numeric
   where ${merchants.id} = ${param('id')}`,
);

/** The bounds of the late-payment rule's minutes: a day at most (a later payment is the merchant's call). */
export const LATE_ACCEPT_MAX_MINUTES = 1440;

/**
 * The settings form of the late-payment rule, as text fields: whole minutes 0 to
 * LATE_ACCEPT_MAX_MINUTES, and a percent below 100 with at most 6 decimals (parsed exactly, never a
 * float), answered canonical ("2.50" is "2.5").
 */
export const LATE_PAYMENT_RULE = z.object({
  minutes: z
    .string()
    .trim()
    .regex(/^\d{1,4}$/, `Minutes are a whole number from 0 to ${LATE_ACCEPT_MAX_MINUTES}.`)
    .transform(Number)
    .refine((n) => n <= LATE_ACCEPT_MAX_MINUTES, `Minutes are a whole number from 0 to ${LATE_ACCEPT_MAX_MINUTES}.`),
  rateMovePercent: z
    .string()
    .trim()
    .max(12, 'The price move is a percent below 100, such as "2.5".')
    .transform((text, ctx) => {
      const percent = parsePercent(text);
      if (!percent || percent.value >= 100n * 10n ** BigInt(percent.scale)) {
        ctx.addIssue({ code: 'custom', message: 'The price move is a percent below 100, such as "2.5".' });
        return z.NEVER;
      }
      return formatPercent(percent);
    }),
});

/**
 * Sets the late-payment rule (docs/decisions/069): `minutes` 0 to LATE_ACCEPT_MAX_MINUTES (0: off),
 * `rateMovePercent` a canonical percent from parsePercent, below 100. The caller parses and audits.
 */
export async function updateLatePaymentRule(
  db: Queryable,
  merchantId: string,
  rule: { minutes: number; rateMovePercent: string },
): Promise<void> {
  await SET_LATE_RULE.run(db, { id: merchantId, minutes: rule.minutes, percent: rule.rateMovePercent });
}
