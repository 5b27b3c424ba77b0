import { afterEach, describe, expect, it } from 'vitest';
import { peekProcessSlot, setProcessSlot } from '@/lib/process';
import { recordProcessState } from './support/process-state';

describe('what a test file leaves in a shared process is put back after it (decision 078)', () => {
  const restores: (() => void)[] = [];
  afterEach(() => restores.splice(0).forEach((restore) => restore()));

  it('puts the environment back: added variables removed, changed ones restored', () => {
    process.env.PROCESS_STATE_CHANGED = 'before';
    const restore = recordProcessState();
    process.env.PROCESS_STATE_ADDED = 'added';
    process.env.PROCESS_STATE_CHANGED = 'after';
    restore();
    expect(process.env.PROCESS_STATE_ADDED).toBeUndefined();
    expect(process.env.PROCESS_STATE_CHANGED).toBe('before');
    delete process.env.PROCESS_STATE_CHANGED;
  });

  it('empties the process slots but those kept, and clears the intervals set since', async () => {
    const restore = recordProcessState();
    const thread = {};
    setProcessSlot('config', { stale: true });
    setProcessSlot('database', Promise.resolve('a closed database'));
    setProcessSlot('derivationThread', thread);
    let ticks = 0;
    setInterval(() => ticks++, 1);
    restore();
    expect(peekProcessSlot('config')).toBeUndefined();
    expect(peekProcessSlot('database')).toBeUndefined();
    expect(peekProcessSlot('derivationThread')).toBe(thread);
    const cleared = ticks;
    // Later timers run after any the cleared interval would have fired in.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(ticks).toBe(cleared);
  });

  it('counts only intervals set while recording, and stops counting once restored', () => {
    const before = setInterval(() => {}, 60_000);
    restores.push(recordProcessState());
    restores.pop()!();
    const after = setInterval(() => {}, 60_000);
    // Neither was cleared by the restore: each still has its timer.
    expect(before.hasRef()).toBe(true);
    expect(after.hasRef()).toBe(true);
    clearInterval(before);
    clearInterval(after);
  });
});
