import { API_ERRORS, type ApiErrorName, type ErrorDetail } from '../protocol';

/**
 * An error the API edge answers itself (credentials, signature, body, nonce, load): a documented
 * name with its message and details. Domain modules throw their own errors (lib/errors), which
 * the wrapper turns into these (route.ts).
 */
export class ApiError extends Error {
  constructor(
    readonly errorName: ApiErrorName,
    message: string = API_ERRORS[errorName].message,
    readonly details: ErrorDetail[] = [],
    /** Seconds, for the retry-after header of 429 and 503 answers. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}
