import { describe, expect, it } from 'vitest';
import { PDF_RENDERS_AT_ONCE, withPdfRender } from './render-gate';

/** A render that runs until the test lets it finish. */
function heldRender() {
  let finish!: () => void;
  let started = false;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return {
    render: async () => {
      started = true;
      await done;
      return 'pdf';
    },
    finish: () => finish(),
    started: () => started,
  };
}

const PLENTY = 1000;

describe('PDF renders per client', () => {
  it('a client gets its budget per minute, then a Retry-After; another client is counted apart', async () => {
    const at = 1_000_000;
    const render = () => Promise.resolve('pdf');
    for (let i = 0; i < 3; i++)
      expect(await withPdfRender('203.0.113.7', 3, render, { now: at })).toEqual({ ok: 'pdf' });
    expect(await withPdfRender('203.0.113.7', 3, render, { now: at })).toEqual({
      refused: { kind: 'rate_limited', retryAfterSeconds: 20 },
    });
    // The same /64 is the same client; another address is another budget.
    expect(await withPdfRender('2001:db8:1:2::1', 1, render, { now: at })).toEqual({ ok: 'pdf' });
    expect(await withPdfRender('2001:db8:1:2::ff', 1, render, { now: at })).toMatchObject({
      refused: { kind: 'rate_limited' },
    });
    expect(await withPdfRender('203.0.113.8', 3, render, { now: at })).toEqual({ ok: 'pdf' });
    // A minute's third later, one more.
    expect(await withPdfRender('203.0.113.7', 3, render, { now: at + 20_000 })).toEqual({ ok: 'pdf' });
  });
});

describe('PDF renders at once', () => {
  it(`draws ${PDF_RENDERS_AT_ONCE} at a time; the next waits for a turn, or is refused busy when none frees`, async () => {
    const held = Array.from({ length: PDF_RENDERS_AT_ONCE }, heldRender);
    const running = held.map((h, i) => withPdfRender(`198.51.100.${i}`, PLENTY, h.render));
    await expect.poll(() => held.every((h) => h.started())).toBe(true);

    // No wait allowed, or none long enough: busy, and its render never ran.
    const refused = heldRender();
    expect(await withPdfRender('198.51.100.50', PLENTY, refused.render, { waitMs: 0 })).toEqual({
      refused: { kind: 'busy', retryAfterSeconds: 1 },
    });
    expect(await withPdfRender('198.51.100.51', PLENTY, refused.render, { waitMs: 1 })).toMatchObject({
      refused: { kind: 'busy' },
    });
    expect(refused.started()).toBe(false);

    // A waiter is handed the turn the first finishing render frees.
    const waiter = heldRender();
    const waiting = withPdfRender('198.51.100.52', PLENTY, waiter.render, { waitMs: 60_000 });
    expect(waiter.started()).toBe(false);
    held[0]!.finish();
    expect(await running[0]).toEqual({ ok: 'pdf' });
    await expect.poll(() => waiter.started()).toBe(true);
    waiter.finish();
    expect(await waiting).toEqual({ ok: 'pdf' });
    for (const h of held.slice(1)) h.finish();
    await Promise.all(running);

    // Every turn is back: a full set runs at once again.
    const again = Array.from({ length: PDF_RENDERS_AT_ONCE }, heldRender);
    const rerun = again.map((h, i) => withPdfRender(`198.51.100.${60 + i}`, PLENTY, h.render, { waitMs: 0 }));
    await expect.poll(() => again.every((h) => h.started())).toBe(true);
    for (const h of again) h.finish();
    expect(await Promise.all(rerun)).toEqual(again.map(() => ({ ok: 'pdf' })));
  });
});
