import 'server-only';
/**
 * The webhook dispatcher: claims due outbox rows, sends them, records every attempt and
 * reschedules what failed. Safe with any number of dispatchers on one database:
 *
 * - A claim is one statement: due rows are locked `FOR UPDATE SKIP LOCKED` (two dispatchers never
 *   take the same row), and claiming moves `next_attempt_at` to the end of a lease longer than an
 *   attempt can last. A dispatcher that dies mid-attempt thus leaves rows that become due again by
 *   themselves when the lease ends: delivered at least once, never lost.
 * - Deliveries run concurrently up to WEBHOOK_CONCURRENCY per process and
 *   WEBHOOK_MERCHANT_CONCURRENCY per merchant, each cut at WEBHOOK_TIMEOUT_MS: a merchant whose
 *   endpoint hangs holds a few slots for the timeout, never the others' deliveries.
 * - The attempt is recorded and the row rescheduled in one statement, only if this dispatcher
 *   still holds the lease.
 * - Claims and records carry several rows where they can (docs/decisions/040): a busy merchant is
 *   claimed for again once half its slots are free, and attempts that end within 100 ms of each
 *   other are recorded together. On the embedded database, one thread shared with the watcher,
 *   a statement per webhook was what queued them at 50 status changes a second.
 * - A commit that enqueues a webhook NOTIFYs the dispatchers, which wake at once; a poll every
 *   WEBHOOK_POLL_MS catches retries that came due and anything a lost notification missed.
 *
 * In this file: the rules (`claimDue`, `nextState`, `record`, `send`), then the running parts, each
 * with its own state: `startDispatcher` wires the wake-ups (NOTIFY, poll timer) to a `ClaimLoop`,
 * which claims into `Slots` (the two concurrency limits) and hands finished attempts to an
 * `AttemptRecorder` (batched writes).
 */
import type { Database } from '../db';
import { config } from '../config';
import { log } from '../log';
import { metrics } from '../metrics';
import { decryptSecret } from '../merchants';
import { postWebhook, type AttemptResult } from './http';
import { WEBHOOK_CHANNEL } from './outbox';
import { webhookHeaders } from './signing';
import { nextState, RETRY_DELAYS_MS, RETRY_JITTER, type NextState, type RetrySchedule } from './schedule';
import type { TargetPolicy } from './ssrf';

const SECOND = 1000;

/** Due rows a claim looks at (in the due index's order) to choose from, per merchant. */
const CLAIM_SCAN = 500;

export interface DispatcherOptions extends RetrySchedule {
  /** Cut of one attempt: resolution, connection and answer (WEBHOOK_TIMEOUT_MS). */
  timeoutMs: number;
  /** Attempts in flight per process (WEBHOOK_CONCURRENCY). */
  concurrency: number;
  /** Attempts in flight per merchant and process (WEBHOOK_MERCHANT_CONCURRENCY). */
  merchantConcurrency: number;
  /** Poll interval when nothing wakes the dispatcher (WEBHOOK_POLL_MS). */
  pollMs: number;
  policy: TargetPolicy;
  /** Recorded as the lease owner: which process holds a row. */
  owner: string;
  /** How long a claim holds a row; longer than any attempt. */
  leaseMs: number;
}

export function targetPolicy(): TargetPolicy {
  const cfg = config();
  return { allowPrivate: cfg.webhookAllowPrivateTargets, allowed: cfg.webhookAllowedTargets, ownOrigin: new URL(cfg.publicBaseUrl).origin };
}

export function dispatcherOptions(overrides: Partial<DispatcherOptions> = {}): DispatcherOptions {
  const cfg = config();
  const timeoutMs = overrides.timeoutMs ?? cfg.webhookTimeoutMs;
  return {
    timeoutMs,
    concurrency: cfg.webhookConcurrency,
    merchantConcurrency: cfg.webhookMerchantConcurrency,
    pollMs: cfg.webhookPollMs,
    policy: targetPolicy(),
    retryDelaysMs: RETRY_DELAYS_MS,
    jitter: RETRY_JITTER,
    owner: `pid-${process.pid}`,
    leaseMs: timeoutMs + 5 * SECOND,
    ...overrides,
  };
}

/** A claimed outbox row with the merchant's current key of its mode. */
interface Claimed {
  id: string;
  order_id: string | null;
  merchant_id: string;
  mode: 'test' | 'live';
  url: string;
  body: string;
  attempts: number;
  schedule_base: number;
  lease_owner: string;
  public_key: string | null;
  secret_ciphertext: string | null;
}

/**
 * Claims up to `limit` due rows, at most `perMerchant` in flight per merchant counting `busy`
 * (this process's attempts in flight per merchant). Two short statements rather than one clever
 * one: a read of the first due rows of merchants with room left, the choice per merchant here,
 * then the claim of exactly those rows (`FOR UPDATE SKIP LOCKED`: a row another dispatcher took
 * meanwhile is skipped) with the merchant's current key of the row's mode.
 */
