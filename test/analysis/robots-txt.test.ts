import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  isAllowed,
  parseRobotsTxt,
  patternMatches,
  robotsTxtMaxBytes,
  rulesFor,
} from "../../src/analysis/robots/robots-txt.js";
import { cpuTimed } from "../helpers/cpu-time.js";

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

/** A reference matcher that tries every way a "*" can stretch: exponential at worst, obviously right. */
function referenceMatches(pattern: string, path: string): boolean {
  const anchored = pattern.endsWith("$");
  const body = anchored ? pattern.slice(0, -1) : pattern;
  const from = (p: number, t: number): boolean => {
    if (p === body.length) return !anchored || t === path.length;
    if (body[p] === "*") {
      for (let next = t; next <= path.length; next++) if (from(p + 1, next)) return true;
      return false;
    }
    return t < path.length && body[p] === path[t] && from(p + 1, t + 1);
  };
  return from(0, 0);
}

/** The precedence rule written out plainly: the longest matching pattern decides, Allow winning a tie. */
function referenceAllowed(text: string, agent: string, path: string): boolean {
  let best: { allow: boolean; pattern: string } | null = null;
  for (const rule of rulesFor(parseRobotsTxt(text), agent)) {
    if (!referenceMatches(rule.pattern, path)) continue;
    const longer = !best || rule.pattern.length > best.pattern.length;
    if (longer || (best && rule.pattern.length === best.pattern.length && rule.allow)) best = rule;
  }
  return best === null || best.allow;
}

const smallPattern = fc
  .array(fc.constantFrom("/", "a", "b", "*", "$", "?"), { maxLength: 8 })
  .map((chars) => chars.join(""));
const smallPath = fc
  .array(fc.constantFrom("/", "a", "b", "$", "?"), { maxLength: 10 })
  .map((chars) => `/${chars.join("")}`);

describe("the linear matcher against a plain reference", () => {
  it("agrees with trying every stretch of every * on small random patterns and paths", () => {
    fc.assert(
      fc.property(smallPattern, smallPath, (pattern, path) => {
        expect(patternMatches(pattern, path)).toBe(referenceMatches(pattern, path));
      }),
      { numRuns: 5000 },
    );
  });

  it("picks the same verdict as the longest-match rule over random groups and crawlers", () => {
    const rule = fc.record({ allow: fc.boolean(), pattern: smallPattern.filter((p) => p !== "") });
    const group = fc.record({
      agents: fc.array(fc.constantFrom("*", "googlebot", "bingbot"), { minLength: 1, maxLength: 2 }),
      rules: fc.array(rule, { maxLength: 4 }),
    });
    fc.assert(
      fc.property(
        fc.array(group, { maxLength: 4 }),
        fc.constantFrom("Googlebot", "bingbot", "GPTBot"),
        smallPath,
        (groups, agent, path) => {
          const text = groups
            .map(
              (g) =>
                `${g.agents.map((a) => `User-agent: ${a}`).join("\n")}\n${g.rules
                  .map((r) => `${r.allow ? "Allow" : "Disallow"}: ${r.pattern}`)
                  .join("\n")}`,
            )
            .join("\n\n");
          const url = new URL(`/x${path}`, "https://example.com");
          const requested = url.pathname + url.search;
          expect(isAllowed(parseRobotsTxt(text), agent, url)).toBe(referenceAllowed(text, agent, requested));
        },
      ),
      { numRuns: 2000 },
    );
  });
});

/** The crawlers one analysis asks about: the major ones and the AI crawlers. */
const crawlers = [
  ...["Googlebot", "Bingbot", "*"],
  ...["GPTBot", "ClaudeBot", "PerplexityBot", "OAI-SearchBot", "Google-Extended", "CCBot", "Applebot"],
];

describe("robots.txt's cost", () => {
  it("reads the first 500 KiB and ignores the rest, as Google does", () => {
    const filler = `# ${"x".repeat(robotsTxtMaxBytes)}\n`;
    const text = `User-agent: *\nDisallow: /early\n${filler}Disallow: /late\n`;
    expect(allowed(text, "x", "/early")).toBe(false);
    expect(allowed(text, "x", "/late")).toBe(true);
    expect(allowed(text.replace(filler, "#\n"), "x", "/late")).toBe(false);
  });

  it("parses a text once, however many analyses ask", () => {
    const text = "User-agent: *\nDisallow: /private\n";
    expect(parseRobotsTxt(text)).toBe(parseRobotsTxt(`${text}`));
  });

  it.each([
    ["one long literal after a wildcard", (i: number) => `/*${"a".repeat(100)}b${i}`],
    ["a hundred wildcards", (i: number) => `/${"*a".repeat(100)}*b${i}`],
  ])("answers a dozen crawlers on a 500 KiB file of rules with %s within 200 ms", (_shape, pattern) => {
    // The files that stalled the service for a minute (seconds per crawler, a dozen crawlers per analysis),
    // against a 2,000-character path of "a"s that almost matches every rule.
    const rules: string[] = [];
    let size = 20;
    for (let i = 0; size + `Disallow: ${pattern(i)}\n`.length < robotsTxtMaxBytes; i++) {
      rules.push(`Disallow: ${pattern(i)}`);
      size += (rules.at(-1) as string).length + 1;
    }
    const text = `User-agent: *\n${rules.join("\n")}\n`;
    const url = new URL(`https://example.com/${"a".repeat(2000)}`);
    const { result, ms } = cpuTimed(() =>
      crawlers.map((agent) => isAllowed(parseRobotsTxt(text), agent, url)),
    );
    expect(result.every(Boolean)).toBe(true);
    expect(ms).toBeLessThan(200);
  });
});
