import 'server-only';
/**
 * The language of the payment page the payer saw, kept on the order so that its mail speaks it
 * (lib/mail). Written when the page is rendered, only for an order with a payer's address and
 * only when it changed: a page view costs no write otherwise.
 */
import { bare, orders, param, sql, statement, type Queryable } from '../db';
import { isUuid } from '../protocol';
import type { Language } from './i18n';

const REMEMBER = statement<never, { id: string; language: string }>(
  sql`update ${orders} set ${bare(orders.payerLanguage)} = ${param('language')}::text
       where ${orders.id} = ${param('id')} and ${orders.payerEmail} is not null
         and ${orders.payerLanguage} is distinct from ${param('language')}::text`,
);

export async function rememberPayerLanguage(db: Queryable, orderId: string, language: Language): Promise<void> {
  if (isUuid(orderId)) await REMEMBER.run(db, { id: orderId, language });
}
