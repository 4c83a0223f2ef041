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
  it("warns, not fails, on a canonical link with an empty or missing href, with the tag as evidence", () => {
    for (const tag of [
      '<link rel="canonical" href="">',
      '<link rel="canonical" href>',
      '<link rel="canonical">',
    ]) {
      const result = run(canonical, pageFrom(doc("", tag), { url: "https://example.com/a" }));
      expect(result.status).toBe("warn");
      expect(result.message).toBe(
        "The canonical link names no URL (its href is empty or missing), so search engines ignore it; give it the page's absolute URL or remove it.",
      );
      expect(result.items).toEqual([{ href: "", source: expect.stringContaining('rel="canonical"') }]);
    }
    expect(canonical.howToFix).toContain("href is empty");
  });
  it("judges the canonical that names a URL and warns about an empty one beside it", () => {
    const beside = run(
      canonical,
      pageFrom(doc("", `<link rel="canonical" href="">${link("https://example.com/a")}`), {
        url: "https://example.com/a",
      }),
    );
    expect(beside.status).toBe("warn");
    expect(beside.value).toBe("https://example.com/a");
    expect(beside.message).toBe(
      "The canonical URL is https://example.com/a, but 1 more canonical link names no URL (the href is empty or missing); remove it.",
    );
    expect(beside.items).toHaveLength(1);
    const relative = run(canonical, pageFrom(doc("", `<link rel="canonical" href="">${link("/a")}`)));
    expect(relative.status).toBe("fail");
    expect(relative.message).toContain("relative");
  });
  it("warns about empty Link header canonicals too", () => {
    const result = run(canonical, pageFrom(doc(""), { headers: { link: '<>; rel="canonical"' } }));
    expect(result.status).toBe("warn");
    expect(result.items).toEqual([{ href: "", source: 'Link: <>; rel="canonical"' }]);
  });
});
