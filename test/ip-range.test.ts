import { describe, expect, it } from "vitest";
import { parseRange } from "../src/ip-range.js";

describe("parseRange", () => {
  it("reads a single address as a range of one", () => {
    const [v4, v4Bits] = parseRange("127.0.0.2");
    expect([v4.toString(), v4Bits]).toEqual(["127.0.0.2", 32]);
    const [v6, v6Bits] = parseRange("fd00::1");
    expect([v6.toString(), v6Bits]).toEqual(["fd00::1", 128]);
  });

  it("reads IPv4-mapped IPv6 addresses and ranges as the IPv4 they carry", () => {
    const [single, singleBits] = parseRange("::ffff:192.168.1.1");
    expect([single.kind(), single.toString(), singleBits]).toEqual(["ipv4", "192.168.1.1", 32]);
    const [network, bits] = parseRange("::ffff:10.8.0.0/112");
    expect([network.kind(), network.toString(), bits]).toEqual(["ipv4", "10.8.0.0", 16]);
  });

  it("rejects malformed allow-list entries", () => {
    expect(() => parseRange("10.0.0.0/99")).toThrow('"10.0.0.0/99" is not an IP address or CIDR range');
    expect(() => parseRange("example.com")).toThrow('"example.com" is not an IP address or CIDR range');
  });
});
