import ipaddr from "ipaddr.js";

/**
 * Who asks, for the quotas: the client's IP address, an IPv6 address by its /64 (one subscriber usually has a whole
 * /64, and counting each of its addresses apart would multiply the quota by 2^64). An IPv4-mapped address counts as
 * its IPv4 address.
 */
export function requesterOf(ip: string): string {
  if (!ipaddr.IPv6.isValid(ip)) return ip;
  const address = ipaddr.IPv6.parse(ip);
  if (address.isIPv4MappedAddress()) return address.toIPv4Address().toString();
  return `${address.parts
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(":")}::/64`;
}
