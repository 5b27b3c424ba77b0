import { describe, expect, it } from 'vitest';
import { checkTarget, embeddedIPv4, forbiddenRange, type Resolver } from './ssrf';

process.env.APP_SECRET ??= 'test-app-secret-that-is-at-least-32-characters';

describe('forbiddenRange', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['0.0.0.0', 'this network'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['100.127.255.254', 'carrier-grade NAT'],
    ['169.254.169.254', 'cloud metadata'],
    ['169.254.1.1', 'link-local'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fd00:ec2::254', 'cloud metadata'],
    ['fc00::1', 'unique local (private)'],
    ['fdff:ffff::1', 'unique local (private)'],
    ['fe80::1', 'link-local'],
    ['::ffff:127.0.0.1', 'loopback (embedded IPv4 127.0.0.1)'],
    ['::ffff:7f00:1', 'loopback (embedded IPv4 127.0.0.1)'],
    ['::ffff:10.0.0.1', 'private (embedded IPv4 10.0.0.1)'],
    ['::ffff:169.254.169.254', 'cloud metadata (embedded IPv4 169.254.169.254)'],
    ['::10.0.0.1', 'private (embedded IPv4 10.0.0.1)'],
    ['64:ff9b::a9fe:a9fe', 'cloud metadata (embedded IPv4 169.254.169.254)'],
    ['2002:c0a8:0101::1', 'private (embedded IPv4 192.168.1.1)'],
  ])('%s is refused (%s)', (address, why) => {
    expect(forbiddenRange(address)).toBe(why);
  });

  it.each([
    '93.184.216.34',
    '8.8.8.8',
    '172.32.0.1',
    '100.128.0.1',
    '169.255.0.1',
    '2606:4700::1111',
    '::ffff:93.184.216.34',
    '2002:5db8:d822::1',
  ])('%s is a public address', (address) => {
    expect(forbiddenRange(address)).toBeUndefined();
  });

  it('reads the IPv4 address embedded in IPv6 forms', () => {
    expect(embeddedIPv4('::ffff:0a00:0001')).toBe('10.0.0.1');
    expect(embeddedIPv4('2606:4700::1111')).toBeUndefined();
    expect(embeddedIPv4('::1')).toBeUndefined();
  });
});

describe('checkTarget', () => {
  const names: Record<string, string[]> = {
    'shop.example': ['93.184.216.34'],
    'mixed.example': ['93.184.216.34', '10.1.2.3'],
    'local.example': ['127.0.0.1'],
  };
  const resolver: Resolver = async (host) =>
    (names[host] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  const strict = { allowPrivate: false, allowed: [], resolver };

  it('allows a public name and answers the address to connect to', async () => {
    expect(await checkTarget('https://shop.example/hooks?k=1', strict)).toEqual({
      ok: true,
      host: 'shop.example',
      port: 443,
      protocol: 'https:',
      address: { address: '93.184.216.34', family: 4 },
    });
  });

  it('refuses a name when any of its addresses is private', async () => {
    expect(await checkTarget('http://mixed.example/', strict)).toMatchObject({
      ok: false,
      reason: expect.stringContaining('10.1.2.3 (private)'),
    });
  });

  it('refuses what is not an http(s) URL without credentials', async () => {
    expect(await checkTarget('ftp://shop.example/', strict)).toMatchObject({ ok: false });
    expect(await checkTarget('http://user:pw@shop.example/', strict)).toMatchObject({ ok: false });
    expect(await checkTarget('not a url', strict)).toMatchObject({ ok: false });
  });

  it('allows private targets by CIDR, by host name, by the own origin, or all of them', async () => {
    expect(await checkTarget('http://local.example:8080/', strict)).toMatchObject({ ok: false });
    expect(await checkTarget('http://local.example:8080/', { ...strict, allowed: ['127.0.0.0/8'] })).toMatchObject({
      ok: true,
      port: 8080,
    });
    expect(await checkTarget('http://local.example:8080/', { ...strict, allowed: ['LOCAL.example'] })).toMatchObject({
      ok: true,
    });
    expect(
      await checkTarget('http://local.example:8080/', { ...strict, ownOrigin: 'http://local.example:8080' }),
    ).toMatchObject({ ok: true });
    expect(
      await checkTarget('http://local.example:8081/', { ...strict, ownOrigin: 'http://local.example:8080' }),
    ).toMatchObject({ ok: false });
    expect(await checkTarget('http://10.0.0.1/', { ...strict, allowPrivate: true })).toMatchObject({ ok: true });
    expect(await checkTarget('http://[::ffff:10.0.0.1]/', { ...strict, allowed: ['10.0.0.0/8'] })).toMatchObject({
      ok: true,
    });
    expect(await checkTarget('http://[::ffff:10.0.0.1]/', strict)).toMatchObject({ ok: false });
  });

  it('connects to an IPv4 address when the name has one (localhost answers ::1 too)', async () => {
    const both: Resolver = async () => [
      { address: '::1', family: 6 },
      { address: '127.0.0.1', family: 4 },
    ];
    expect(
      await checkTarget('http://localhost:3000/', {
        allowPrivate: false,
        allowed: [],
        ownOrigin: 'http://localhost:3000',
        resolver: both,
      }),
    ).toMatchObject({
      ok: true,
      address: { address: '127.0.0.1', family: 4 },
    });
  });

  it('throws (a network error, retried) when the name does not resolve', async () => {
    await expect(checkTarget('http://nowhere.example/', strict)).rejects.toThrow(/no address/);
  });
});

describe('webhook configuration', () => {
  it('refuses by default, and checks WEBHOOK_ALLOWED_TARGETS entry by entry', async () => {
    const { parseConfig } = await import('../config/schema');
    expect(parseConfig({})).toMatchObject({
      webhookAllowPrivateTargets: false,
      webhookAllowedTargets: [],
      webhookTimeoutMs: 10_000,
    });
    expect(
      parseConfig({ WEBHOOK_ALLOWED_TARGETS: '10.0.0.0/8, hooks.internal fd00::/8 127.0.0.1' }).webhookAllowedTargets,
    ).toEqual(['10.0.0.0/8', 'hooks.internal', 'fd00::/8', '127.0.0.1']);
    for (const bad of ['10.0.0.0/33', 'http://x', '10.0.0.0/8/1', 'fd00::/129']) {
      expect(() => parseConfig({ WEBHOOK_ALLOWED_TARGETS: bad }), bad).toThrow(/WEBHOOK_ALLOWED_TARGETS/);
    }
    expect(() => parseConfig({ WEBHOOK_TIMEOUT_MS: '50' })).toThrow(/WEBHOOK_TIMEOUT_MS/);
  });
});
