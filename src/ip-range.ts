/**
 * IP addresses and CIDR ranges as operators write them (PAGEGRADE_ALLOWED_ADDRESSES): parsed here, at the bottom,
 * so the configuration can refuse a bad entry at start-up and the address policy can use the same reading.
 * IPv4-mapped IPv6 addresses and ranges are read as the IPv4 they carry.
 */
import ipaddr from "ipaddr.js";

/** Parses an allow-list entry ("127.0.0.2", "10.1.0.0/16", "fd00::/8"); throws with a readable message. */
export function parseRange(cidr: string): [ipaddr.IPv4 | ipaddr.IPv6, number] {
  try {
    if (cidr.includes("/")) {
      const [network, bits] = ipaddr.parseCIDR(cidr);
      return [unwrapMapped(network), network.kind() === "ipv6" && isMapped(network) ? bits - 96 : bits];
    }
    const single = unwrapMapped(ipaddr.parse(cidr));
    return [single, single.kind() === "ipv4" ? 32 : 128];
  } catch {
    throw new Error(`"${cidr}" is not an IP address or CIDR range`);
  }
}

function isMapped(address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  return address.kind() === "ipv6" && (address as ipaddr.IPv6).isIPv4MappedAddress();
}

export function unwrapMapped(address: ipaddr.IPv4 | ipaddr.IPv6): ipaddr.IPv4 | ipaddr.IPv6 {
  return isMapped(address) ? (address as ipaddr.IPv6).toIPv4Address() : address;
}
