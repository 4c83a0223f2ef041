import { describe, expect, it } from "vitest";
import { redirects } from "../../../src/analysis/checks/redirects.js";
import { doc, pageFrom, run } from "../../helpers/page.js";

const hops = (count: number) =>
  Array.from({ length: count }, (_, i) => ({
    url: `https://example.com/${i}`,
    status: 301,
    location: `https://example.com/${i + 1}`,
  }));
const withHops = (count: number) =>
  run(redirects, pageFrom(doc(""), { response: { redirects: hops(count) } }));

describe("redirects", () => {
  it("passes up to one redirect, warns on two, fails on three or more", () => {
    expect([withHops(0), withHops(1), withHops(2), withHops(3)].map((result) => result.status)).toEqual([
      "pass",
      "pass",
      "warn",
      "fail",
    ]);
  });
  it("lists the hops in value", () => {
    expect(withHops(2).value).toEqual(hops(2));
  });
});
