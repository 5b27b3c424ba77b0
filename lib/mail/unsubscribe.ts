import 'server-only';
/**
 * The unsubscribe link of every payer mail (`/mail/unsubscribe/{message id}`; the message's id is
 * random, 122 bits, and only its recipient has it): the payer gets no more mail from that
 * merchant, and what is still waiting to be sent to them is dropped.
 */
import {
  bare,
  mailMessages,
  mailUnsubscribes,
  merchants,
  orders,
  param,
  sql,
  statement,
  subscriptions,
  type Queryable,
} from '../db';
import { isLanguage, type Language } from '../pay/i18n';
import { isUuid } from '../protocol';

const mm = mailMessages;

/** The language of the order's payment page, or the subscriber's (a subscriber mail has no order). */
const TARGET = statement<{ merchant_name: string; payer_language: string | null }, { id: string }>(
  sql`select ${merchants.name} as merchant_name, coalesce(${orders.payerLanguage}, ${subscriptions.language}) as payer_language
        from ${mm} join ${merchants} on ${merchants.id} = ${mm.merchantId} left join ${orders} on ${orders.id} = ${mm.orderId}
        left join ${subscriptions} on ${subscriptions.id} = ${mm.subscriptionId}
       where ${mm.id} = ${param('id')}`,
);

const UNSUBSCRIBE = statement<{ merchant_id: string }, { id: string }>(sql`with target as (
    select ${mm.merchantId} as merchant_id, ${mm.recipient} as recipient from ${mm} where ${mm.id} = ${param('id')}
  ), added as (
    insert into ${mailUnsubscribes} (${bare(mailUnsubscribes.merchantId)}, ${bare(mailUnsubscribes.recipient)})
    select merchant_id, recipient from target
    on conflict do nothing
  ), dropped as (
    update ${mm} set ${bare(mm.state)} = 'refused', ${bare(mm.lastError)} = 'unsubscribed', ${bare(mm.updatedAt)} = now()
      from target where ${mm.merchantId} = target.merchant_id and ${mm.recipient} = target.recipient and ${mm.state} = 'pending'
  )
  select merchant_id from target`);

export interface UnsubscribeTarget {
  merchantName: string;
  language: Language;
}

/** Whose mail a link stops, and in which language to ask; null for an unknown link. */
export async function unsubscribeTarget(db: Queryable, messageId: string): Promise<UnsubscribeTarget | null> {
  if (!isUuid(messageId)) return null;
  const [row] = await TARGET.run(db, { id: messageId });
  if (!row) return null;
  return { merchantName: row.merchant_name, language: isLanguage(row.payer_language) ? row.payer_language : 'en' };
}

/** Stops the merchant's mail to the link's recipient; false for an unknown link. Repeating it changes nothing. */
export async function unsubscribe(db: Queryable, messageId: string): Promise<boolean> {
  if (!isUuid(messageId)) return false;
  return (await UNSUBSCRIBE.run(db, { id: messageId })).length > 0;
}
