import { describe, expect, it } from 'vitest';
import { Slots } from './slots';

/** Takes `n` slots for `merchant`. */
function take(slots: Slots, merchant: string, n: number): void {
  for (let i = 0; i < n; i++) slots.take(merchant);
}

/**
 * Releases one of `merchant`'s slots at a time, down to none: for each, whether the release woke the
 * claim loop and what the next claim would count as the merchant's attempts in flight (undefined:
 * nothing in flight, claimed for freely).
 */
function releaseAll(slots: Slots, merchant: string, n: number): { wakes: boolean; counted: number | undefined }[] {
  const steps = [];
  for (let i = 0; i < n; i++) {
    const wakes = slots.release(merchant);
    steps.push({ wakes, counted: slots.forClaim().get(merchant) });
  }
  return steps;
}

describe('Slots: the process limit (WEBHOOK_CONCURRENCY)', () => {
  it('offers one slot fewer per attempt in flight, whichever merchant it is for', () => {
    const slots = new Slots(3, 8);
    expect(slots.free()).toBe(3);
    expect(slots.idle()).toBe(true);
    slots.take('a');
    expect(slots.free()).toBe(2);
    expect(slots.idle()).toBe(false);
    slots.take('b');
    slots.take('b');
    expect(slots.free()).toBe(0);
  });

  it('wakes the claim loop on the slot that ends a full process, not on the ones after it', () => {
    const slots = new Slots(3, 8);
    take(slots, 'a', 1);
    take(slots, 'b', 1);
    take(slots, 'c', 1);
    expect(slots.release('a')).toBe(true); // the first free slot: the last pass found no room
    expect(slots.free()).toBe(1);
    expect(slots.release('b')).toBe(false); // the loop was woken already and claims for both
    expect(slots.release('c')).toBe(false);
    expect(slots.free()).toBe(3);
    expect(slots.idle()).toBe(true);
  });

  it('does not wake the claim loop for a release below the limits (the last pass claimed all it could)', () => {
    const slots = new Slots(10, 8);
    take(slots, 'a', 2);
    expect(slots.release('a')).toBe(false);
    expect(slots.release('a')).toBe(false);
    expect(slots.idle()).toBe(true);
  });
});

describe('Slots: the merchant limit (WEBHOOK_MERCHANT_CONCURRENCY)', () => {
  it('counts a merchant at its limit as full, so that a claim takes none of its rows', () => {
    const slots = new Slots(32, 4);
    take(slots, 'a', 4);
    expect(slots.forClaim()).toEqual(new Map([['a', 4]]));
    expect(slots.free()).toBe(28); // the process has room: for the other merchants
  });

  it('leaves a merchant with nothing in flight out, claimed for at once', () => {
    const slots = new Slots(32, 4);
    expect(slots.forClaim()).toEqual(new Map());
    take(slots, 'a', 4);
    expect(slots.forClaim().has('b')).toBe(false);
    releaseAll(slots, 'a', 4);
    expect(slots.forClaim()).toEqual(new Map());
  });

  it('counts merchants apart: one at its limit holds none of the others back', () => {
    const slots = new Slots(32, 4);
    take(slots, 'a', 4);
    take(slots, 'b', 1);
    expect(slots.forClaim()).toEqual(
      new Map([
        ['a', 4],
        ['b', 1],
      ]),
    );
    expect(slots.release('b')).toBe(false);
    expect(slots.forClaim()).toEqual(new Map([['a', 4]]));
  });
});

describe('Slots: a busy merchant is claimed for again once half its slots are free', () => {
  it('4 slots: full until 2 are free, then claimable and the claim loop woken, once', () => {
    const slots = new Slots(32, 4);
    take(slots, 'a', 4);
    expect(slots.forClaim().get('a')).toBe(4);
    expect(releaseAll(slots, 'a', 4)).toEqual([
      { wakes: false, counted: 4 }, // 3 in flight, 1 free: still counts as full
      { wakes: true, counted: 2 }, // 2 in flight, 2 free: half, its rows are claimable (two of them)
      { wakes: false, counted: 1 }, // claimable already
      { wakes: false, counted: undefined },
    ]);
  });

  it('5 slots: half rounds up, full until 3 are free', () => {
    const slots = new Slots(32, 5);
    take(slots, 'a', 5);
    expect(releaseAll(slots, 'a', 5)).toEqual([
      { wakes: false, counted: 5 },
      { wakes: false, counted: 5 }, // 3 in flight, 2 free: fewer than half of 5
      { wakes: true, counted: 2 },
      { wakes: false, counted: 1 },
      { wakes: false, counted: undefined },
    ]);
  });

  it('8 slots (the default): full until 4 are free', () => {
    const slots = new Slots(32, 8);
    take(slots, 'a', 8);
    const steps = releaseAll(slots, 'a', 8);
    expect(steps.map((s) => s.wakes)).toEqual([false, false, false, true, false, false, false, false]);
    expect(steps.map((s) => s.counted)).toEqual([8, 8, 8, 4, 3, 2, 1, undefined]);
  });

  it('a merchant that got only some of its slots counts as full while fewer than half are free', () => {
    // A claim found three due rows for it: the fourth slot waits for the next batch.
    const slots = new Slots(32, 4);
    take(slots, 'a', 3);
    expect(slots.forClaim().get('a')).toBe(4);
    take(slots, 'b', 2);
    expect(slots.forClaim().get('b')).toBe(2); // two of four free: claimable
    expect(slots.release('a')).toBe(true);
    expect(slots.forClaim().get('a')).toBe(2);
  });

  it('1 and 2 slots: one free slot is half', () => {
    const one = new Slots(32, 1);
    take(one, 'a', 1);
    expect(one.forClaim().get('a')).toBe(1);
    expect(releaseAll(one, 'a', 1)).toEqual([{ wakes: true, counted: undefined }]);

    const two = new Slots(32, 2);
    take(two, 'a', 2);
    expect(two.forClaim().get('a')).toBe(2);
    expect(releaseAll(two, 'a', 2)).toEqual([
      { wakes: true, counted: 1 },
      { wakes: false, counted: undefined },
    ]);
  });

  it('a full process counts too: the first free slot wakes the claim loop though no merchant was full', () => {
    const slots = new Slots(4, 4);
    take(slots, 'a', 2);
    take(slots, 'b', 2);
    expect(slots.forClaim()).toEqual(
      new Map([
        ['a', 2],
        ['b', 2],
      ]),
    );
    expect(slots.release('a')).toBe(true);
    expect(slots.release('b')).toBe(false);
  });
});