export async function claimDue(
  db: Database,
  owner: string,
  limit: number,
  leaseMs: number,
  perMerchant: number,
  busy: ReadonlyMap<string, number> = new Map(),
): Promise<Claimed[]> {
  const saturated = [...busy].filter(([, n]) => n >= perMerchant).map(([id]) => id);
  const due = await db.query<{ id: string; merchant_id: string }>(
    `select id, merchant_id from webhook_events
      where state = 'pending' and next_attempt_at <= now() and merchant_id <> all($1::uuid[])
      order by next_attempt_at limit $2`,
    [saturated, Math.min(CLAIM_SCAN, limit * perMerchant)],
  );
  const room = new Map<string, number>();
  const chosen: string[] = [];
  for (const row of due) {
    const left = room.get(row.merchant_id) ?? perMerchant - (busy.get(row.merchant_id) ?? 0);
    if (left <= 0) continue;
    room.set(row.merchant_id, left - 1);
    chosen.push(row.id);
    if (chosen.length === limit) break;
  }
  if (chosen.length === 0) return [];
  return db.query<Claimed>(
    `with due as (
       select id from webhook_events
        where id = any($1::uuid[]) and state = 'pending' and next_attempt_at <= now()
        for update skip locked
     ), claimed as (
       update webhook_events e
          set attempts = e.attempts + 1, lease_owner = $2 || '/' || gen_random_uuid(),
              lease_expires_at = now() + $3 * interval '1 millisecond', next_attempt_at = now() + $3 * interval '1 millisecond',
              updated_at = now()
         from due where e.id = due.id
       returning e.id, e.order_id, e.merchant_id, e.mode, e.url, e.body, e.attempts, e.schedule_base, e.lease_owner
     )
     select c.*, k.public_key, k.secret_ciphertext from claimed c
       left join lateral (
         select public_key, secret_ciphertext from api_keys
          where merchant_id = c.merchant_id and mode = c.mode and revoked_at is null
          order by created_at desc limit 1
       ) k on true`,
    [chosen, owner, leaseMs],
  );
}

/** A finished attempt, waiting to be recorded. */
interface Finished {
  row: Claimed;
  startedAt: Date;
  result: AttemptResult;
  next: NextState;
}

/**
 * Records attempts and moves their rows on, all in one statement (attempts that end together are
 * written together); a row only if its lease is still the one this dispatcher took.
 */
async function record(db: Database, finished: readonly Finished[]): Promise<void> {
  const column = <T>(pick: (f: Finished) => T) => finished.map(pick);
  await db.query(
    `with input as (
       select * from unnest($1::uuid[], $2::text[], $3::text[], $4::bigint[], $5::int[], $6::timestamptz[], $7::int[], $8::int[],
                            $9::text[], $10::text[], $11::text[])
         as t(id, lease_owner, state, delay_ms, attempt, started_at, latency_ms, status_code, outcome, error, excerpt)
     ), moved as (
       update webhook_events e
          set state = i.state,
              next_attempt_at = case when i.delay_ms is null then e.next_attempt_at else now() + i.delay_ms * interval '1 millisecond' end,
              lease_owner = null, lease_expires_at = null, updated_at = now(),
              delivered_at = case when i.state = 'delivered' then now() else e.delivered_at end
         from input i
        where e.id = i.id and e.lease_owner = i.lease_owner
        returning e.id
     )
     insert into webhook_attempts (event_id, attempt, started_at, latency_ms, status_code, outcome, error, response_excerpt)
     select id, attempt, started_at, latency_ms, status_code, outcome, error, excerpt from input`,
    [
      column((f) => f.row.id), column((f) => f.row.lease_owner), column((f) => f.next.state), column((f) => f.next.delayMs),
      column((f) => f.row.attempts), column((f) => f.startedAt), column((f) => f.result.latencyMs), column((f) => f.result.statusCode),
      column((f) => f.result.outcome), column((f) => f.result.error), column((f) => f.result.responseExcerpt),
    ],
  );
}

/** One attempt of a claimed row (not recorded yet). */
async function send(row: Claimed, options: DispatcherOptions): Promise<Finished> {
  const startedAt = new Date();
  let result: AttemptResult;
  if (!row.public_key || !row.secret_ciphertext) {
    result = { outcome: 'refused', statusCode: null, latencyMs: 0, error: `refused: the merchant has no active ${row.mode} API key to sign with`, responseExcerpt: null };
  } else {
    const secret = Buffer.from(decryptSecret(row.secret_ciphertext), 'utf8');
    const headers = webhookHeaders({ publicKey: row.public_key, secret, body: row.body, eventId: row.id, attempt: row.attempts, now: startedAt });
    result = await postWebhook(row.url, row.body, headers, { timeoutMs: options.timeoutMs, policy: options.policy });
  }
  return { row, startedAt, result, next: nextState(result.outcome, row.attempts - row.schedule_base, options) };
}

