import { BlockList, isIP } from 'node:net';

/**
 * IPv4 ranges no delivery may reach: the IANA IPv4 Special-Purpose Address Registry (RFC 6890 and updates)
 * entries that are not globally reachable, plus multicast (224/4) and reserved-for-future-use with the
 * limited broadcast address (240/4).
 */
const V4_NOT_PUBLIC: [string, number][] = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // shared address space (CGNAT)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata lives here)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast (deprecated)
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and 255.255.255.255 broadcast
];

/**
 * Inside 2000::/3 (the only IPv6 global unicast space), the IANA IPv6 Special-Purpose registry entries
 * that are not globally reachable or that tunnel to an address we cannot see (Teredo).
 */
const V6_NOT_PUBLIC: [string, number][] = [
  ['2001::', 23], // IETF protocol assignments, Teredo 2001::/32 among them
  ['2001:db8::', 32], // documentation
  ['3fff::', 20], // documentation
];

const v4Blocked = new BlockList();
for (const [net, bits] of V4_NOT_PUBLIC) v4Blocked.addSubnet(net, bits, 'ipv4');
const v6Blocked = new BlockList();
for (const [net, bits] of V6_NOT_PUBLIC) v6Blocked.addSubnet(net, bits, 'ipv6');

/** The eight 16-bit groups of an IPv6 address (one isIP accepted), a trailing dotted quad included. */
function groupsOf(address: string): number[] {
  const [head = '', tail] = address.split('::');
  const parse = (part: string) =>
    part === ''
      ? []
      : part.split(':').flatMap((g) => {
          if (!g.includes('.')) return [Number.parseInt(g, 16)];
          const [a = 0, b = 0, c = 0, d = 0] = g.split('.').map(Number);
          return [(a << 8) | b, (c << 8) | d];
        });
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}

const v4Of = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
const zero = (groups: number[]) => groups.every((g) => g === 0);

/**
 * The IPv4 address an IPv6 address stands for, where it embeds one that routing or a translator will
 * reach: IPv4-compatible (::a.b.c.d, :: and ::1 included), IPv4-mapped, NAT64 (64:ff9b::/96), 6to4.
 */
function embeddedV4(g: number[]): string | null {
  const [g0 = 0, g1 = 0, g2 = 0, , , g5 = 0, g6 = 0, g7 = 0] = g;
  if (zero(g.slice(0, 6))) return v4Of(g6, g7);
  if (zero(g.slice(0, 5)) && g5 === 0xffff) return v4Of(g6, g7);
  if (g0 === 0x64 && g1 === 0xff9b && zero(g.slice(2, 6))) return v4Of(g6, g7);
  if (g0 === 0x2002) return v4Of(g1, g2);
  return null;
}

/**
 * True only for an address on the public internet. Anything else (loopback, private, link-local, site-local
 * fec0::/10, unique-local, multicast, broadcast, benchmarking, documentation, and IPv6 forms that carry a
 * private IPv4 address) is refused, as is anything that is not an IP address.
 */
export function isPublicAddress(address: string): boolean {
  const ip = address.replace(/^\[|\]$/g, '');
  const version = isIP(ip);
  if (version === 4) return !v4Blocked.check(ip, 'ipv4');
  // A zone id (%eth0) only qualifies link-local addresses.
  if (version !== 6 || ip.includes('%')) return false;
  const groups = groupsOf(ip.toLowerCase());
  const v4 = embeddedV4(groups);
  if (v4 !== null) return !v4Blocked.check(v4, 'ipv4');
  // 2000::/3: fc00::/7, fe80::/10, fec0::/10, ff00::/8, 64:ff9b:1::/48 and every other prefix fall outside.
  if (((groups[0] ?? 0) & 0xe000) !== 0x2000) return false;
  return !v6Blocked.check(ip, 'ipv6');
}
