import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { log } from '../log';
import type { FinishedAttempt } from './claims';
import { AttemptRecorder } from './recorder';

/** A finished attempt as the recorder sees it: only its row's id matters to it (the log of a failed write). */
function finished(id: string): FinishedAttempt {
  return { row: { id } } as FinishedAttempt;
}

/**
 * A write that notes each batch (its event ids and when it started, in fake milliseconds since the
 * test began) and ends at once, or when the test says (`hold`), or fails (`fail`).
 */
class Writes {
  readonly batches: { at: number; ids: string[] }[] = [];
  private readonly started = Date.now();
  private held: { resolve: () => void; reject: (error: Error) => void }[] = [];
  private holding = false;
  private failing: Error | undefined;

  readonly write = (batch: FinishedAttempt[]): Promise<void> => {
    this.batches.push({ at: Date.now() - this.started, ids: batch.map((f) => f.row.id) });
    if (this.failing) return Promise.reject(this.failing);
    if (!this.holding) return Promise.resolve();
    return new Promise<void>((resolve, reject) => this.held.push({ resolve, reject }));
  };

  /** Writes from now on run until `release`. */
  hold(): void {
    this.holding = true;
  }

  /** Ends the writes held, and lets the next ones end at once. */
  release(): void {
    this.holding = false;
    for (const { resolve } of this.held.splice(0)) resolve();
  }

  /** Writes from now on fail with `error`. */
  fail(error: Error | undefined): void {
    this.failing = error;
  }
}

/** Hands `id` to the recorder; the answer says whether its promise has resolved (written, or the write failed). */
function add(recorder: AttemptRecorder, id: string, last = false): { done: boolean } {
  const state = { done: false };
  void recorder.add(finished(id), last).then(() => (state.done = true));
  return state;
}

/** Moves the fake clock on by `ms`, running the timers and the promises they settle. */
const wait = (ms: number) => vi.advanceTimersByTimeAsync(ms);

let writes: Writes;
let recorder: AttemptRecorder;

beforeEach(() => {
  vi.useFakeTimers();
  writes = new Writes();
  recorder = new AttemptRecorder(writes.write);
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('AttemptRecorder: the 100 ms window', () => {
  it('writes the attempts that end within 100 ms of the first one in one batch, when the window ends', async () => {
    const a = add(recorder, 'a');
    await wait(40);
    const b = add(recorder, 'b');
    await wait(59);
    const c = add(recorder, 'c');
    expect(writes.batches).toEqual([]); // 99 ms: still waiting for others
    expect([a.done, b.done, c.done]).toEqual([false, false, false]);
    await wait(1);
    expect(writes.batches).toEqual([{ at: 100, ids: ['a', 'b', 'c'] }]);
    expect([a.done, b.done, c.done]).toEqual([true, true, true]);
  });

  it('writes an attempt that ends after the window in the next batch, its own window later', async () => {
    add(recorder, 'a');
    await wait(30);
    add(recorder, 'b');
    await wait(90);
    const c = add(recorder, 'c'); // 120 ms: after the first window
    expect(writes.batches).toEqual([{ at: 100, ids: ['a', 'b'] }]);
    await wait(99);
    expect(writes.batches).toHaveLength(1);
    expect(c.done).toBe(false);
    await wait(1);
    expect(writes.batches).toEqual([
      { at: 100, ids: ['a', 'b'] },
      { at: 220, ids: ['c'] },
    ]);
    expect(c.done).toBe(true);
  });

  it('writes nothing while nothing waits', async () => {
    await wait(1000);
    add(recorder, 'a');
    await wait(1000);
    expect(writes.batches).toEqual([{ at: 1100, ids: ['a'] }]);
  });
});

describe('AttemptRecorder: the last attempt in flight (how the dispatcher stops)', () => {
  it('writes at once, with those waiting, when the last attempt in flight ends', async () => {
    const a = add(recorder, 'a');
    await wait(30);
    const b = add(recorder, 'b', true);
    await wait(0);
    expect(writes.batches).toEqual([{ at: 30, ids: ['a', 'b'] }]);
    expect([a.done, b.done]).toEqual([true, true]);
    await wait(1000); // the window's timer was dropped: no second, empty write
    expect(writes.batches).toHaveLength(1);
  });

  it('writes a lone last attempt at once', async () => {
    const a = add(recorder, 'a', true);
    await wait(0);
    expect(writes.batches).toEqual([{ at: 0, ids: ['a'] }]);
    expect(a.done).toBe(true);
  });
});

describe('AttemptRecorder: one write at a time', () => {
  it('keeps attempts that end during a write for the next one, written once their window is over', async () => {
    writes.hold();
    add(recorder, 'a');
    await wait(100);
    expect(writes.batches).toEqual([{ at: 100, ids: ['a'] }]);
    add(recorder, 'b'); // 100 ms: the write of a runs
    await wait(20);
    add(recorder, 'c');
    await wait(130); // b's window ended at 200, during the write
    expect(writes.batches).toHaveLength(1);
    writes.release(); // 250 ms
    await wait(0);
    expect(writes.batches).toEqual([
      { at: 100, ids: ['a'] },
      { at: 250, ids: ['b', 'c'] },
    ]);
  });

  it('lets attempts that end during a short write wait out their window', async () => {
    writes.hold();
    add(recorder, 'a');
    await wait(110);
    add(recorder, 'b'); // 110 ms, during the write of a
    await wait(10);
    writes.release(); // 120 ms: b has waited 10 ms of its 100
    await wait(0);
    expect(writes.batches).toHaveLength(1);
    await wait(89);
    expect(writes.batches).toHaveLength(1);
    await wait(1);
    expect(writes.batches).toEqual([
      { at: 100, ids: ['a'] },
      { at: 210, ids: ['b'] },
    ]);
  });

  it('writes the last attempt in flight as soon as the write in progress ends', async () => {
    writes.hold();
    add(recorder, 'a');
    await wait(100);
    const b = add(recorder, 'b', true);
    await wait(30);
    expect(writes.batches).toHaveLength(1);
    expect(b.done).toBe(false);
    writes.release(); // 130 ms
    await wait(0);
    expect(writes.batches).toEqual([
      { at: 100, ids: ['a'] },
      { at: 130, ids: ['b'] },
    ]);
    expect(b.done).toBe(true);
  });
});

describe('AttemptRecorder: a failed write', () => {
  it('is logged with its event ids, lets its attempts go (their rows are retried when the lease ends) and the next batch is written', async () => {
    const logged = vi.spyOn(log, 'error').mockImplementation(() => {});
    const error = new Error('connection lost');
    writes.fail(error);
    const a = add(recorder, 'a');
    const b = add(recorder, 'b');
    await wait(100);
    expect([a.done, b.done]).toEqual([true, true]);
    expect(logged).toHaveBeenCalledTimes(1);
    expect(logged).toHaveBeenCalledWith('webhook attempts could not be recorded (retried when their lease ends)', {
      eventIds: ['a', 'b'],
      error,
    });

    writes.fail(undefined);
    const c = add(recorder, 'c');
    await wait(100);
    expect(writes.batches).toEqual([
      { at: 100, ids: ['a', 'b'] },
      { at: 200, ids: ['c'] },
    ]);
    expect(c.done).toBe(true);
    expect(logged).toHaveBeenCalledTimes(1);
  });
});
