import 'server-only';
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { z } from 'zod';
import { config } from '../config';
import { getDatabase, isDatabaseBusy, type Database } from '../db';
import { isDomainError, type DomainError, type NotFound } from '../errors';
import { log } from '../log';
import { metrics } from '../metrics';
import { findApiKey, noteKeyUse, type ApiKey } from '../merchants';
import type { EventCursorUnknown } from '../events';
import type { InvoiceError } from '../invoices';
import type { TooManyEndpoints } from '../webhooks';
import type { PaymentLinkError } from '../links';
import type { MispaymentError } from '../mispayments';
import type { SubscriptionError } from '../subscriptions';
import type { OrderError } from '../orders';
import type { RateUnavailable, UnknownPriceCurrency } from '../rates';
import type { RefundError } from '../refunds';
import { refuseKeyMaterial, type PayoutError } from '../payouts';
import { processSlot } from '../process';
import {
  API_ERRORS,
  describeProblems,
  fieldProblems,
  nonceField,
  OPERATIONS,
  moneyOutAccess,
  scopeRefusal as scopeRefusalOf,
  scopesAllow,
  type ApiErrorName,
  type OperationAccess,
  type ErrorBody,
  type ErrorDetail,
  type OperationName,
  type RequestOf,
  type ResponseOf,
} from '../protocol';
import { readBody } from './body';
import { ApiError } from './errors';
import { consumeNonce } from './nonces';
import { keyRateLimitWait } from './rate-limit';
import { readInTime } from './slow-bodies';

const BODY_LIMIT_BYTES = 64 * 1024;

export interface RequestContext {
  db: Database;
  key: ApiKey;
  /** The request's nonce, normalised (digits without leading zeros). */
  nonce: string;
  requestId: string;
  rawBody: Buffer;
  /** The parsed JSON body, before validation. */
  json: Record<string, unknown>;
  /** False only with `verifySignature: false`, when the signature did not match. */
  signatureValid: boolean;
}

export interface RouteOptions {
  /**
   * Who records the nonce as used, so that a rejected request writes nothing at all. 'wrapper'
   * (default, for operations that only read) records it once the handler has answered: a read
   * refused with 404 spends nothing, and a replayed read is answered 409. 'handler' leaves it to
   * a handler that writes, which records it in the same statement or transaction as its writes.
   */
  nonce?: 'wrapper' | 'handler';
  /**
   * false: a wrong or missing signature does not stop the request; the handler learns it from
   * `signatureValid` (test-signature, whose job is to explain a mismatch). The public key must
   * still be known, and the nonce is then left to the handler.
   */
  verifySignature?: boolean;
  /** The largest body taken, in bytes (64 KiB unless the operation carries a signed transaction). */
  bodyLimitBytes?: number;
}

/**
 * What the wrapper needs of an HTTP request, whichever server received it: Next.js's route
 * handlers (`nextRoute`) or the gateway's own node:http front (lib/api/http-front.ts).
 */
export interface ApiRequest {
  /** A request header by lower-case name. */
  header(name: string): string | undefined;
  /** The client's IP address (lib/security clientAddressOf), when the server knows it: slow bodies are bounded per address. */
  clientAddress?: string;
  /** The raw body; throws BODY_TOO_LARGE past `limit` bytes received. */
  readBody(limit: number): Promise<Buffer>;
}

export interface ApiReply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** One merchant API operation behind the wrapper. */
export type ApiOperation = (request: ApiRequest) => Promise<ApiReply>;

const inFlight = processSlot('api.inFlight', () => ({ count: 0 }));

/** Runs `work` counted in flight (API_MAX_IN_FLIGHT). */
async function counted<T>(work: () => Promise<T>): Promise<T> {
  inFlight.count++;
  metrics().apiInFlight.inc();
  try {
    return await work();
  } finally {
    inFlight.count--;
    metrics().apiInFlight.dec();
  }
}

/**
 * Wraps one merchant API operation: load shedding, body limits, credentials, raw-body HMAC,
 * JSON, nonce, zod validation, the success and error envelopes, request id and logging.
 *
 * What the headers can decide comes before the body is read: its declared size, the credentials,
 * the key, the key's rate limit. A request without a known key is refused without a byte of its
 * body read. Waiting for a body is not counted in flight (a slow sender would hold a slot that
 * others need) but bounded in time and per client address (slow-bodies.ts).
 */
