/**
 * The shape of a domain error: a rule of a domain module said no (an order that does not exist,
 * an `order` reused with other values, a busy personal address...). Domain modules throw these
 * and know nothing of HTTP; lib/api answers each kind with its documented error, in one table
 * (lib/api/route.ts). Client-safe.
 */
import type { ErrorDetail } from '../protocol';

export abstract class DomainError<Kind extends string = string> extends Error {
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
