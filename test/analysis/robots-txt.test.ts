import { describe, expect, it } from "vitest";
import { isAllowed, parseRobotsTxt, patternMatches, rulesFor } from "../../src/analysis/robots/robots-txt.js";

const allowed = (text: string, agent: string, path: string) =>
  isAllowed(parseRobotsTxt(text), agent, new URL(path, "https://example.com"));

describe("robots.txt", () => {
  it("groups consecutive user-agent lines and merges groups that name the same crawler", () => {
    const robots = parseRobotsTxt(
      "User-agent: a\nUser-agent: b\nDisallow: /x\n\nUser-agent: a\nDisallow: /y\n# comment\nSitemap: https://e.com/s.xml",
    );
    expect(rulesFor(robots, "A").map((rule) => rule.pattern)).toEqual(["/x", "/y"]);
    expect(rulesFor(robots, "b").map((rule) => rule.pattern)).toEqual(["/x"]);
    expect(robots.sitemaps).toEqual(["https://e.com/s.xml"]);
  });
  it("falls back to * only when no group names the crawler", () => {
    const text = "User-agent: Googlebot\nAllow: /\n\nUser-agent: *\nDisallow: /";
    expect(allowed(text, "Googlebot", "/page")).toBe(true);
    expect(allowed(text, "Bingbot", "/page")).toBe(false);
  });
  it("supports * wildcards and the $ anchor", () => {
    const text = "User-agent: *\nDisallow: /*.pdf$\nDisallow: /private*/data";
    expect(allowed(text, "x", "/files/a.pdf")).toBe(false);
    expect(allowed(text, "x", "/files/a.pdf?download=1")).toBe(true);
    expect(allowed(text, "x", "/private-area/data/1")).toBe(false);
  });
  it("treats an empty Disallow as allowing everything, and always allows /robots.txt", () => {
    expect(allowed("User-agent: *\nDisallow:", "x", "/a")).toBe(true);
    expect(allowed("User-agent: *\nDisallow: /", "x", "/robots.txt")).toBe(true);
  });
  it("matches the query string and percent-encoded paths", () => {
    expect(allowed("User-agent: *\nDisallow: /*?session=", "x", "/a?session=1")).toBe(false);
    expect(allowed("User-agent: *\nDisallow: /café", "x", "/café/menu")).toBe(false);
  });
});

describe("patternMatches", () => {
  it("matches prefixes, wildcards and anchors like search engines", () => {
    expect(patternMatches("/fish", "/fish.html")).toBe(true);
    expect(patternMatches("/fish", "/Fish.asp")).toBe(false);
    expect(patternMatches("/fish*", "/fishheads/yummy.html")).toBe(true);
    expect(patternMatches("/*.php", "/folder/filename.php?parameters")).toBe(true);
    expect(patternMatches("/*.php$", "/filename.php?parameters")).toBe(false);
    expect(patternMatches("/*.php$", "/folder/filename.php")).toBe(true);
    expect(patternMatches("/fish*.php", "/fishheads/catfish.php?parameters")).toBe(true);
    expect(patternMatches("/fish*.php", "/Fish.PHP")).toBe(false);
    expect(patternMatches("*", "/anything")).toBe(true);
    expect(patternMatches("/$", "/")).toBe(true);
    expect(patternMatches("/$", "/a")).toBe(false);
  });

  it("finishes on hostile patterns that would stall a backtracking regex", () => {
    // A regex built from this pattern backtracks for longer than the test's time limit; the matcher does not.
    expect(patternMatches(`/${"*a".repeat(200)}*b`, `/${"a".repeat(2000)}`)).toBe(false);
    expect(patternMatches(`/${"*a".repeat(200)}*b`, `/${"a".repeat(2000)}b`)).toBe(true);
  });
});