export function apiOperation<N extends OperationName>(
  operation: N,
  handler: (ctx: RequestContext, input: RequestOf<N>) => Promise<ResponseOf<N>>,
  options: RouteOptions = {},
): ApiOperation {
  return wrapped(
    operation,
    OPERATIONS[operation].request,
    handler as (ctx: RequestContext, input: unknown) => Promise<unknown>,
    options,
    OPERATIONS[operation].access,
  );
}

/**
 * An operation of the API we follow that this gateway refuses (lib/protocol/unsupported.ts):
 * authenticated like any other, then answered NOT_SUPPORTED with the reason. The nonce is not
 * spent, as with every refused request.
 */
export function unsupportedOperation(path: string, reason: string): ApiOperation {
  return wrapped(path, z.object({}), async () => {
    throw new ApiError('NOT_SUPPORTED', reason);
  });
}

function wrapped(
  operation: string,
  schema: z.ZodType,
  handler: (ctx: RequestContext, input: unknown) => Promise<unknown>,
  options: RouteOptions = {},
  /** What the key's scopes must grant (lib/protocol/scopes.ts); none for a refused operation, which does nothing. */
  access?: OperationAccess,
): ApiOperation {
  const verify = options.verifySignature ?? true;
  const answer: (request: ApiRequest, started: number) => Promise<ApiReply> = async (request, started) => {
    const requestId = randomUUID();
    let merchantId: string | undefined;
    const cfg = config();
    if (inFlight.count >= cfg.apiMaxInFlight) return shed(requestId);
    try {
      const bodyLimit = options.bodyLimitBytes ?? BODY_LIMIT_BYTES;
      const { db, key, signature } = await counted(() => identify(request, verify, cfg.apiRateLimit, bodyLimit));
      merchantId = key.merchantId;
      const limits = { timeoutMs: cfg.apiBodyTimeoutMs, slowPerClient: cfg.apiSlowBodiesPerClient };
      const rawBody = await readInTime(request.readBody(bodyLimit), request.clientAddress, limits);
      if (inFlight.count >= cfg.apiMaxInFlight) return shed(requestId);
      return await counted(async () => {
        const signatureValid = signatureMatches(key.secret, rawBody, signature);
        if (verify && !signatureValid) throw new ApiError('INVALID_SIGNATURE');
        if (signatureValid) noteKeyUse(key.keyId, request.clientAddress);
        // After the signature: only the key's holder learns what its scopes allow.
        if (access && !scopesAllow(key.scopes, access)) throw scopeRefusal(key, access);
        // Only a signed request spends the key's budget (test-signature answers unsigned ones too).
        const wait = signatureValid ? keyRateLimitWait(key.keyId, cfg.apiRateLimit) : 0;
        if (wait > 0) throw new ApiError('RATE_LIMITED', API_ERRORS.RATE_LIMITED.message, [], wait);
        const json = parseJson(rawBody);
        // Before any field is read: a key pasted into a money-out body is named, never echoed or logged.
        if (access && moneyOutAccess(access)) refuseKeyMaterial(json);
        const { nonce, input } = validate(schema, json, verify);
        const response = await handler({ db, key, nonce, requestId, rawBody, json, signatureValid }, input);
        if (verify && options.nonce !== 'handler' && !(await consumeNonce(db, key.keyId, nonce)))
          throw new ApiError('NONCE_REUSED');
        log.debug('api request', { requestId, operation, merchantId, status: 200, ms: elapsed(started) });
        return respond(200, { success: true, response }, requestId);
      });
    } catch (error) {
      return fail(requestId, operation, started, error, merchantId);
    }
  };
  return async (request) => {
    const started = performance.now();
    const reply = await answer(request, started);
    const { apiRequests, apiDuration } = metrics();
    apiRequests.inc({ operation, status: reply.status });
    apiDuration.observe({ operation }, (performance.now() - started) / 1000);
    return reply;
  };
}

