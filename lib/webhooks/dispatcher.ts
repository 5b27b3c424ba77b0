import 'server-only';
/**
 * The webhook dispatcher: claims due outbox rows, sends them, records every attempt and
 * reschedules what failed. Safe with any number of dispatchers on one database (row leases, see
 * claims.ts): delivered at least once, never lost.
 *
 * - Deliveries run concurrently up to WEBHOOK_CONCURRENCY per process and
 *   WEBHOOK_MERCHANT_CONCURRENCY per merchant, each cut at WEBHOOK_TIMEOUT_MS: a merchant whose
 *   endpoint hangs holds a few slots for the timeout, never the others' deliveries.
 * - Claims and records carry several rows where they can (docs/decisions/040): a busy merchant is
 *   claimed for again once half its slots are free, and attempts that end within 100 ms of each
 *   other are recorded together. On the embedded database, one thread shared with the watcher,
 *   a statement per webhook was what queued them at 50 status changes a second.
 * - A commit that enqueues a webhook NOTIFYs the dispatchers, which wake at once; a poll every
 *   WEBHOOK_POLL_MS catches retries that came due and anything a lost notification missed.
 *
 * The rules and the stateful parts live beside it, each in its own file: the claim and record
 * statements in claims.ts, one attempt in sender.ts, the retry schedule in schedule.ts, the
 * settings in options.ts, the two concurrency limits in slots.ts (`Slots`) and the batched writes
 * in recorder.ts (`AttemptRecorder`). Here, the wiring: `startDispatcher` connects the wake-ups
 * (NOTIFY, poll timer) to a `ClaimLoop`, which claims into `Slots` and hands finished attempts to
 * an `AttemptRecorder`.
 */
import type { Database } from '../db';
import { log } from '../log';
import { claimDue, recordAttempts, type ClaimedRow } from './claims';
import { dispatcherOptions, type DispatcherOptions } from './options';
import { WEBHOOK_CHANNEL } from './outbox';
import { AttemptRecorder } from './recorder';
import { logAttempt, sendAttempt } from './sender';
import { Slots } from './slots';

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
  db.listen(WEBHOOK_CHANNEL, wake, wake).catch((error) =>
    log.error('webhook notifications unavailable; polling only', { error }),
  );
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
    this.recorder = new AttemptRecorder(async (batch) => {
      const disabled = await recordAttempts(db, batch, options.endpointDisableAfterMs);
      batch.forEach(logAttempt);
      for (const endpoint of disabled)
        log.warn('webhook endpoint disabled', {
          endpointId: endpoint.id,
          merchantId: endpoint.merchant_id,
          reason: endpoint.disabled_reason,
        });
    });
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
