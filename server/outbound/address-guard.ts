import { BlockList, isIPv4, isIPv6 } from "node:net";
import ipaddr from "ipaddr.js";

/**
 * Addresses a request to a host someone else named must never reach: this machine, private and carrier networks,
 * link-local (where cloud metadata services answer, 169.254.169.254, fd00:ec2::254), documentation, multicast and
 * reserved ranges. A tokenURI is chosen by whoever deployed the contract and a webhook endpoint by whoever subscribed:
 * both are untrusted input.
 */
const FORBIDDEN = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8], // "this network"; 0.0.0.0 reaches the local host
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT (also Alibaba's metadata service, 100.100.100.200)
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local, cloud metadata services
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
] as const) {
  FORBIDDEN.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 96], // unspecified, loopback, IPv4-compatible
  ["::ffff:0:0:0", 96], // IPv4-translated (SIIT)
  ["64:ff9b:1::", 48], // local-use NAT64
  ["100::", 64], // discard
  ["100:0:0:1::", 64], // dummy prefix
  ["2001::", 32], // Teredo (embeds an obfuscated IPv4)
  ["2001:2::", 48], // benchmarking
  ["2001:10::", 28], // ORCHID (deprecated)
  ["2001:db8::", 32], // documentation
  ["3fff::", 20], // documentation
  ["5f00::", 16], // segment routing (SRv6) SIDs
  ["fc00::", 7], // unique local (fd00:ec2::254: AWS's metadata service)
  ["fe80::", 10], // link-local
  ["fec0::", 10], // site-local (deprecated)
  ["ff00::", 8], // multicast
] as const) {
  FORBIDDEN.addSubnet(network, prefix, "ipv6");
}

/** The IPv4 address an IPv6 one carries (IPv4-mapped ::ffff:a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16). */
function embeddedIPv4(address: string): string | undefined {
  const groups = expandIPv6(address);
  if (!groups) return undefined;
  const v4 = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) return v4(groups[6], groups[7]);
  if (groups[0] === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((g) => g === 0)) return v4(groups[6], groups[7]);
  if (groups[0] === 0x2002) return v4(groups[1], groups[2]);
  return undefined;
}

/**
 * IPv4-mapped ::ffff:0:0/96, which is never a public IPv6 host (a name resolving to one is refused whatever IPv4
 * address it carries). Not in the BlockList: Node's BlockList matches IPv4 addresses against such a subnet too.
 */
function isIPv4Mapped(address: string): boolean {
  const groups = expandIPv6(address);
  return groups !== undefined && groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
}

/** The eight 16-bit groups of an IPv6 address (a dotted IPv4 tail and a zone included). */
function expandIPv6(address: string): number[] | undefined {
  return ipaddr.IPv6.isValid(address) ? ipaddr.IPv6.parse(address).parts : undefined;
}

/** Why `address` (an IP literal) may not be reached, or undefined when it is a public address. */
export function forbiddenAddress(address: string): string | undefined {
  const bare = address.replace(/^\[|\]$/g, "");
  if (isIPv4(bare)) return FORBIDDEN.check(bare, "ipv4") ? `${bare} is a loopback, private, link-local or reserved address` : undefined;
  if (isIPv6(bare)) {
    const v4 = embeddedIPv4(bare);
    if (FORBIDDEN.check(bare, "ipv6") || isIPv4Mapped(bare) || (v4 !== undefined && FORBIDDEN.check(v4, "ipv4"))) {
      return `${bare} is a loopback, private, link-local or reserved address`;
    }
    return undefined;
  }
  return `${address} is not an IP address`;
}
