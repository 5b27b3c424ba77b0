import { describe, expect, it } from 'vitest';
import { chunkAddress, countdownPhase, EXPIRING_SOON_MS, formatCountdown, interpolate } from './format';

describe('formatCountdown', () => {
  it('m:ss under an hour, h:mm:ss from an hour, rounding up partial seconds, never negative', () => {
    expect(formatCountdown(30 * 60_000)).toBe('30:00');
    expect(formatCountdown(65_000)).toBe('1:05');
    expect(formatCountdown(59_001)).toBe('1:00');
    expect(formatCountdown(1)).toBe('0:01');
    expect(formatCountdown(0)).toBe('0:00');
    expect(formatCountdown(-5000)).toBe('0:00');
    expect(formatCountdown(2 * 3600_000 + 5 * 60_000 + 9_000)).toBe('2:05:09');
    expect(formatCountdown(12 * 3600_000)).toBe('12:00:00');
  });
});

describe('countdownPhase', () => {
  it('running, then expiring soon in the last minutes, then over', () => {
    expect(countdownPhase(EXPIRING_SOON_MS + 1)).toBe('running');
    expect(countdownPhase(EXPIRING_SOON_MS)).toBe('soon');
    expect(countdownPhase(1)).toBe('soon');
    expect(countdownPhase(0)).toBe('over');
    expect(countdownPhase(-1)).toBe('over');
  });
});

describe('chunkAddress', () => {
  it('groups of four, the last one shorter; joined again it is the address', () => {
    const address = 'ltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c2rkk4wh';
    const chunks = chunkAddress(address);
    expect(chunks.slice(0, 3)).toEqual(['ltc1', 'qjmx', 'nz78']);
    expect(chunks.every((c) => c.length <= 4)).toBe(true);
    expect(chunks.join('')).toBe(address);
  });

  it('a CashAddr prefix stays one group', () => {
    expect(chunkAddress('bitcoincash:qqyx49mu')).toEqual(['bitcoincash:', 'qqyx', '49mu']);
  });
});

describe('interpolate', () => {
  it('fills placeholders and leaves unknown ones', () => {
    expect(interpolate('{k} of {n} confirmations', { k: 1, n: 2 })).toBe('1 of 2 confirmations');
    expect(interpolate('Pay {merchant} {x}', { merchant: 'Shop' })).toBe('Pay Shop {x}');
  });
});
