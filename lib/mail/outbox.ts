import 'server-only';
/**
 * The mail outbox: messages are written in the caller's transaction, the one that changes what
 * they tell (as webhooks are, lib/webhooks/outbox), so a change is never without its mail and a
 * rolled-back change never sends one. Each event writes one row (`event_key`), whose id is the
 * message's `Message-ID` on every attempt. The commit wakes the mailers (NOTIFY is delivered on
 * commit only).
 */
import { config } from '../config';
import {
  bare,
  mailMessages,
  mailUnsubscribes,
  merchants,
  orders,
  param,
  sql,
  statement,
  unnest,
  type Queryable,
} from '../db';
import type { PayerMailKind } from './kinds';

export const MAIL_CHANNEL = 'mail_due';

const DUE = unnest('d', { order_id: mailMessages.orderId, kind: mailMessages.kind });
const d = DUE.ref;
const mm = mailMessages;
const prior = sql`${mailMessages}`;

/**
 * One statement for every order of a settling. A row is written only where the order has a
 * payer's address, the merchant has not switched the kind off, the payer has not unsubscribed,
 * the recipient got fewer than the hourly limit of messages, and, for `payment-expired`, a payment
 * reached the order or an earlier mail told the payer of one. `on conflict do nothing`: an event
 * already written (a later step of the same order) writes nothing.
 */
const ADD_ORDER_MAILS = statement<{ id: string }>(sql`with added as (
    insert into ${mm} (${sql.join([mm.id, mm.merchantId, mm.mode, mm.kind, mm.eventKey, mm.orderId, mm.recipient].map(bare), sql`, `)})
    select gen_random_uuid(), ${orders.merchantId}, ${orders.mode}, ${d.kind}, ${orders.id}::text || '/' || ${d.kind}, ${orders.id}, lower(${orders.payerEmail})
      from ${DUE.from}
      join ${orders} on ${orders.id} = ${d.order_id}
      join ${merchants} on ${merchants.id} = ${orders.merchantId}
     where ${orders.payerEmail} is not null
       and not (${d.kind} = any(${merchants.payerMailOff}))
       and not exists (select 1 from ${mailUnsubscribes} where ${mailUnsubscribes.merchantId} = ${orders.merchantId} and ${mailUnsubscribes.recipient} = lower(${orders.payerEmail}))
       and (${d.kind} <> 'payment-expired' or ${orders.received} > 0
            or exists (select 1 from ${prior} where ${mm.orderId} = ${orders.id}))
       and (select count(*) from ${prior} where ${mm.recipient} = lower(${orders.payerEmail})
             and ${mm.createdAt} > now() - interval '1 hour') < ${param('hourlyLimit')}
    on conflict (${bare(mm.eventKey)}) do nothing
    returning ${bare(mm.id)}
  )
  select id, pg_notify('${sql.raw(MAIL_CHANNEL)}', '') from added`);

/**
 * Writes the payer mails that settled orders call for, inside `tx` (lib/watcher/settle, after the
 * orders are written). Answers the ids written.
 */
export async function enqueueOrderMails(
  tx: Queryable,
  due: readonly { orderId: string; kind: PayerMailKind }[],
  hourlyLimit = config().mailRecipientHourlyLimit,
): Promise<string[]> {
  if (due.length === 0) return [];
  const rows = await ADD_ORDER_MAILS.run(tx, {
    ...DUE.values(due.map(({ orderId, kind }) => ({ order_id: orderId, kind }))),
    hourlyLimit,
  });
  return rows.map((row) => row.id);
}