/** The operation as a Next.js route handler (`export const POST = nextRoute(...)`). */
export function nextRoute(operation: ApiOperation): (request: Request) => Promise<Response> {
  return async (request) => {
    return webResponse(
      await operation({
        header: (name) => request.headers.get(name) ?? undefined,
        readBody: (limit) =>
          request.body
            ? readBody(Readable.fromWeb(request.body as NodeReadableStream), limit)
            : Promise.resolve(Buffer.alloc(0)),
      }),
    );
  };
}

/** An operation called with another method than POST (the front and `nextMethodNotAllowed`). */
export function methodNotAllowed(method: string | undefined): ApiReply {
  return errorReply('METHOD_NOT_ALLOWED', randomUUID(), `Operations are called with POST, not ${method}.`, [], {
    allow: 'POST',
  });
}

/** The Next.js route handler of an operation's other methods (`export { nextMethodNotAllowed as GET }`). */
export function nextMethodNotAllowed(request: Request): Response {
  return webResponse(methodNotAllowed(request.method));
}

/** A reply as a web Response (Next.js route handlers). */
export function webResponse(reply: ApiReply): Response {
  return new Response(reply.body, { status: reply.status, headers: reply.headers });
}

/** The credentials headers; blank counts as absent. */
const credentialHeaders = z.object({
  publicKey: z.string().trim().min(1),
  signature: z.string().trim().default(''),
});

/**
 * Everything the headers decide: the declared size, the credentials, the key, a spent rate
 * limit (only looked at: a request whose signature is not checked yet must not spend it), and a
 * signature that cannot be one.
 */
async function identify(
  request: ApiRequest,
  verify: boolean,
  rateLimit: number,
  bodyLimit: number,
): Promise<{ db: Database; key: ApiKey; signature: string }> {
  if (Number(request.header('content-length') ?? 0) > bodyLimit) throw new ApiError('BODY_TOO_LARGE');
  const credentials = credentialHeaders.safeParse({
    publicKey: request.header('x-api-public-key'),
    signature: request.header('x-api-signature'),
  });
  if (!credentials.success || (verify && !credentials.data.signature)) throw new ApiError('MISSING_CREDENTIALS');
  const { publicKey, signature } = credentials.data;
  const db = await getDatabase();
  const key = await findApiKey(db, publicKey);
  if (!key) throw new ApiError('UNKNOWN_PUBLIC_KEY');
  if (key.expiresAt && key.expiresAt.getTime() <= Date.now())
    throw new ApiError(
      'KEY_EXPIRED',
      `This key expired at ${key.expiresAt.toISOString()}: use its replacement or create a new key.`,
    );
  if (verify && !SIGNATURE_FORMAT.test(signature)) throw new ApiError('INVALID_SIGNATURE');
  const wait = keyRateLimitWait(key.keyId, rateLimit, { peek: true });
  if (wait > 0) throw new ApiError('RATE_LIMITED', API_ERRORS.RATE_LIMITED.message, [], wait);
  return { db, key, signature };
}

/** INSUFFICIENT_SCOPE, with the key's scopes and those that would do in its details. */
function scopeRefusal(key: ApiKey, access: OperationAccess): ApiError {
  const { message, details } = scopeRefusalOf(key.scopes, access);
  return new ApiError('INSUFFICIENT_SCOPE', message, details);
}

/** Lower-case hex HMAC-SHA256 of the raw body keyed with the private key's UTF-8 bytes. */
export function signBody(secret: Buffer | string, body: Buffer | string): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

const SIGNATURE_FORMAT = /^[0-9a-fA-F]{64}$/;

/** Verifies over the bytes received (never re-serialised JSON), in constant time. */
export function signatureMatches(secret: Buffer, rawBody: Buffer, signature: string): boolean {
  if (!SIGNATURE_FORMAT.test(signature)) return false;
  const expected = createHmac('sha256', secret).update(rawBody).digest();
  return timingSafeEqual(expected, Buffer.from(signature, 'hex'));
}

function parseJson(rawBody: Buffer): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(rawBody.toString('utf8'));
  } catch {
    throw new ApiError('INVALID_JSON');
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    throw new ApiError('INVALID_JSON', 'The request body must be a JSON object.');
  }
  return value as Record<string, unknown>;
}

