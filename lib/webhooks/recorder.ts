import 'server-only';
/**
 * Finished webhook attempts, written in batches: one statement for the attempts that end within
 * 100 ms of each other rather than one each. Attempts claimed together end together, and on the
 * embedded database a write per attempt was most of a webhook's cost (docs/decisions/040). Timers
 * only, the write handed in, so the window is unit-tested on fake timers (recorder.test.ts).
 */
import { log } from '../log';
import type { FinishedAttempt } from './claims';

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
export class AttemptRecorder {
  private waiting: { finished: FinishedAttempt; done: () => void }[] = [];
  private writing = false;
  private timer: NodeJS.Timeout | undefined;
  /** Write what waits as soon as the write in progress (if any) is over. */
  private urgent = false;

  /**
   * `write` records a batch in one statement (claims.ts's `recordAttempts`, then the log lines);
   * a failure is logged here and the batch's rows are retried when their lease ends.
   */
  constructor(private readonly write: (batch: FinishedAttempt[]) => Promise<void>) {}

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
    this.write(batch.map((b) => b.finished))
      .catch((error) =>
        log.error('webhook attempts could not be recorded (retried when their lease ends)', {
          eventIds: batch.map((b) => b.finished.row.id),
          error,
        }),
      )
      .finally(() => {
        this.writing = false;
        batch.forEach((b) => b.done());
        if (this.urgent) this.flush();
        else if (this.waiting.length > 0) this.timer ??= setTimeout(() => this.flushSoon(), RECORD_WINDOW_MS);
      });
  }
}
