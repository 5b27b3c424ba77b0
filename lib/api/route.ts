import 'server-only';
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import type { z } from 'zod';
import { config } from '../config';
import { getDatabase, isDatabaseBusy, type Database } from '../db';
import { log } from '../log';
import { findApiKey, type ApiKey } from '../merchants';
import { API_ERRORS, ApiError, type ApiErrorName, type ErrorBody, type ErrorDetail } from './errors';
import { nonceField } from './protocol';
import { consumeNonce } from './nonces';
import { rateLimitWait } from './rate-limit';

export const BODY_LIMIT_BYTES = 64 * 1024;

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
   * Who records the nonce as used. 'wrapper' (default) records it before the handler runs;
   * 'handler' leaves it to the handler, which records it in the same statement as its writes so
   * that a rejected request writes nothing at all.
   */
  nonce?: 'wrapper' | 'handler';
  /**
   * false: a wrong or missing signature does not stop the request; the handler learns it from
   * `signatureValid` (test-signature, whose job is to explain a mismatch). The public key must
   * still be known, and the nonce is then left to the handler.
   */
  verifySignature?: boolean;
}

/**
 * What the wrapper needs of an HTTP request, whichever server received it: Next.js's route
 * handlers (`nextRoute`) or the gateway's own node:http front (lib/api/http-front.ts).
 */
export interface ApiRequest {
  /** A request header by lower-case name. */
  header(name: string): string | undefined;
  /** The raw body; throws BODY_TOO_LARGE past `limit` bytes (declared or received). */
  readBody(limit: number): Promise<Buffer>;
}

export interface ApiReply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** One merchant API operation behind the wrapper. */
export type ApiOperation = (request: ApiRequest) => Promise<ApiReply>;

const inFlightSlot = Symbol.for('gateway.api.inFlight');
type Holder = { [inFlightSlot]?: { count: number } };
const inFlight = ((globalThis as Holder)[inFlightSlot] ??= { count: 0 });

/**
 * Wraps one merchant API operation: load shedding, body limit, credentials, raw-body HMAC,
 * JSON, nonce, zod validation, the success and error envelopes, request id and logging.
 */
export function apiOperation<S extends z.ZodType>(
  operation: string,
  schema: S,
  handler: (ctx: RequestContext, input: z.output<S>) => Promise<unknown>,
  options: RouteOptions = {},
): ApiOperation {
  return async (request) => {
    const requestId = randomUUID();
    const started = performance.now();
    let merchantId: string | undefined;
    if (inFlight.count >= config().apiMaxInFlight) return shed(requestId);
    inFlight.count++;
    try {
      const rawBody = await request.readBody(BODY_LIMIT_BYTES);
      const db = await getDatabase();
      const verify = options.verifySignature ?? true;
      const { key, signatureValid } = await authenticate(db, request, rawBody, verify);
      merchantId = key.merchantId;
      const wait = rateLimitWait(key.keyId, config().apiRateLimit);
      if (wait > 0) throw new ApiError('RATE_LIMITED', API_ERRORS.RATE_LIMITED.message, [], wait);
      const json = parseJson(rawBody);
      const { nonce, input } = validate(schema, json, verify);
      if (verify && options.nonce !== 'handler' && !(await consumeNonce(db, key.keyId, nonce))) throw new ApiError('NONCE_REUSED');
      const response = await handler({ db, key, nonce, requestId, rawBody, json, signatureValid }, input);
      log.debug('api request', { requestId, operation, merchantId, status: 200, ms: elapsed(started) });
      return respond(200, { success: true, response }, requestId);
    } catch (error) {
      return fail(requestId, operation, started, error, merchantId);
    } finally {
      inFlight.count--;
    }
  };
}

/** The operation as a Next.js route handler (`export const POST = nextRoute(...)`). */
export function nextRoute(operation: ApiOperation): (request: Request) => Promise<Response> {
  return async (request) => {
    const reply = await operation({ header: (name) => request.headers.get(name) ?? undefined, readBody: (limit) => readWebBody(request, limit) });
    return new Response(reply.body, { status: reply.status, headers: reply.headers });
  };
}