/** Normalised nonce (digits without leading zeros) or the reason it is not acceptable. */
export function readNonce(json: Record<string, unknown>): { nonce: string } | { problem: string } {
  if (json.nonce === undefined || json.nonce === null) return { problem: 'is required' };
  const parsed = nonceField.safeParse(json.nonce);
  return parsed.success ? { nonce: BigInt(parsed.data).toString() } : { problem: parsed.error.issues[0]!.message };
}

function validate<S extends z.ZodType>(
  schema: S,
  json: Record<string, unknown>,
  requireNonce: boolean,
): { nonce: string; input: z.output<S> } {
  const nonceResult = readNonce(json);
  const nonce = 'nonce' in nonceResult ? nonceResult.nonce : '';
  const nonceProblem =
    requireNonce && 'problem' in nonceResult ? [{ path: 'nonce', message: nonceResult.problem }] : [];
  const result = schema.safeParse(json);
  const details = result.success ? nonceProblem : fieldProblems(result.error.issues, json, nonceProblem);
  if (details.length > 0) throw new ApiError('VALIDATION_ERROR', describeProblems(details), details);
  return { nonce, input: (result as z.ZodSafeParseSuccess<z.output<S>>).data };
}

/** The JSON envelope with the headers every API answer carries (next.config.mjs's too, for the node:http front). */
function respond(
  status: number,
  body: unknown,
  requestId: string,
  extraHeaders: Record<string, string> = {},
): ApiReply {
  const headers = {
    'content-type': 'application/json; charset=utf-8',
    'x-request-id': requestId,
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    ...extraHeaders,
  };
  return { status, headers, body: JSON.stringify(body) };
}

/**
 * The documented error each domain error is answered with: the one place where a domain module's
 * refusal meets HTTP. Every kind the domains declare must be here (the type check says so).
 */
const DOMAIN_ANSWERS: Record<
  | NotFound['kind']
  | OrderError['kind']
  | InvoiceError['kind']
  | PaymentLinkError['kind']
  | SubscriptionError['kind']
  | (RateUnavailable | UnknownPriceCurrency)['kind']
  | (EventCursorUnknown | TooManyEndpoints)['kind']
  | MispaymentError['kind']
  | RefundError['kind']
  | PayoutError['kind'],
  ApiErrorName
> = {
  NotFound: 'NOT_FOUND',
  OrderConflict: 'ORDER_CONFLICT',
  PersonalAddressBusy: 'PERSONAL_ADDRESS_BUSY',
  UnsupportedCurrency: 'UNSUPPORTED_CURRENCY',
  AmountInvalid: 'VALIDATION_ERROR',
  NonceReused: 'NONCE_REUSED',
  NoAddressAvailable: 'OVERLOADED',
  OrderCreatedConcurrently: 'OVERLOADED',
  InvoiceConflict: 'INVOICE_CONFLICT',
  InvoiceCurrencyUnsupported: 'UNSUPPORTED_CURRENCY',
  InvoiceAmountInvalid: 'VALIDATION_ERROR',
  // The invoice page's refusals: no API operation makes them, but every kind has its answer.
  CoinNotOffered: 'UNSUPPORTED_CURRENCY',
  InvoiceClosed: 'INVOICE_CONFLICT',
  TooManyCoinChoices: 'INVOICE_CONFLICT',
  RateUnavailable: 'RATE_UNAVAILABLE',
  UnknownPriceCurrency: 'UNSUPPORTED_CURRENCY',
  EventCursorUnknown: 'NOT_FOUND',
  TooManyEndpoints: 'VALIDATION_ERROR',
  PaymentLinkInvalid: 'VALIDATION_ERROR',
  // The link page's refusals (lib/links/start.ts): no API operation makes them.
  PaymentLinkClosed: 'PAYMENT_LINK_CLOSED',
  LinkChoiceInvalid: 'VALIDATION_ERROR',
  LinkBusy: 'RATE_LIMITED',
  // The payment page's and the dashboard's refusals (lib/mispayments): no API operation makes them.
  NoRemainder: 'ORDER_CONFLICT',
  NothingToDecide: 'ORDER_CONFLICT',
  PaymentBeingRefunded: 'ORDER_CONFLICT',
  NoPayerRefund: 'REFUND_REFUSED',
  NotRefundable: 'REFUND_REFUSED',
  RefundExceedsReceived: 'REFUND_EXCEEDS_RECEIVED',
  RefundStateConflict: 'REFUND_STATE_CONFLICT',
  RefundTransactionRefused: 'REFUND_TRANSACTION_REFUSED',
  RefundDestinationRefused: 'REFUND_DESTINATION_REFUSED',
  RefundNetworkUnavailable: 'NETWORK_UNAVAILABLE',
  // The payer's claim page's refusals (lib/refunds/claim.ts): no API operation makes them.
  ClaimLinkInvalid: 'NOT_FOUND',
  ClaimAddressInvalid: 'VALIDATION_ERROR',
  CollectionRefused: 'PLAN_REFUSED',
  KeyMaterialRefused: 'KEY_MATERIAL_REFUSED',
  // The treasury's, deposit key's and fee payer's forms and the command line's refusals: no API operation sets them.
  TreasuryInvalid: 'VALIDATION_ERROR',
  DepositKeyInvalid: 'VALIDATION_ERROR',
  FeePayerInvalid: 'VALIDATION_ERROR',
  SubscriptionInvalid: 'VALIDATION_ERROR',
  TestClockLiveMode: 'VALIDATION_ERROR',
};

