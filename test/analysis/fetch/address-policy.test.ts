import { describe, expect, it } from "vitest";
import { AddressPolicy } from "../../../src/analysis/fetch/address-policy.js";

const strict = new AddressPolicy({ allowPrivateNetworks: false, allowedRanges: [] });

describe("AddressPolicy", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["0.0.0.0", "unspecified"],
    ["10.1.2.3", "private"],
    ["172.31.255.255", "private"],
    ["192.168.0.1", "private"],
    ["169.254.169.254", "linkLocal"],
    ["100.64.0.1", "carrierGradeNat"],
    ["224.0.0.251", "multicast"],
    ["255.255.255.255", "broadcast"],
    ["192.0.2.1", "reserved"],
    ["198.18.0.1", "reserved"],
    ["::1", "loopback"],
    ["::", "unspecified"],
    ["::ffff:10.0.0.1", "private"],
    ["64:ff9b::a00:1", "rfc6052"],
    ["fe80::1", "linkLocal"],
    ["fc00::1", "uniqueLocal"],
    ["ff02::1", "multicast"],
    ["2001:db8::1", "reserved"],
    ["2002:a00:1::", "6to4"],
    ["2001::1", "teredo"],
    ["::a00:1", "reserved"],
  ])("refuses %s (%s)", (address, range) => {
    expect(strict.judge(address)).toEqual({ permitted: false, range });
  });

  it.each(["93.184.215.14", "8.8.8.8", "2606:4700:4700::1111", "::ffff:8.8.8.8"])(
    "permits public %s",
    (address) => {
      expect(strict.judge(address)).toEqual({ permitted: true });
    },
  );

  it("permits everything in testing mode, and allow-listed ranges otherwise", () => {
    expect(
      new AddressPolicy({ allowPrivateNetworks: true, allowedRanges: [] }).judge("127.0.0.1").permitted,
    ).toBe(true);
    const listed = new AddressPolicy({
      allowPrivateNetworks: false,
      allowedRanges: ["10.8.0.0/16", "::ffff:192.168.1.1"],
    });
    expect(listed.judge("10.8.3.4").permitted).toBe(true);
    expect(listed.judge("10.9.0.1").permitted).toBe(false);
    expect(listed.judge("192.168.1.1").permitted).toBe(true);
  });
});
