/**
 * What can go wrong when calling the gateway, one class each, so that a caller can tell "the
 * gateway said no" (fix the request) from "the gateway could not be reached" (try later) without
 * reading messages.
 */
import type { ErrorDetail } from '../protocol';

export type GatewayErrorKind = 'api' | 'timeout' | 'unreachable' | 'protocol';

export abstract class GatewayError extends Error {
  abstract readonly kind: GatewayErrorKind;
  /** The operation called, e.g. `make-order`. */
  readonly operation: string;
  /** How many requests were sent before giving up. */
  readonly attempts: number;

  constructor(operation: string, attempts: number, message: string, options?: ErrorOptions) {
    super(message, options);
    this.operation = operation;
    this.attempts = attempts;
  }
}

/** The gateway answered with its error envelope: a documented name, code and HTTP status. */
export class GatewayApiError extends GatewayError {
  readonly kind = 'api';
  override readonly name = 'GatewayApiError';

  constructor(
    operation: string,
    attempts: number,
    readonly status: number,
    /** The documented error name, e.g. `VALIDATION_ERROR`, `UNSUPPORTED_CURRENCY`. */
    readonly errorName: string,
    readonly code: number,
    message: string,
    readonly details: ErrorDetail[],
    readonly requestId: string | undefined,
  ) {
    super(operation, attempts, `${operation}: ${errorName} (${status}): ${message}`);
  }
}

/** No answer within the client's timeout (after its retries). */
export class GatewayTimeoutError extends GatewayError {
  readonly kind = 'timeout';
  override readonly name = 'GatewayTimeoutError';

  constructor(
    operation: string,
    attempts: number,
    readonly timeoutMs: number,
  ) {
    super(
      operation,
      attempts,
      `${operation}: no answer from the gateway within ${timeoutMs} ms (${attempts} attempt${attempts === 1 ? '' : 's'})`,
    );
  }
}

/** The connection could not be made (refused, DNS, reset) on every attempt. */
export class GatewayUnreachableError extends GatewayError {
  readonly kind = 'unreachable';
  override readonly name = 'GatewayUnreachableError';

  constructor(operation: string, attempts: number, cause: unknown) {
    super(
      operation,
      attempts,
      `${operation}: the gateway cannot be reached (${attempts} attempt${attempts === 1 ? '' : 's'}): ${describe(cause)}`,
      { cause },
    );
  }
}

/** An answer that is not the API's: not JSON, an unexpected status, or a shape the client does not know. */
export class GatewayProtocolError extends GatewayError {
  readonly kind = 'protocol';
  override readonly name = 'GatewayProtocolError';

  constructor(
    operation: string,
    attempts: number,
    readonly status: number,
    message: string,
  ) {
    super(operation, attempts, `${operation}: unexpected answer (HTTP ${status}): ${message}`);
  }
}

function describe(cause: unknown): string {
  if (!(cause instanceof Error)) return String(cause);
  const code = (cause.cause as { code?: string } | undefined)?.code ?? (cause as { code?: string }).code;
  return code ? `${cause.message} (${code})` : cause.message;
}
