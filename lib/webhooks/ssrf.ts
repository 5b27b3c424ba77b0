import 'server-only';
/**
 * Where a webhook may go. A merchant (or anyone holding a merchant's key) chooses the URL, and the
 * gateway makes the request from inside the operator's network: without a guard a webhook could
 * reach the cloud metadata service, a database's admin port or anything else on the private
 * network. So the host is resolved here, EVERY address it resolves to is checked (a name that
 * answers one public and one private address is refused), and the request is then made to the
 * checked address itself (lib/webhooks/http.ts pins it through `lookup`): a DNS answer that
 * changes between the check and the connection (DNS rebinding) cannot bypass the check.
 *
 * Refused: loopback, private (RFC 1918, unique-local), link-local, CGNAT (100.64/10), "this
 * network" (0/8), multicast and reserved ranges, the cloud metadata addresses, and IPv6 forms
 * that embed one of those IPv4 addresses (IPv4-mapped, IPv4-compatible, 6to4, NAT64).
 * Allowed anyway: the gateway's own origin (PUBLIC_BASE_URL, so its demo store gets its
 * webhooks), the hosts and ranges of WEBHOOK_ALLOWED_TARGETS, and everything with
 * WEBHOOK_ALLOW_PRIVATE_TARGETS=true.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP, isIPv4 } from 'node:net';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to all of its addresses (node:dns lookup, as the OS would). */
