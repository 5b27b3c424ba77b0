import type { invoices, RowOf } from '../db';
import type { OrderRow } from '../orders';

/** An `invoices` row as raw SQL answers it (docs/decisions/017). */
export type InvoiceRow = RowOf<typeof invoices>;

/** An invoice with the order of its latest coin choice, as its answers and pages need it. */
export interface InvoiceWithOrder {
  invoice: InvoiceRow;
  order: OrderRow | null;
}
