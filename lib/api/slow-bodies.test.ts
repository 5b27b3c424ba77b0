import { afterEach, describe, expect, it, vi } from 'vitest';
import { clientKey } from '../security';
import { readInTime, slowBodies } from './slow-bodies';

describe('clientKey', () => {
  it('counts an IPv4 address, mapped or not, as itself', () => {
    expect(clientKey('203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey(undefined)).toBe('unknown');
  });

  it('counts an IPv6 address as its /64, however it is written', () => {
    expect(clientKey('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:0db8:0001:0002:ffff::1')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientKey('::1')).toBe('0:0:0:0::/64');
    expect(clientKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(clientKey('2001:db8:1:2::203.0.113.7')).toBe('2001:db8:1:2::/64');
  });
});

describe('readInTime', () => {
  afterEach(() => vi.useRealTimers());
  const limits = { timeoutMs: 3000, slowPerClient: 2 };

  it('answers a body that is there without counting it as slow', async () => {
    await expect(readInTime(Promise.resolve(Buffer.from('{}')), '192.0.2.1', limits)).resolves.toEqual(
      Buffer.from('{}'),
    );
    expect(slowBodies('192.0.2.1')).toBe(0);
  });

  it('counts a body slow after a second, refuses the address past its bound, and gives up at the time limit', async () => {
    vi.useFakeTimers();
    const never = new Promise<Buffer>(() => {});
    const first = readInTime(never, '192.0.2.2', limits);
    const second = readInTime(never, '192.0.2.2', limits);
    const outcomes = [first, second].map((p) => p.catch((error: Error & { errorName?: string }) => error.errorName));
    expect(slowBodies('192.0.2.2')).toBe(0);
    await vi.advanceTimersByTimeAsync(1000);
    expect(slowBodies('192.0.2.2')).toBe(2);
    await expect(readInTime(never, '192.0.2.2', limits)).rejects.toMatchObject({ errorName: 'TOO_MANY_SLOW_BODIES' });
    expect(slowBodies('192.0.2.3')).toBe(0);
    await vi.advanceTimersByTimeAsync(2000);
    expect(await Promise.all(outcomes)).toEqual(['BODY_TIMEOUT', 'BODY_TIMEOUT']);
    expect(slowBodies('192.0.2.2')).toBe(0);
  });

  it('stops counting a slow body once it has arrived', async () => {
    vi.useFakeTimers();
    let arrive!: (body: Buffer) => void;
    const body = readInTime(new Promise<Buffer>((resolve) => (arrive = resolve)), '192.0.2.4', limits);
    await vi.advanceTimersByTimeAsync(1500);
    expect(slowBodies('192.0.2.4')).toBe(1);
    arrive(Buffer.from('late'));
    await expect(body).resolves.toEqual(Buffer.from('late'));
    expect(slowBodies('192.0.2.4')).toBe(0);
  });
});
