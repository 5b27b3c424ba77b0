/**
 * Identifiers of the wire contract. Orders, invoices, deposits and users are named by random UUIDs
 * (they appear in public links, so they must be unguessable); a path or field that is not one names
 * nothing, and is answered "not found" without asking the database (which would refuse the cast).
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID.test(value);
}
