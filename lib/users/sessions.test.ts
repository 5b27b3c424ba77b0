import { describe, expect, it } from 'vitest';
import { touchEveryMs } from './sessions';

describe('session touch interval', () => {
  it('is a tenth of the idle timeout, at most a minute', () => {
    expect(touchEveryMs({ idleMs: 60_000, maxMs: 3_600_000 })).toBe(6_000);
    expect(touchEveryMs({ idleMs: 15_000, maxMs: 3_600_000 })).toBe(1_500);
    expect(touchEveryMs({ idleMs: 30 * 60_000, maxMs: 12 * 3_600_000 })).toBe(60_000);
  });
});
