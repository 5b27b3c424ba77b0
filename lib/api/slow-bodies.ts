import 'server-only';
import { processSlot } from '../process';
import { clientKey } from '../security';
import { ApiError } from './errors';

/**
 * A request body is read before its signature can be checked, so anyone who knows a public key
 * (it is not a secret) can open requests and send their bodies a byte at a time. Such reads are
 * not counted in flight (route.ts): 260 of them once filled API_MAX_IN_FLIGHT and locked every
 * merchant out for the five minutes of Node's request timeout. They are bounded here instead:
 * each body must arrive within API_BODY_TIMEOUT_SECONDS, and a client address with
 * API_SLOW_BODIES_PER_CLIENT bodies that have been arriving for over a second gets its next
 * requests refused at once. A body sent with its headers, as every client library sends it,
 * never counts as slow.
 */
const SLOW_AFTER_MS = 1000;

/** Slow bodies in progress per client, and bodies being read; shared by every bundle that loads this module. */
const bodies = processSlot('api.slowBodies', () => ({ byClient: new Map<string, number>(), reading: 0 }));
const slowByClient = bodies.byClient;

export interface BodyLimits {
  timeoutMs: number;
  slowPerClient: number;
}

/**
 * `read` (a request's body), refused when its client already has too many slow bodies in
 * progress, and given up with BODY_TIMEOUT after `limits.timeoutMs`.
 */
export function readInTime(
  read: Promise<Buffer>,
  clientAddress: string | undefined,
  limits: BodyLimits,
): Promise<Buffer> {
  // Settled or not, nobody else waits for `read` once this gives up on it.
  read.catch(() => {});
  const client = clientKey(clientAddress);
  if ((slowByClient.get(client) ?? 0) >= limits.slowPerClient)
    return Promise.reject(new ApiError('TOO_MANY_SLOW_BODIES'));
  bodies.reading++;
  return new Promise((resolve, reject) => {
    let settled = false;
    let slow = false;
    const settle = () => {
      settled = true;
      bodies.reading--;
      clearTimeout(timer);
      if (slow) release(client);
    };
    const onTimeout = () => {
      if (settled) return;
      settle();
      reject(new ApiError('BODY_TIMEOUT', `The request body did not arrive within ${limits.timeoutMs / 1000} s.`));
    };
    const onSlow = () => {
      if (settled) return;
      slow = true;
      slowByClient.set(client, (slowByClient.get(client) ?? 0) + 1);
      timer = setTimeout(onTimeout, Math.max(0, limits.timeoutMs - SLOW_AFTER_MS));
    };
    let timer = setTimeout(onSlow, Math.min(SLOW_AFTER_MS, limits.timeoutMs));
    read.then(
      (body) => settled || (settle(), resolve(body)),
      (error: unknown) => settled || (settle(), reject(error)),
    );
  });
}

function release(client: string): void {
  const count = (slowByClient.get(client) ?? 1) - 1;
  if (count > 0) slowByClient.set(client, count);
  else slowByClient.delete(client);
}

/** Request bodies being read now, slow or not (tests, diagnostics). */
export function bodiesInProgress(): number {
  return bodies.reading;
}

/** Slow bodies in progress from `clientAddress` (tests, diagnostics). */
export function slowBodies(clientAddress: string | undefined): number {
  return slowByClient.get(clientKey(clientAddress)) ?? 0;
}
