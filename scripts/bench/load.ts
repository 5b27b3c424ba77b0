/**
 * Load generators. Every request carries a body made for it (distinct `order` and nonce) and
 * signed over its exact bytes, as a merchant's client does.
 */
import autocannon from 'autocannon';
import { createHmac } from 'node:crypto';
import http from 'node:http';

export interface Target {
  port: number;
  path: string;
  publicKey: string;
  privateKey: string;
}

export interface LoadResult {
  seconds: number;
  ok: number;
  /** Answers outside 2xx, by status. */
  rejected: Record<string, number>;
  /** Socket errors and requests without an answer within the timeout. */
  errors: number;
  timeouts: number;
  p50: number;
  p99: number;
  max: number;
}

export const okPerSecond = (r: LoadResult): number => r.ok / r.seconds;
export const failures = (r: LoadResult): number =>
  Object.values(r.rejected).reduce((a, b) => a + b, 0) + r.errors + r.timeouts;

export function describeFailures(r: LoadResult): string {
  const parts = Object.entries(r.rejected).map(([status, n]) => `${n}x${status}`);
  if (r.errors) parts.push(`${r.errors} socket errors`);
  if (r.timeouts) parts.push(`${r.timeouts} timeouts`);
  return parts.join(', ');
}

// Millisecond timestamp times 1000 plus a counter: unique across runs of this process and across
// the bench runs of the day, and below Number.MAX_SAFE_INTEGER.
let counter = Date.now() * 1000;

/** A make-order body; `order` undefined means a new order per request. */
export function orderBody(order?: string, currency = 'USDT', network = 'tron'): string {
  const nonce = ++counter;
  return JSON.stringify({ currency, network, amount: '10.5', order: order ?? `bench-${nonce}`, nonce });
}

function headers(target: Target, body: string): Record<string, string> {
  return {
    'content-type': 'application/json',
    'x-api-public-key': target.publicKey,
    'x-api-signature': createHmac('sha256', target.privateKey).update(body).digest('hex'),
  };
}

/** Closed loop: `connections` clients, each sending its next request when the last one is answered. */
export async function closedLoop(
  target: Target,
  connections: number,
  seconds: number,
  makeBody: () => string,
  timeoutSeconds = 10,
): Promise<LoadResult> {
  const result = await autocannon({
    url: `http://127.0.0.1:${target.port}${target.path}`,
    connections,
    duration: seconds,
    timeout: timeoutSeconds,
    requests: [
      {
        method: 'POST',
        path: target.path,
        // Autocannon rebuilds the request whenever setupRequest exists, so each one is fresh.
        setupRequest: (request) => {
          const body = makeBody();
          return { ...request, body, headers: { ...request.headers, ...headers(target, body) } };
        },
      },
    ],
  });
  let ok = 0;
  const rejected: Record<string, number> = {};
  for (const [status, { count }] of Object.entries(result.statusCodeStats)) {
    if (status.startsWith('2')) ok += count;
    else rejected[status] = count;
  }
  return {
    seconds: result.duration,
    ok,
    rejected,
    // autocannon counts timeouts among errors too.
    errors: result.errors - result.timeouts,
    timeouts: result.timeouts,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
  };
}

/**
 * Open loop at a fixed rate: request i is sent at start + i/rate whatever the answers do, over at
 * most `connections` keep-alive sockets (a request waiting for a socket counts that wait as
 * latency). Not autocannon's overallRate: that gives each connection a per-second quota which
 * it sends back to back at the top of every second, so "400 req/s" is really bursts of 400
 * requests at full concurrency, and the latency measured is that of a burst.
 */
export async function fixedRate(
  target: Target,
  rate: number,
  seconds: number,
  connections: number,
  makeBody: () => string,
): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const latencies: number[] = [];
  const result: LoadResult = { seconds, ok: 0, rejected: {}, errors: 0, timeouts: 0, p50: 0, p99: 0, max: 0 };
  result.seconds = await openLoop(rate, seconds, (finish) =>
    sendSigned(agent, target, makeBody(), result, (ms, ok) => ok && latencies.push(ms), finish),
  );
  agent.destroy();
  return Object.assign(result, latencySummary(latencies));
}

/**
 * A burst: `total` requests from `concurrency` clients, each sending its next request when the
 * last is answered, over keep-alive connections all opened as the burst starts (a shop's
 * workers when a sale opens). Every answer's latency counts, a refusal's too: the figure is how
 * long anyone waited, which is where a new connection stuck in the accept queue shows.
 */
export async function burst(
  target: Target,
  total: number,
  concurrency: number,
  makeBody: () => string,
): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const latencies: number[] = [];
  const result: LoadResult = { seconds: 0, ok: 0, rejected: {}, errors: 0, timeouts: 0, p50: 0, p99: 0, max: 0 };
  const started = performance.now();
  let sent = 0;
  const client = async () => {
    while (sent < total) {
      sent++;
      await new Promise<void>((finish) =>
        sendSigned(agent, target, makeBody(), result, (ms) => latencies.push(ms), finish),
      );
    }
  };
  await Promise.all(Array.from({ length: concurrency }, client));
  result.seconds = (performance.now() - started) / 1000;
  agent.destroy();
  return Object.assign(result, latencySummary(latencies));
}

/** One signed POST of `body` over `agent`, counted into `result`; `answered` gets each answer's latency. */
function sendSigned(
  agent: http.Agent,
  target: Target,
  body: string,
  result: LoadResult,
  answered: (ms: number, ok: boolean) => void,
  finish: () => void,
): void {
  const t0 = performance.now();
  const request = http.request(
    {
      agent,
      host: '127.0.0.1',
      port: target.port,
      path: target.path,
      method: 'POST',
      timeout: 10_000,
      headers: headers(target, body),
    },
    (response) => {
      response.resume();
      response.on('end', () => {
        const status = response.statusCode ?? 0;
        const ok = status >= 200 && status < 300;
        if (ok) result.ok++;
        else result.rejected[status] = (result.rejected[status] ?? 0) + 1;
        answered(performance.now() - t0, ok);
        finish();
      });
    },
  );
  request.on('timeout', () => {
    result.timeouts++;
    request.destroy(new Error('timeout'));
  });
  request.on('error', (error) => {
    if (error.message !== 'timeout') result.errors++;
    finish();
  });
  request.end(body);
}

/**
 * The schedule of an open loop: `rate × seconds` requests, request i started by `send` at
 * start + i/rate whatever the answers do; `send` calls `finish` once its request is over.
 * Answers the seconds from the first start to the last finish.
 */
export async function openLoop(rate: number, seconds: number, send: (finish: () => void) => void): Promise<number> {
  const total = Math.round(rate * seconds);
  const started = performance.now();
  let sent = 0;
  let done = 0;
  await new Promise<void>((resolve) => {
    const finish = () => {
      if (++done === total) resolve();
    };
    const tick = () => {
      // Catch up with the schedule (timers fire late by up to a millisecond or so).
      while (sent < total && started + (sent * 1000) / rate <= performance.now()) {
        sent++;
        send(finish);
      }
      if (sent < total) setTimeout(tick, Math.max(0, started + (sent * 1000) / rate - performance.now()));
    };
    tick();
  });
  return (performance.now() - started) / 1000;
}

/** p50, p99 and max of latencies in ms (sorts them). */
export function latencySummary(latencies: number[]): { p50: number; p99: number; max: number } {
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
  return { p50: at(0.5), p99: at(0.99), max: latencies.at(-1) ?? NaN };
}
