/**
 * Which network addresses pagegrade may connect to. Only public unicast addresses pass by default: the
 * service fetches URLs that strangers type, so loopback, private, link-local, CGNAT, multicast, documentation,
 * NAT64 and every other special-purpose range is refused. IPv4-mapped IPv6 addresses are judged as the IPv4
 * address they carry.
 */
import ipaddr from "ipaddr.js";
import { parseRange, unwrapMapped } from "../../ip-range.js";

export interface AddressPolicyOptions {
  /** Testing aid (PAGEGRADE_ALLOW_PRIVATE_NETWORKS): permit every address, loopback included. */
  allowPrivateNetworks: boolean;
  /** Operator allow-list of CIDR ranges that are permitted although not public (PAGEGRADE_ALLOWED_ADDRESSES). */
  allowedRanges: readonly string[];
}

export type AddressVerdict = { permitted: true } | { permitted: false; range: string };

export class AddressPolicy {
  private readonly allowed: Array<[ipaddr.IPv4 | ipaddr.IPv6, number]>;

  constructor(private readonly options: AddressPolicyOptions) {
    this.allowed = options.allowedRanges.map((cidr) => parseRange(cidr));
  }

  judge(address: string): AddressVerdict {
    if (this.options.allowPrivateNetworks) return { permitted: true };
    if (!ipaddr.isValid(address)) return { permitted: false, range: "invalid" };
    const parsed = unwrapMapped(ipaddr.parse(address));
    for (const [network, bits] of this.allowed) {
      if (network.kind() === parsed.kind() && parsed.match(network, bits)) return { permitted: true };
    }
    const range = publicRange(parsed);
    return range === "unicast" ? { permitted: true } : { permitted: false, range };
  }
}

/** "unicast" for a public unicast address, otherwise the name of the special range it falls in. */
function publicRange(address: ipaddr.IPv4 | ipaddr.IPv6): string {
  const range = address.range();
  if (range !== "unicast") return range;
  if (address.kind() === "ipv6") {
    // Only 2000::/3 is allocated as global unicast; everything else (including the deprecated
    // IPv4-compatible ::/96 and NAT64's 64:ff9b::/96) is special-purpose.
    const [first] = (address as ipaddr.IPv6).parts;
    if (first === undefined || first < 0x2000 || first > 0x3fff) return "reserved";
  }
  return range;
}
