import { isIPv4, isIPv6 } from 'node:net';

/**
 * Whom a client address counts as, for the limits per client (slow API bodies, lib/api; invoices
 * from payment links, lib/links): an IPv4 address, or an IPv6 /64, the network one subscriber gets
 * (an attacker has all of it, so counting single addresses would bound nothing).
 */
export function clientKey(address: string | undefined): string {
  if (!address) return 'unknown';
  const plain = address.split('%')[0]!; // an IPv6 zone (fe80::1%eth0) names the interface, not the peer
  if (plain.toLowerCase().startsWith('::ffff:') && isIPv4(plain.slice(7))) return plain.slice(7);
  if (!isIPv6(plain)) return plain;
  const [head = '', tail] = plain.split('::');
  const groups = head ? head.split(':') : [];
  if (tail !== undefined) {
    const tailGroups = tail ? tail.split(':').flatMap((g) => (g.includes('.') ? ['0', '0'] : [g])) : [];
    groups.push(...Array<string>(Math.max(0, 8 - groups.length - tailGroups.length)).fill('0'), ...tailGroups);
  }
  return `${groups
    .slice(0, 4)
    .map((g) => Number.parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}
