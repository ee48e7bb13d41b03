import { BlockList, isIP } from "node:net";

/**
 * Addresses that are not the public internet: loopback, private (RFC 1918, unique local),
 * carrier-grade NAT, link-local (cloud metadata services live there), multicast, unspecified and
 * reserved ranges, and IPv4 addresses mapped or embedded in IPv6.
 */
const LOCAL = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const)
  LOCAL.addSubnet(network, prefix, "ipv4");
for (const [network, prefix] of [
  ["::", 127],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
  ["64:ff9b::", 96],
] as const)
  LOCAL.addSubnet(network, prefix, "ipv6");

/** Whether `address` (an IP literal) is on a local network; anything that is not an IP counts as local. */
export function isLocalAddress(address: string): boolean {
  const ip = address.replace(/^\[|\]$/g, "");
  const family = isIP(ip);
  if (family === 4) return LOCAL.check(ip, "ipv4");
  if (family !== 6) return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped !== null) return LOCAL.check(mapped[1] as string, "ipv4");
  return LOCAL.check(ip, "ipv6");
}
