import 'server-only';
/**
 * The event log (SPEC "Events", docs/decisions/050): every change a merchant may care about, with
 * the object as its read operation answered it then, recorded in the transaction of the change.
 * The webhooks (lib/webhooks publishes and delivers them) and `events/list` read it; later, mail.
 */
export { eventJson, eventTypeOfOrder, eventTypeOfInvoice, type NewEvent } from './event';
export { recordEvents } from './record';
export { listEvents, EventCursorUnknown, type EventList } from './feed';
export { FEED_HORIZON } from './horizon';
export { pruneEvents } from './retention';