function logAttempt({ row, result, next }: Finished): void {
  metrics().webhookAttempts.inc({ outcome: result.outcome });
  // The URL is the merchant's and may carry a token in its path or query: only its host is logged.
  const fields = {
    eventId: row.id, orderId: row.order_id, merchantId: row.merchant_id, host: hostOf(row.url), attempt: row.attempts,
    outcome: result.outcome, statusCode: result.statusCode, ms: result.latencyMs,
  };
  if (result.outcome === 'delivered') log.info('webhook delivered', fields);
  else if (result.outcome === 'refused') log.warn('webhook target refused', { ...fields, reason: result.error });
  else log.warn('webhook attempt failed', { ...fields, reason: result.error, next: next.state, retryInMs: next.delayMs });
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '(invalid URL)';
  }
}

export interface Dispatcher {
  /** Looks for due rows now (after a commit that enqueued some). */
  wake(): void;
  /** Stops claiming and waits for the attempts in flight. */
  stop(): Promise<void>;
}

/**
 * Starts a dispatcher on `db`: it claims at once, on every NOTIFY of an enqueued webhook (and
 * whenever notifications may have been missed), and every `pollMs` for retries that came due.
 */
export function startDispatcher(db: Database, options: DispatcherOptions = dispatcherOptions()): Dispatcher {
  const loop = new ClaimLoop(db, options);
  const wake = () => loop.wake();
  const poll = setInterval(wake, options.pollMs).unref();
  db.listen(WEBHOOK_CHANNEL, wake, wake).catch((error) => log.error('webhook notifications unavailable; polling only', { error }));
  wake();
  return {
    wake,
    async stop() {
      clearInterval(poll);
      await loop.stop();
    },
  };
}

/**
 * Claims due rows into this process's free slots and sends them, when woken. Wake-ups are
 * coalesced: a pass starts after the current tick (attempts that end together are followed by
 * one claim, not one each), never two at once, and a wake-up during a pass makes it look again.
 */
class ClaimLoop {
  private readonly slots: Slots;
  private readonly recorder: AttemptRecorder;
  /** Attempts from their claim until they are recorded: what `stop` waits for. */
  private readonly attempts = new Set<Promise<void>>();
  /** The pass in progress, if any. */
  private pass: Promise<void> | undefined;
  /** Woken during the pass in progress. */
  private again = false;
  private stopped = false;

  constructor(
    private readonly db: Database,
    private readonly options: DispatcherOptions,
  ) {
    this.slots = new Slots(options.concurrency, options.merchantConcurrency);
    this.recorder = new AttemptRecorder(db);
  }

  wake(): void {
    if (this.stopped) return;
    if (this.pass) {
      this.again = true;
      return;
    }
    this.pass = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.claimUntilQuiet())
      .catch((error) => log.error('webhook claim failed', { error }))
      .finally(() => {
        this.pass = undefined;
        if (this.again) this.wake(); // woken after the loop's last look
      });
  }

  /** Stops claiming and waits for the pass in progress, then for the attempts in flight. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.pass;
    await Promise.all(this.attempts);
  }

  private async claimUntilQuiet(): Promise<void> {
    do {
      this.again = false;
      await this.fillSlots();
    } while (this.again && !this.stopped);
  }

  /** Claims and launches due rows while there are free slots and due rows to fill them. */
  private async fillSlots(): Promise<void> {
    while (!this.stopped) {
      const room = this.slots.free();
      if (room <= 0) return;
      const { owner, leaseMs, merchantConcurrency } = this.options;
      const rows = await claimDue(this.db, owner, room, leaseMs, merchantConcurrency, this.slots.forClaim());
      for (const row of rows) this.launch(row);
      if (rows.length < room) return;
    }
  }

  private launch(row: Claimed): void {
    this.slots.take(row.merchant_id);
    // The slot is free once the HTTP exchange is over: the row stays leased until it is recorded.
    // The last pass claimed every due row it could: another one can find more only if this slot
    // made room where there was none (see Slots.forClaim). Retries that come due meanwhile are
    // found by the poll, new rows by their notification.
    const release = () => {
      if (this.slots.release(row.merchant_id)) this.wake();
    };
    const attempt = send(row, this.options)
      .then(
        (finished) => {
          release();
          return this.recorder.add(finished, this.slots.idle());
        },
        (error) => {
          release();
          log.error('webhook attempt failed unexpectedly (retried when its lease ends)', { eventId: row.id, error });
        },
      )
      .finally(() => this.attempts.delete(attempt));
    this.attempts.add(attempt);
  }
}

