import { describe, expect, it } from 'vitest';
import { clientAddressOf, clientKey } from './client-address';

describe('clientAddressOf', () => {
  it('is the connection peer when no proxy is trusted, whatever X-Forwarded-For says', () => {
    expect(clientAddressOf('203.0.113.7', undefined, [])).toBe('203.0.113.7');
    expect(clientAddressOf('203.0.113.7', '198.51.100.1', [])).toBe('203.0.113.7');
    expect(clientAddressOf('::ffff:127.0.0.1', '10.9.9.9', [])).toBe('127.0.0.1');
    expect(clientAddressOf(undefined, '10.9.9.9', [])).toBeUndefined();
  });

  it("reads X-Forwarded-For from the right, through trusted proxies only: a client's own entries are never reached", () => {
    const proxies = ['10.0.0.5', '192.168.0.0/16'];
    // nginx with $proxy_add_x_forwarded_for: the client's forged entry, then the address the proxy saw.
    expect(clientAddressOf('10.0.0.5', '1.1.1.1, 203.0.113.7', proxies)).toBe('203.0.113.7');
    // nginx with $remote_addr (the docs' setting): only the address the proxy saw.
    expect(clientAddressOf('10.0.0.5', '203.0.113.7', proxies)).toBe('203.0.113.7');
    // Two trusted hops (a load balancer in front of the proxy).
    expect(clientAddressOf('10.0.0.5', '1.1.1.1, 203.0.113.7, 192.168.3.4', proxies)).toBe('203.0.113.7');
    // A peer that is not a trusted proxy: its header is the client's own word.
    expect(clientAddressOf('203.0.113.9', '10.0.0.5, 192.168.3.4', proxies)).toBe('203.0.113.9');
    // A trusted proxy that forwarded nothing (or nothing readable) is the client as far as anyone knows.
    expect(clientAddressOf('10.0.0.5', undefined, proxies)).toBe('10.0.0.5');
    expect(clientAddressOf('10.0.0.5', 'unknown', proxies)).toBe('10.0.0.5');
    expect(clientAddressOf('10.0.0.5', 'evil, 192.168.1.1', proxies)).toBe('192.168.1.1');
  });

  it('takes ports, brackets, mapped and IPv6 addresses as they come', () => {
    expect(clientAddressOf('::ffff:10.0.0.5', '203.0.113.7:51234', ['10.0.0.5'])).toBe('203.0.113.7');
    expect(clientAddressOf('10.0.0.5', '[2001:db8::1]:443', ['10.0.0.5'])).toBe('2001:db8::1');
    expect(clientAddressOf('fd00::2', ' 2001:db8::7 ', ['fd00::/8'])).toBe('2001:db8::7');
    expect(clientAddressOf('fd00::2', '2001:db8::7', ['10.0.0.0/8'])).toBe('fd00::2');
  });
});

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
