import { BlockList, isIP, isIPv4 } from 'node:net';

/**
 * Whom a request came from, for per-client limits (the merchant API's slow bodies, the dashboard's
 * sign-in throttle) and the audit log. The connection's peer, unless that peer is one of the
 * reverse proxies named in TRUSTED_PROXIES: then the address that proxy put last in
 * X-Forwarded-For, and so on while each hop is itself a trusted proxy. Only hops vouched for by a
 * trusted proxy are read, from the right: whatever a client wrote into X-Forwarded-For itself
 * stands to the left of them and is never reached, so a forged header earns nothing.
 */
/** The header the gateway's HTTP server (scripts/lib/http-server.mjs) sets to the connection's peer, over anything a client sent. */
export const PEER_HEADER = 'x-gateway-peer';

/** The client of a request the gateway's HTTP server received: clientAddressOf over its headers. */
export function clientOfRequest(
  requestHeaders: Pick<Headers, 'get'>,
  trustedProxies: readonly string[],
): string | undefined {
  return clientAddressOf(requestHeaders.get(PEER_HEADER), requestHeaders.get('x-forwarded-for'), trustedProxies);
}

export function clientAddressOf(
  peer: string | undefined | null,
  forwardedFor: string | undefined | null,
  trustedProxies: readonly string[],
): string | undefined {
  let current = plainAddress(peer);
  if (current === undefined || trustedProxies.length === 0) return current;
  const trusted = proxyList(trustedProxies);
  const hops = (forwardedFor ?? '').split(',');
  while (hops.length > 0 && isTrusted(trusted, current)) {
    const hop = plainAddress(withoutPort(hops.pop()!.trim()));
    // A hop that is no address (a proxy that writes names, or garbage): the last address a trusted
    // proxy vouched for is the client as far as anyone can tell.
    if (hop === undefined) break;
    current = hop;
  }
  return current;
}

/**
 * Whom a client is counted as: an IPv4 address, or an IPv6 /64, the network one subscriber gets
 * (an attacker has all of it, so counting single addresses would bound nothing).
 */
export function clientKey(address: string | undefined | null): string {
  const plain = plainAddress(address);
  if (plain === undefined) return address ? address : 'unknown';
  if (isIPv4(plain)) return plain;
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

/** An IP address as compared: its IPv6 zone dropped (it names an interface), an IPv4-mapped one as IPv4; undefined for anything else. */
function plainAddress(address: string | undefined | null): string | undefined {
  if (!address) return undefined;
  const plain = address.split('%')[0]!;
  if (plain.toLowerCase().startsWith('::ffff:') && isIPv4(plain.slice(7))) return plain.slice(7);
  return isIP(plain) === 0 ? undefined : plain;
}

/** `203.0.113.7:51234` and `[2001:db8::1]:443` (some proxies add the client's port) without it. */
function withoutPort(hop: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(hop);
  if (bracketed) return bracketed[1]!;
  const v4 = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(hop);
  return v4 ? v4[1]! : hop;
}

/** TRUSTED_PROXIES compiled once per list (the configuration's list lives as long as the process). */
const compiled = new WeakMap<readonly string[], BlockList>();

function proxyList(entries: readonly string[]): BlockList {
  let list = compiled.get(entries);
  if (!list) {
    list = new BlockList();
    for (const entry of entries) {
      const [address = '', bits] = entry.split('/');
      const family = isIPv4(address) ? 'ipv4' : 'ipv6';
      if (bits === undefined) list.addAddress(address, family);
      else list.addSubnet(address, Number(bits), family);
    }
    compiled.set(entries, list);
  }
  return list;
}

function isTrusted(list: BlockList, address: string): boolean {
  return list.check(address, isIPv4(address) ? 'ipv4' : 'ipv6');
}
