import 'server-only';
/**
 * Drawing a PDF costs 0.1 to 1 s of CPU, and anyone holding an order's or invoice's id may ask for
 * it (docs/decisions/076), so the PDF routes bound it twice: each client (lib/security clientKey)
 * to PDF_RENDERS_PER_CLIENT_PER_MINUTE (the gateway's token buckets), and the process to
 * `PDF_RENDERS_AT_ONCE` renders at a time, a request beyond them waiting at most
 * `PDF_RENDER_WAIT_MS` for a turn before it is answered 503 with Retry-After. The pages stay free:
 * only the PDF is costly.
 */
import { processSlot } from '../process';
import { config } from '../config';
import { clientKey, clientOfRequest, perMinute, rateLimitWait } from '../security';

/** Renders one process draws at once (the CPU is shared with the API and the watchers). */
export const PDF_RENDERS_AT_ONCE = 2;
/** How long a request waits for a turn before it is refused: about two renders' worth. */
export const PDF_RENDER_WAIT_MS = 2000;

interface Turns {
  running: number;
  /** Requests waiting for a turn, oldest first: each is handed the turn a finishing render frees. */
  waiting: (() => void)[];
}

/** A refusal of the PDF routes: too many from this client, or the process busy drawing. */
export type PdfRefusal = { kind: 'rate_limited' | 'busy'; retryAfterSeconds: number };

/**
 * Runs `render` when the client's budget and a turn allow it. Answers its result, or the refusal;
 * `waitMs` and `now` are the tests' (a test waits for a condition, never for time).
 */
export async function withPdfRender<T>(
  client: string | null | undefined,
  perClientPerMinute: number,
  render: () => Promise<T>,
  { waitMs = PDF_RENDER_WAIT_MS, now }: { waitMs?: number; now?: number } = {},
): Promise<{ ok: T } | { refused: PdfRefusal }> {
  const wait = rateLimitWait(`pdf-client:${clientKey(client)}`, perMinute(perClientPerMinute), { now });
  if (wait > 0) return { refused: { kind: 'rate_limited', retryAfterSeconds: wait } };
  if (!(await takeTurn(waitMs))) return { refused: { kind: 'busy', retryAfterSeconds: 1 } };
  try {
    return { ok: await render() };
  } finally {
    releaseTurn();
  }
}

const turns = () => processSlot<Turns>('receipts.renders', () => ({ running: 0, waiting: [] }));

/** A turn now, or the first one freed within `waitMs`; false when none was. */
function takeTurn(waitMs: number): Promise<boolean> {
  const state = turns();
  if (state.running < PDF_RENDERS_AT_ONCE) {
    state.running += 1;
    return Promise.resolve(true);
  }
  if (waitMs <= 0) return Promise.resolve(false);
  return new Promise((resolve) => {
    const handOver = () => {
      clearTimeout(timer);
      resolve(true);
    };
    const timer = setTimeout(() => {
      state.waiting.splice(state.waiting.indexOf(handOver), 1);
      resolve(false);
    }, waitMs);
    state.waiting.push(handOver);
  });
}

/** A finished render hands its turn to the oldest waiter (the count stays), or frees it. */
function releaseTurn(): void {
  const state = turns();
  const next = state.waiting.shift();
  if (next) next();
  else state.running -= 1;
}

/**
 * A PDF route's answer: `render`'s response within the client's budget and the process's turns,
 * else 429 (too many from this client) or 503 (busy), each with Retry-After and never cached.
 */
export async function gatedPdfResponse(requestHeaders: Headers, render: () => Promise<Response>): Promise<Response> {
  const cfg = config();
  const client = clientOfRequest(requestHeaders, cfg.trustedProxies);
  const outcome = await withPdfRender(client, cfg.pdfRendersPerClientPerMinute, render);
  if ('ok' in outcome) return outcome.ok;
  const { kind, retryAfterSeconds } = outcome.refused;
  return new Response(kind === 'busy' ? 'Busy, retry shortly.' : 'Too many requests, retry later.', {
    status: kind === 'busy' ? 503 : 429,
    headers: { 'retry-after': String(retryAfterSeconds), 'cache-control': 'no-store' },
  });
}
