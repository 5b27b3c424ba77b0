import 'server-only';
/**
 * An event as it is recorded and carried: its id, type, time, and the object (JSON text, as the
 * object's read operation answered it when the event happened). The feed and the endpoints'
 * deliveries are `eventJson` of the same stored parts, so each is byte for byte what the other is.
 */
import type { EventType, InvoiceStatus, Mode, OrderStatus } from '../protocol';

export interface NewEvent {
  /** A fresh UUID; an order's or invoice's own webhook carries it as its id. */
  id: string;
  merchantId: string;
  mode: Mode;
  type: EventType;
  /** The order, invoice or deposit it is about. */
  objectId: string;
  /** One event per change (lib/events/record.ts): `<type>:<object id>` unless the change is another's (a late payment's deposit). */
  dedupeKey?: string;
  /** The object, serialised by its read operation's serializer. */
  data: string;
  createdAt: Date;
}

/** `{"id","type","createdAt","data"}` from the stored parts, `data` as stored (already JSON). */
export function eventJson(event: Pick<NewEvent, 'id' | 'type' | 'data' | 'createdAt'>): string {
  return `{"id":${JSON.stringify(event.id)},"type":${JSON.stringify(event.type)},"createdAt":${JSON.stringify(event.createdAt.toISOString())},"data":${event.data}}`;
}

/** The event of an order's final status (`order.processed`...); none for pending. */
export function eventTypeOfOrder(status: OrderStatus): EventType | undefined {
  return status === 'pending' ? undefined : `order.${status}`;
}

const INVOICE_EVENTS: Partial<Record<InvoiceStatus, EventType>> = {
  PROCESSED: 'invoice.paid',
  OVERPAID: 'invoice.paid',
  PARTIAL: 'invoice.partial',
  EXPIRED: 'invoice.expired',
  REJECTED: 'invoice.rejected',
};

/** The event of an invoice's final status; none for the others (ERROR is reserved and never produced). */
export function eventTypeOfInvoice(status: InvoiceStatus): EventType | undefined {
  return INVOICE_EVENTS[status];
}
