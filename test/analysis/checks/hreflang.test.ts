import { describe, expect, it } from "vitest";
import { hreflang } from "../../../src/analysis/checks/hreflang.js";
import { doc, pageFrom, run } from "../../helpers/page.js";

const alt = (code: string, href: string) => `<link rel="alternate" hreflang="${code}" href="${href}">`;

describe("hreflang", () => {
  it("passes valid codes with absolute URLs", () => {
    const head =
      alt("en", "https://example.com/en") +
      alt("pt-BR", "https://example.com/br") +
      alt("x-default", "https://example.com/");
    expect(run(hreflang, pageFrom(doc("", head))).status).toBe("pass");
  });
  it("fails and lists bad codes and relative URLs", () => {
    const result = run(
      hreflang,
      pageFrom(doc("", alt("en_US", "https://example.com/us") + alt("de", "/de"))),
    );
    expect(result.status).toBe("fail");
    expect(result.items?.map((item) => item.problem)).toEqual([
      '"en_US" is not a valid language code',
      "the URL is not absolute",
    ]);
  });
  it("does not apply without alternates", () => {
    expect(run(hreflang, pageFrom(doc(""))).status).toBe("na");
  });
  it("says an empty code or href is empty", () => {
    const result = run(hreflang, pageFrom(doc("", alt("", "https://example.com/en") + alt("de", ""))));
    expect(result.status).toBe("fail");
    expect(result.items?.map((item) => item.problem)).toEqual(["the hreflang is empty", "the href is empty"]);
  });
});
