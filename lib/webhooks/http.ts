import 'server-only';
/**
 * One webhook attempt over HTTP(S): to the address the SSRF guard checked (pinned through
 * `lookup`, so the name is not resolved a second time), redirects not followed, the whole attempt
 * (resolution, connection, answer) cut at the timeout, and only the start of the answer read.
 * What comes back is outside input: the status code and a bounded, printable excerpt, nothing more.
 */
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { WebhookOutcome } from '../protocol';
import { checkTarget, type TargetPolicy } from './ssrf';

/** Bytes of the answer kept for the delivery log. */
export const EXCERPT_BYTES = 1024;

export type AttemptOutcome = WebhookOutcome;

export interface AttemptResult {
  outcome: AttemptOutcome;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  responseExcerpt: string | null;
}

// eslint-disable-next-line no-control-regex -- control characters are what is removed
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b-\u001f\u007f]/g;

/** Printable text of at most EXCERPT_BYTES: control characters (but newlines and tabs) dropped. */
export function excerptOf(bytes: Buffer): string {
  return bytes.subarray(0, EXCERPT_BYTES).toString('utf8').replace(CONTROL_CHARACTERS, '');
}

class AttemptTimeout extends Error {
  override name = 'AttemptTimeout';
}

export async function postWebhook(
  url: string,
  body: string,
  headers: Record<string, string>,
  options: { timeoutMs: number; policy: TargetPolicy },
): Promise<AttemptResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let timer: NodeJS.Timeout | undefined;
  let abort: ((error: Error) => void) | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new AttemptTimeout(`no answer within ${options.timeoutMs} ms`);
      abort?.(error);
      reject(error);
    }, options.timeoutMs);
  });
  deadline.catch(() => undefined);
  try {
    const target = await Promise.race([checkTarget(url, options.policy), deadline]);
    if (!target.ok)
      return {
        outcome: 'refused',
        statusCode: null,
        latencyMs: elapsed(),
        error: `refused: ${target.reason}`,
        responseExcerpt: null,
      };
    const pinned: LookupFunction = (_hostname, lookupOptions, callback) => {
      if (lookupOptions.all) callback(null, [{ address: target.address.address, family: target.address.family }]);
      else callback(null, target.address.address, target.address.family);
    };
    const answer = await Promise.race([
      new Promise<{ statusCode: number; excerpt: string }>((resolve, reject) => {
        const request = (target.protocol === 'https:' ? https : http).request(url, {
          method: 'POST',
          headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
          lookup: pinned,
          agent: false,
        });
        abort = (error) => request.destroy(error);
        request.on('error', reject);
        request.on('response', (response) => {
          const statusCode = response.statusCode ?? 0;
          const chunks: Buffer[] = [];
          let size = 0;
          const finish = () => {
            resolve({ statusCode, excerpt: excerptOf(Buffer.concat(chunks)) });
            response.destroy();
          };
          response.on('data', (chunk: Buffer) => {
            chunks.push(chunk);
            size += chunk.length;
            if (size >= EXCERPT_BYTES) finish();
          });
          response.on('end', finish);
          response.on('error', reject);
        });
        request.end(body);
      }),
      deadline,
    ]);
    const ok = answer.statusCode >= 200 && answer.statusCode < 300;
    return {
      outcome: ok ? 'delivered' : 'http_error',
      statusCode: answer.statusCode,
      latencyMs: elapsed(),
      error: ok
        ? null
        : answer.statusCode >= 300 && answer.statusCode < 400
          ? `HTTP ${answer.statusCode}: redirects are not followed`
          : `HTTP ${answer.statusCode}`,
      responseExcerpt: answer.excerpt,
    };
  } catch (error) {
    if (error instanceof AttemptTimeout)
      return {
        outcome: 'timeout',
        statusCode: null,
        latencyMs: elapsed(),
        error: error.message,
        responseExcerpt: null,
      };
    const code = (error as NodeJS.ErrnoException)?.code;
    const message = error instanceof Error ? error.message : String(error);
    return {
      outcome: 'network_error',
      statusCode: null,
      latencyMs: elapsed(),
      error: code ? `${code}: ${message}` : message,
      responseExcerpt: null,
    };
  } finally {
    clearTimeout(timer);
  }
}