/**
 * This process's attempts in flight, in all (at most WEBHOOK_CONCURRENCY) and per merchant (at
 * most WEBHOOK_MERCHANT_CONCURRENCY, which `claimDue` enforces from `perMerchant`).
 */
class Slots {
  /** Attempts in flight per merchant; a merchant with none has no entry. */
  private readonly perMerchant = new Map<string, number>();
  private inFlight = 0;
  /** Free slots a merchant with attempts in flight needs before its rows are claimed again. */
  private readonly batch: number;

  constructor(
    private readonly size: number,
    private readonly merchantSize: number,
  ) {
    this.batch = Math.ceil(merchantSize / 2);
  }

  free(): number {
    return this.size - this.inFlight;
  }

  idle(): boolean {
    return this.inFlight === 0;
  }

  /**
   * Attempts in flight per merchant as a claim counts them (`claimDue`'s `busy`): a merchant with
   * attempts in flight but fewer than half its slots free counts as full. Its rows are then claimed
   * several at a time, and its attempts, started together, end and are recorded together. Claiming
   * for each slot as it frees settles into one claim (two statements) and one record per webhook:
   * on the embedded database, whose one connection and one thread the watcher shares, that was
   * most of the cost of a webhook, and 50 status changes a second queued them for seconds
   * (docs/decisions/040). A merchant with nothing in flight is claimed for at once, as before.
   */
  forClaim(): Map<string, number> {
    const busy = new Map<string, number>();
    for (const [merchant, n] of this.perMerchant) busy.set(merchant, this.countsFull(n) ? this.merchantSize : n);
    return busy;
  }

  take(merchantId: string): void {
    this.inFlight++;
    this.perMerchant.set(merchantId, (this.perMerchant.get(merchantId) ?? 0) + 1);
  }

  /** Frees a slot; answers whether that made room for a claim: the first free slot, or the merchant's rows claimable again. */
  release(merchantId: string): boolean {
    const wasFull = this.inFlight === this.size || this.countsFull(this.perMerchant.get(merchantId)!);
    this.inFlight--;
    const n = this.perMerchant.get(merchantId)! - 1;
    if (n === 0) this.perMerchant.delete(merchantId);
    else this.perMerchant.set(merchantId, n);
    return wasFull && !(this.inFlight === this.size || this.countsFull(n));
  }

  private countsFull(inFlight: number): boolean {
    return inFlight > 0 && this.merchantSize - inFlight < this.batch;
  }
}

/**
 * How long a finished attempt waits for others before it is recorded (unless it was the last in
 * flight): attempts claimed together end within a few milliseconds of each other, and one write
 * for all of them costs the embedded database about what one write for each of them would cost
 * apiece. Far inside the lease, which the row keeps until it is recorded.
 */
const RECORD_WINDOW_MS = 100;

/**
 * Finished attempts are recorded by one statement at a time, together: those that end within
 * RECORD_WINDOW_MS of the first one waiting, or while a write runs, are written by one statement,
 * so a busy database gets fewer, larger writes. The last attempt in flight is written at once.
 */
class AttemptRecorder {
  private waiting: { finished: Finished; done: () => void }[] = [];
  private writing = false;
  private timer: NodeJS.Timeout | undefined;
  /** Write what waits as soon as the write in progress (if any) is over. */
  private urgent = false;

  constructor(private readonly db: Database) {}

  /**
   * Resolves once the attempt is written, or its write failed (the row is retried when its lease
   * ends). `last`: no other attempt of this dispatcher is in flight, so none is worth waiting for.
   */
  add(finished: Finished, last: boolean): Promise<void> {
    return new Promise<void>((done) => {
      this.waiting.push({ finished, done });
      if (last) this.urgent = true;
      if (this.urgent) setImmediate(() => this.flush());
      else this.timer ??= setTimeout(() => this.flushSoon(), RECORD_WINDOW_MS);
    });
  }

  private flushSoon(): void {
    this.urgent = true;
    this.flush();
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.writing || this.waiting.length === 0) return;
    this.writing = true;
    this.urgent = false;
    const batch = this.waiting;
    this.waiting = [];
    record(this.db, batch.map((b) => b.finished))
      .then(() => batch.forEach((b) => logAttempt(b.finished)))
      .catch((error) => log.error('webhook attempts could not be recorded (retried when their lease ends)', { eventIds: batch.map((b) => b.finished.row.id), error }))
      .finally(() => {
        this.writing = false;
        batch.forEach((b) => b.done());
        if (this.urgent) this.flush();
        else if (this.waiting.length > 0) this.timer ??= setTimeout(() => this.flushSoon(), RECORD_WINDOW_MS);
      });
  }
}
