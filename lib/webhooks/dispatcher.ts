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
 * The rules live beside it: the claim and record statements in claims.ts, one attempt in
 * sender.ts, the retry schedule in schedule.ts, the settings in options.ts. Here, the running
 * parts, each with its own state: `startDispatcher` wires the wake-ups (NOTIFY, poll timer) to a
 * `ClaimLoop`, which claims into `Slots` (the two concurrency limits) and hands finished attempts
 * to an `AttemptRecorder` (batched writes).
 */
import type { Database } from '../db';
import { log } from '../log';
import { claimDue, recordAttempts, type ClaimedRow, type FinishedAttempt } from './claims';
import { dispatcherOptions, type DispatcherOptions } from './options';
import { WEBHOOK_CHANNEL } from './outbox';
import { logAttempt, sendAttempt } from './sender';

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

  private launch(row: ClaimedRow): void {
    this.slots.take(row.merchant_id);
    // The slot is free once the HTTP exchange is over: the row stays leased until it is recorded.
    // The last pass claimed every due row it could: another one can find more only if this slot
    // made room where there was none (see Slots.forClaim). Retries that come due meanwhile are
    // found by the poll, new rows by their notification.
    const release = () => {
      if (this.slots.release(row.merchant_id)) this.wake();
    };
    const attempt = sendAttempt(row, this.options)
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
  private waiting: { finished: FinishedAttempt; done: () => void }[] = [];
  private writing = false;
  private timer: NodeJS.Timeout | undefined;
  /** Write what waits as soon as the write in progress (if any) is over. */
  private urgent = false;

  constructor(private readonly db: Database) {}

  /**
   * Resolves once the attempt is written, or its write failed (the row is retried when its lease
   * ends). `last`: no other attempt of this dispatcher is in flight, so none is worth waiting for.
   */
  add(finished: FinishedAttempt, last: boolean): Promise<void> {
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
    recordAttempts(this.db, batch.map((b) => b.finished))
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
