/**
 * The shape of a domain error: a rule of a domain module said no (an order that does not exist,
 * an `order` reused with other values, a busy personal address...). Domain modules throw these
 * and know nothing of HTTP; lib/api answers each kind with its documented error, in one table
 * (lib/api/route.ts). Server-side: domain modules and the API edge use it.
 */
import { processSlotKey } from '../process';
import type { ErrorDetail } from '../protocol';

/** Marks a DomainError, whichever copy of this module made it (see `isDomainError`). */
const DOMAIN_ERROR = processSlotKey('domainError');

export abstract class DomainError<Kind extends string = string> extends Error {
  readonly [DOMAIN_ERROR] = true;

  /**
   * @param kind which rule said no, a literal per class (lib/api's table must name every kind); also
   *   the error's `name` (a class's own name may be shortened by the bundler).
   * @param message what the caller is told; empty for the documented error's own words.
   * @param details one `{path, message}` per input field at fault.
   */
  constructor(
    readonly kind: Kind,
    message = '',
    readonly details: ErrorDetail[] = [],
  ) {
    super(message);
    this.name = kind;
  }
}

/**
 * The caller's thing of that kind does not exist: another merchant's or mode's is not found either,
 * and neither is an id of the wrong shape. Every domain says "not found" this way; lib/api answers
 * it NOT_FOUND, the pages with their 404.
 */
export class NotFound extends DomainError<'NotFound'> {
  constructor(thing: string, id: string) {
    super('NotFound', `${thing} ${id} was not found.`);
  }
}

/** `value` when there is one, else NotFound of `thing` `id`. */
export function found<T>(value: T | null | undefined, thing: string, id: string): T {
  if (value === null || value === undefined) throw new NotFound(thing, id);
  return value;
}

/**
 * True for a DomainError made by any copy of this module. Use it (or `isDomainErrorOf`) rather
 * than `instanceof`: Next.js bundles server code separately per route and for the node:http front,
 * and an object shared through lib/process (the rate service) throws the classes of the bundle
 * that built it, which another bundle's `instanceof` does not recognise.
 */
export function isDomainError(error: unknown): error is DomainError {
  return typeof error === 'object' && error !== null && (error as { [DOMAIN_ERROR]?: unknown })[DOMAIN_ERROR] === true;
}

/** True for a DomainError of this `kind` (see `isDomainError`). */
export function isDomainErrorOf<Kind extends string>(error: unknown, kind: Kind): error is DomainError<Kind> {
  return isDomainError(error) && error.kind === kind;
}
