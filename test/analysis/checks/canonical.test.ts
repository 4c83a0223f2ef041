import { describe, expect, it } from "vitest";
import { canonical } from "../../../src/analysis/checks/canonical.js";
import { doc, pageFrom, run } from "../../helpers/page.js";

const link = (href: string) => `<link rel="canonical" href="${href}">`;

describe("canonical", () => {
  it("passes one absolute canonical, from the head or the Link header", () => {
    expect(run(canonical, pageFrom(doc("", link("https://example.com/guide/page")))).status).toBe("pass");
    const header = run(
      canonical,
      pageFrom(doc(""), { headers: { link: '<https://example.com/guide/page>; rel="canonical"' } }),
    );
    expect(header.status).toBe("pass");
  });
  it("warns when there is none", () => {
    expect(run(canonical, pageFrom(doc(""))).status).toBe("warn");
  });
  it("fails on relative, invalid, disagreeing or root-pointing canonicals", () => {
    expect(run(canonical, pageFrom(doc("", link("/guide/page")))).message).toContain("relative");
    expect(run(canonical, pageFrom(doc("", link("https://exa mple.com/")))).status).toBe("fail");
    expect(
      run(canonical, pageFrom(doc("", link("https://example.com/a") + link("https://example.com/b")))).status,
    ).toBe("fail");
    expect(run(canonical, pageFrom(doc("", link("https://example.com/")))).message).toContain("site root");
  });
  it("lets the home page name the root", () => {
    expect(
      run(canonical, pageFrom(doc("", link("https://example.com/")), { url: "https://example.com/" })).status,
    ).toBe("pass");
  });
  it("says an empty href is empty, not relative", () => {
    const result = run(
      canonical,
      pageFrom(doc("", '<link rel="canonical" href="">'), { url: "https://example.com/a" }),
    );
    expect(result.status).toBe("fail");
    expect(result.message).toBe(
      "The canonical link names no URL (its href is empty or missing); it must name an absolute URL.",
    );
  });
});