/** A domain error as its documented answer, with the domain's own words (the table's when it has none). */
function answerOf(error: DomainError): ApiError | undefined {
  const name = (DOMAIN_ANSWERS as Partial<Record<string, ApiErrorName>>)[error.kind];
  return name && new ApiError(name, error.message || undefined, error.details);
}

function fail(requestId: string, operation: string, started: number, error: unknown, merchantId?: string): ApiReply {
  let apiError: ApiError | undefined;
  if (error instanceof ApiError) apiError = error;
  else if (isDomainError(error)) apiError = answerOf(error);
  else if (isDatabaseBusy(error)) apiError = new ApiError('OVERLOADED');
  if (!apiError) {
    log.error('api internal error', { requestId, operation, merchantId, error, stack: (error as Error)?.stack });
    apiError = new ApiError('INTERNAL_ERROR');
  }
  const name: ApiErrorName = apiError.errorName;
  const { status } = API_ERRORS[name];
  const entry = { requestId, operation, merchantId, status, error: name, ms: elapsed(started) };
  if (status >= 500 && name !== 'OVERLOADED') log.error('api request failed', entry);
  else log.warn('api request rejected', entry);
  // 429 and 503 say when to come back; a busy gateway is worth retrying after a second.
  const retryAfter = apiError.retryAfterSeconds ?? (status === 503 ? 1 : undefined);
  return errorReply(
    name,
    requestId,
    apiError.message,
    apiError.details,
    retryAfter === undefined ? {} : { 'retry-after': String(retryAfter) },
  );
}

/** The error envelope of every API answer that is not a success, with the API's headers. */
export function errorReply(
  name: ApiErrorName,
  requestId: string,
  message: string = API_ERRORS[name].message,
  details: ErrorDetail[] = [],
  extraHeaders: Record<string, string> = {},
): ApiReply {
  const body: ErrorBody = { success: false, error: { code: API_ERRORS[name].code, name, message, details }, requestId };
  return respond(API_ERRORS[name].status, body, requestId, extraHeaders);
}

const SHED_LOG_INTERVAL_MS = 10_000;

/**
 * Over the in-flight limit: answered at once and as cheaply as possible, because this is the
 * path that runs when the server has the least time to spare. Logged as one summary line per
 * interval rather than a line per request.
 */
function shed(requestId: string): ApiReply {
  const stats = processSlot('api.shed', () => ({ count: 0, since: Date.now() }));
  stats.count++;
  metrics().apiShed.inc();
  if (Date.now() - stats.since >= SHED_LOG_INTERVAL_MS) {
    log.warn('shedding load', {
      answered503: stats.count,
      seconds: Math.round((Date.now() - stats.since) / 1000),
      maxInFlight: config().apiMaxInFlight,
    });
    Object.assign(stats, { count: 0, since: Date.now() });
  }
  return errorReply('OVERLOADED', requestId, undefined, [], { 'retry-after': '1' });
}

function elapsed(started: number): number {
  return Math.round((performance.now() - started) * 100) / 100;
}