export type Resolver = (host: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = async (host) => {
  const answers = await dnsLookup(host, { all: true, verbatim: true });
  return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

export interface TargetPolicy {
  /** WEBHOOK_ALLOW_PRIVATE_TARGETS: every address is allowed. */
  allowPrivate: boolean;
  /** WEBHOOK_ALLOWED_TARGETS: host names (exact, case-insensitive), IP addresses and CIDR ranges. */
  allowed: readonly string[];
  /** The gateway's own origin (scheme://host:port of PUBLIC_BASE_URL), always allowed. */
  ownOrigin?: string;
  resolver?: Resolver;
}

export type TargetCheck =
  | { ok: true; host: string; port: number; protocol: 'http:' | 'https:'; address: ResolvedAddress }
  | { ok: false; reason: string };

/** Ranges a webhook is never sent to unless allowed; the name says why in the delivery log. */
const FORBIDDEN_V4: [string, number, string][] = [
  ['0.0.0.0', 8, 'this network'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'carrier-grade NAT'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.169.254', 32, 'cloud metadata'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'IETF protocol assignments'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
];
const FORBIDDEN_V6: [string, number, string][] = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['fd00:ec2::254', 128, 'cloud metadata'],
  ['fc00::', 7, 'unique local (private)'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'site-local'],
  ['ff00::', 8, 'multicast'],
  ['2001:db8::', 32, 'documentation'],
  ['100::', 64, 'discard'],
];

/** Finds the first range of `entries` holding an address, by name. */
function rangeNamer(
  entries: [string, number, string][],
  family: 'ipv4' | 'ipv6',
): (address: string) => string | undefined {
  const lists = entries.map(([net, bits, name]) => {
    const list = new BlockList();
    list.addSubnet(net, bits, family);
    return { list, name };
  });
  return (address) => lists.find((l) => l.list.check(address, family))?.name;
}

const v4Range = rangeNamer(FORBIDDEN_V4, 'ipv4');
const v6Range = rangeNamer(FORBIDDEN_V6, 'ipv6');

/** The 16 bytes of an IPv6 address (any textual form node accepts, including a dotted IPv4 tail). */
function ipv6Bytes(address: string): Buffer {
  let text = address.toLowerCase().split('%')[0]!;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split('.').map(Number) as [number, number, number, number];
    text = text.slice(0, -dotted[1]!.length) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const headParts = head ? head.split(':') : [];
  const tailParts = tail ? tail.split(':') : [];
  const missing = 8 - headParts.length - tailParts.length;
  const groups = [...headParts, ...Array<string>(tail === undefined ? 0 : missing).fill('0'), ...tailParts];
  const bytes = Buffer.alloc(16);
  groups.forEach((g, i) => bytes.writeUInt16BE(Number.parseInt(g || '0', 16), i * 2));
  return bytes;
}

function v4From(bytes: Buffer, offset: number): string {
  return [...bytes.subarray(offset, offset + 4)].join('.');
}

/**
 * The IPv4 address an IPv6 address stands for, when it embeds one: IPv4-mapped (::ffff:a.b.c.d),
 * IPv4-compatible (::a.b.c.d), NAT64 (64:ff9b::/96) and 6to4 (2002:aabb:ccdd::/48).
 */
export function embeddedIPv4(address: string): string | undefined {
  const bytes = ipv6Bytes(address);
  const zeros = (from: number, to: number) => bytes.subarray(from, to).every((b) => b === 0);
  if (zeros(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) return v4From(bytes, 12);
  if (zeros(0, 12) && !zeros(12, 16) && !(zeros(12, 15) && bytes[15] === 1)) return v4From(bytes, 12);
  if (bytes.readUInt16BE(0) === 0x64 && bytes.readUInt16BE(2) === 0xff9b && zeros(4, 12)) return v4From(bytes, 12);
  if (bytes.readUInt16BE(0) === 0x2002) return v4From(bytes, 2);
  return undefined;
}

/** Why `address` must not be reached (its range's name), or undefined when it is a public address. */
export function forbiddenRange(address: string): string | undefined {
  const family = isIP(address);
  if (family === 4) return v4Range(address);
  if (family !== 6) return 'not an IP address';
  const v4 = embeddedIPv4(address);
  if (v4) {
    const why = v4Range(v4);
    if (why) return `${why} (embedded IPv4 ${v4})`;
  }
  return v6Range(address);
}

/** The allow-list of WEBHOOK_ALLOWED_TARGETS split into host names and address ranges. */
function compileAllowed(patterns: readonly string[]): { hosts: Set<string>; ranges: BlockList } {
  const hosts = new Set<string>();
  const ranges = new BlockList();
  for (const pattern of patterns) {
    const [address, bits] = pattern.split('/');
    const family = isIP(address!);
    if (family === 0) hosts.add(pattern.toLowerCase());
    else if (bits === undefined) ranges.addAddress(address!, family === 4 ? 'ipv4' : 'ipv6');
    else ranges.addSubnet(address!, Number(bits), family === 4 ? 'ipv4' : 'ipv6');
  }
  return { hosts, ranges };
}

function inRanges(ranges: BlockList, address: string): boolean {
  const family = isIPv4(address) ? 'ipv4' : 'ipv6';
  if (ranges.check(address, family)) return true;
  const v4 = family === 'ipv6' ? embeddedIPv4(address) : undefined;
  return v4 !== undefined && ranges.check(v4, 'ipv4');
}

function defaultPort(protocol: string): number {
  return protocol === 'https:' ? 443 : 80;
}

/**
 * Checks a webhook URL and answers the address to connect to, or why the target is refused.
 * Throws only when the name does not resolve (a network error: worth retrying).
 */
export async function checkTarget(rawUrl: string, policy: TargetPolicy): Promise<TargetCheck> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return { ok: false, reason: 'not a valid URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { ok: false, reason: `scheme ${url.protocol} is not http or https` };
  if (url.username || url.password) return { ok: false, reason: 'credentials in the URL are not sent' };
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const port = url.port ? Number(url.port) : defaultPort(url.protocol);
  const protocol = url.protocol;
  const allowed = compileAllowed(policy.allowed);
  const trusted =
    policy.allowPrivate ||
    allowed.hosts.has(host) ||
    (policy.ownOrigin !== undefined && url.origin === policy.ownOrigin);

  const literal = isIP(host);
  const addresses: ResolvedAddress[] = literal
    ? [{ address: host, family: literal === 6 ? 6 : 4 }]
    : await (policy.resolver ?? systemResolver)(host);
  if (addresses.length === 0) throw new Error(`${host} has no address`);
  if (!trusted) {
    for (const { address } of addresses) {
      const why = forbiddenRange(address);
      if (why && !inRanges(allowed.ranges, address)) {
        return { ok: false, reason: `${host} resolves to ${address} (${why}); allow it with WEBHOOK_ALLOWED_TARGETS` };
      }
    }
  }
  // IPv4 first, as Node's own lookup used to: `localhost` answers ::1 too, and a server listening on
  // 127.0.0.1 (the gateway's default) is not reachable there.
  return { ok: true, host, port, protocol, address: addresses.find((a) => a.family === 4) ?? addresses[0]! };
}
