import 'server-only';
/**
 * What a receipt shows beyond the payment page's payer-safe view (lib/pay): when the order was
 * paid, the invoice's rate for it, the merchant's explorer links and brand. Any order of any
 * merchant, as the payment page: its random id is the capability (docs/decisions/076).
 */
import { transactionLink } from '../dashboard';
import { alias, events, invoices, merchants, orders, param, sql, statement, type Queryable, type RowOf } from '../db';
import { lineItemsOf } from '../invoices';
import { loadPublicView } from '../pay';
import { hasReceipt, type PublicBrand } from '../pay/view';
import { isUuid } from '../protocol';
import type { ReceiptFacts } from './document';

const o = alias(orders, 'o');
const m = alias(merchants, 'm');
const i = alias(invoices, 'i');
const e = alias(events, 'e');

// The paid moment is its event's, found by the events' unique key (`<type>:<object id>`), not a scan.
const RECEIPT_EXTRAS = statement<
  Pick<RowOf<typeof merchants>, 'explorer_urls' | 'brand_logo' | 'brand_color'> & {
    paid_at: Date | string | null;
    rate: string | null;
    items: unknown;
    price_decimals: number | null;
  },
  { id: string }
>(
  sql`select (select min(${e.createdAt}) from ${events} e
               where ${e.dedupeKey} in ('order.processed:' || ${o.id}::text, 'order.overpaid:' || ${o.id}::text)) as paid_at,
             ${i.orderRates} ->> ${o.id}::text as rate, ${i.items}, ${i.priceDecimals}, ${m.explorerUrls}, ${m.brandLogo}, ${m.brandColor}
        from ${orders} o
        join ${merchants} m on ${m.id} = ${o.merchantId}
        left join ${invoices} i on ${i.id} = ${o.invoiceId}
       where ${o.id} = ${param('id')}`,
);

export interface LoadedReceipt {
  facts: ReceiptFacts;
  brand: PublicBrand;
}

/** The receipt of a paid order, or null: an unknown or malformed id, or an order not paid (yet, or ever). */
export async function loadReceipt(db: Queryable, orderId: string): Promise<LoadedReceipt | null> {
  if (!isUuid(orderId)) return null;
  const view = await loadPublicView(db, orderId);
  if (!view || !hasReceipt(view.screen)) return null;
  const [extras] = await RECEIPT_EXTRAS.run(db, { id: orderId });
  if (!extras) return null;
  const overrides = (extras.explorer_urls ?? {}) as Record<string, string>;
  return {
    facts: {
      view,
      paidAt: extras.paid_at === null ? null : new Date(extras.paid_at),
      rate: extras.rate,
      explorer: (txid) => transactionLink(view.test ? 'test' : 'live', view.network, txid, overrides) ?? null,
      items: extras.price_decimals === null ? [] : lineItemsOf(extras.items, extras.price_decimals),
    },
    brand: { logo: extras.brand_logo, color: extras.brand_color },
  };
}