async function readWebBody(request: Request, limit: number): Promise<Buffer> {
  if (Number(request.headers.get('content-length') ?? '0') > limit) throw new ApiError('BODY_TOO_LARGE');
  if (!request.body) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw new ApiError('BODY_TOO_LARGE');
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

async function authenticate(db: Database, request: ApiRequest, rawBody: Buffer, verify: boolean): Promise<{ key: ApiKey; signatureValid: boolean }> {
  const publicKey = request.header('x-api-public-key')?.trim();
  const signature = request.header('x-api-signature')?.trim() ?? '';
  if (!publicKey || (verify && !signature)) throw new ApiError('MISSING_CREDENTIALS');
  const key = await findApiKey(db, publicKey);
  if (!key) throw new ApiError('UNKNOWN_PUBLIC_KEY');
  const signatureValid = signatureMatches(key.secret, rawBody, signature);
  if (verify && !signatureValid) throw new ApiError('INVALID_SIGNATURE');
  return { key, signatureValid };
}

/** Lower-case hex HMAC-SHA256 of the raw body keyed with the private key's UTF-8 bytes. */
export function signBody(secret: Buffer | string, body: Buffer | string): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

/** Verifies over the bytes received (never re-serialised JSON), in constant time. */
export function signatureMatches(secret: Buffer, rawBody: Buffer, signature: string): boolean {
  if (!/^[0-9a-fA-F]{64}$/.test(signature)) return false;
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

function validate<S extends z.ZodType>(schema: S, json: Record<string, unknown>, requireNonce: boolean): { nonce: string; input: z.output<S> } {
  const details: ErrorDetail[] = [];
  const nonceResult = readNonce(json);
  const nonce = 'nonce' in nonceResult ? nonceResult.nonce : '';
  if (requireNonce && 'problem' in nonceResult) details.push({ path: 'nonce', message: nonceResult.problem });
  const result = schema.safeParse(json);
  if (!result.success) {
    for (const issue of result.error.issues) {
      const path = issue.path.join('.');
      if (details.some((d) => d.path === path)) continue; // the first problem of a field says enough
      const given = issue.path.reduce<unknown>((v, p) => (v && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[p] : undefined), json);
      details.push({ path, message: given === undefined && issue.code === 'invalid_type' ? 'is required' : issue.message });
    }
  }
  if (details.length > 0) throw new ApiError('VALIDATION_ERROR', describe(details), details);
  return { nonce, input: (result as z.ZodSafeParseSuccess<z.output<S>>).data };
}

function describe(details: ErrorDetail[]): string {
  return details.map((d) => `${d.path} ${d.message}`).join('; ');
}

/** The JSON envelope with the headers every API answer carries (next.config.mjs's too, for the node:http front). */
function respond(status: number, body: unknown, requestId: string, extraHeaders: Record<string, string> = {}): ApiReply {
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

function fail(requestId: string, operation: string, started: number, error: unknown, merchantId?: string): ApiReply {
  let apiError: ApiError;
  if (error instanceof ApiError) apiError = error;
  else if (isDatabaseBusy(error)) apiError = new ApiError('OVERLOADED');
  else {
    log.error('api internal error', { requestId, operation, merchantId, error, stack: (error as Error)?.stack });
    apiError = new ApiError('INTERNAL_ERROR');
  }
  const name: ApiErrorName = apiError.errorName;
  const { code, status } = API_ERRORS[name];
  const entry = { requestId, operation, merchantId, status, error: name, ms: elapsed(started) };
  if (status >= 500 && name !== 'OVERLOADED') log.error('api request failed', entry);
  else log.warn('api request rejected', entry);
  const body: ErrorBody = { success: false, error: { code, name, message: apiError.message, details: apiError.details }, requestId };
  // 429 and 503 say when to come back; a busy gateway is worth retrying after a second.
  const retryAfter = apiError.retryAfterSeconds ?? (status === 503 ? 1 : undefined);
  return respond(status, body, requestId, retryAfter === undefined ? {} : { 'retry-after': String(retryAfter) });
}

const shedSlot = Symbol.for('gateway.api.shed');
type ShedHolder = { [shedSlot]?: { count: number; since: number } };
const SHED_LOG_INTERVAL_MS = 10_000;

/**
 * Over the in-flight limit: answered at once and as cheaply as possible, because this is the
 * path that runs when the server has the least time to spare. Logged as one summary line per
 * interval rather than a line per request.
 */
function shed(requestId: string): ApiReply {
  const stats = ((globalThis as ShedHolder)[shedSlot] ??= { count: 0, since: Date.now() });
  stats.count++;
  if (Date.now() - stats.since >= SHED_LOG_INTERVAL_MS) {
    log.warn('shedding load', { answered503: stats.count, seconds: Math.round((Date.now() - stats.since) / 1000), maxInFlight: config().apiMaxInFlight });
    Object.assign(stats, { count: 0, since: Date.now() });
  }
  const { code, status, message } = API_ERRORS.OVERLOADED;
  return respond(status, { success: false, error: { code, name: 'OVERLOADED', message, details: [] }, requestId }, requestId, { 'retry-after': '1' });
}

function elapsed(started: number): number {
  return Math.round((performance.now() - started) * 100) / 100;
}
