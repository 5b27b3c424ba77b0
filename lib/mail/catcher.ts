import 'server-only';
/**
 * The dashboard's Mail page (app/dashboard/(app)/mail): every message of the merchant's current
 * mode, newest first, and one message as it would arrive (headers, plain text, HTML). With no
 * SMTP_URL, and for test mode, this is the built-in mail catcher: the message went nowhere else.
 * Scoped by merchant and mode in every query; the body columns are read only for one message.
 */
import { columnsOf, mailMessages, merchants, param, sql, statement, type Queryable, type RowOf } from '../db';
import type { Mode } from '../protocol';
import { mailLogoOf } from '../receipts';
import { isUuid } from '../protocol';
import { withInlineLogo } from './compose';
import { TEAM_MAIL_KINDS } from './team';

const mm = mailMessages;
// A team mail (a password reset) holds a working link to one user's account: never on the team's Mail page.
const NOT_TEAM_MAIL = sql`${mm.kind} not in (${sql.join(
  TEAM_MAIL_KINDS.map((kind) => sql.raw(`'${kind}'`)),
  sql`, `,
)})`;

const ITEM_COLUMNS = [
  'id',
  'kind',
  'order_id',
  'recipient',
  'state',
  'attempts',
  'transport',
  'subject',
  'last_error',
  'created_at',
  'sent_at',
] as const satisfies readonly (keyof RowOf<typeof mailMessages>)[];
export type MailItem = Pick<RowOf<typeof mailMessages>, (typeof ITEM_COLUMNS)[number]>;
export type MailMessage = MailItem & Pick<RowOf<typeof mailMessages>, 'headers' | 'text_body' | 'html_body'>;

/** The page shows the latest messages; older ones stay in the database (and in the export). */
export const MAIL_PAGE_SIZE = 100;

const LIST = statement<MailItem, { merchantId: string; mode: Mode; limit: number }>(
  sql`select ${columnsOf(mm, ITEM_COLUMNS)} from ${mm}
       where ${mm.merchantId} = ${param('merchantId')} and ${mm.mode} = ${param('mode')} and ${NOT_TEAM_MAIL}
       order by ${mm.createdAt} desc, ${mm.id} desc limit ${param('limit')}`,
);

const ONE = statement<MailMessage & { logo: string | null }, { merchantId: string; mode: Mode; id: string }>(
  sql`select ${columnsOf(mm, [...ITEM_COLUMNS, 'headers', 'text_body', 'html_body'])},
             (select ${merchants.brandLogo} from ${merchants} where ${merchants.id} = ${mm.merchantId}) as logo
        from ${mm}
       where ${mm.id} = ${param('id')} and ${mm.merchantId} = ${param('merchantId')} and ${mm.mode} = ${param('mode')} and ${NOT_TEAM_MAIL}`,
);

export interface MailScope {
  merchantId: string;
  mode: Mode;
}

export function listMail(db: Queryable, scope: MailScope): Promise<MailItem[]> {
  return LIST.run(db, { ...scope, limit: MAIL_PAGE_SIZE });
}

/**
 * One message of the scope as it would arrive, its logo shown as a mail client shows the inline
 * attachment (`withInlineLogo`): the merchant's logo as it is now, which the message attached
 * unless it changed since (a message is rendered when it is sent, lib/mail/render). Null for
 * another merchant's, another mode's or an unknown id.
 */
export async function getMail(db: Queryable, scope: MailScope, id: string): Promise<MailMessage | null> {
  if (!isUuid(id)) return null;
  const [row] = await ONE.run(db, { ...scope, id });
  if (!row) return null;
  const { logo, ...message } = row;
  return {
    ...message,
    html_body: message.html_body === null ? null : withInlineLogo(message.html_body, mailLogoOf(logo)),
  };
}
