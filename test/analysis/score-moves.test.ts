/**
 * Scores move the way a site owner expects (checks.md, part 4), with the real checks on real pages: removing a
 * page's title costs at least 5 points (content-keywords fails with it rather than turning `na`); failing
 * `https`, `title` or `viewport` caps the score at 79 like the indexability gate, and the summary names the gate;
 * the three costliest checks' points back are the score recomputed with that check passing.
 */
import { describe, expect, it } from "vitest";
import { checks } from "../../src/analysis/checks/index.js";
import { type CheckResults, judge } from "../../src/analysis/judge.js";
import { score } from "../../src/analysis/score.js";
import { defaultScoring } from "../../src/analysis/scoring-config.js";
import { pageFrom } from "../helpers/page.js";

const body = `<h1>Bicycle repair shop</h1>
<p>Our bicycle repair shop fixes any bike the same day: brakes, gears, chains and wheels, with honest prices.</p>
<p>Bring your bicycle to the repair shop in the old town and ride home with it in the evening.</p>
<img src="/wheel.png" alt="A wheel" width="10" height="10">`;

const html = ({ title = "<title>The bicycle repair shop of the old town</title>", viewport = true } = {}) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8">${title}${
    viewport ? '<meta name="viewport" content="width=device-width, initial-scale=1">' : ""
  }<meta name="description" content="The bicycle repair shop of the old town fixes any bike the same day, at honest prices."><link rel="icon" href="/favicon.ico"><link rel="canonical" href="https://example.com/guide/page"></head><body>${body}</body></html>`;

const scored = (page: string, url = "https://example.com/guide/page", notIndexable = false) => {
  const results = judge(pageFrom(page, { url }), checks, defaultScoring.thresholds);
  return { results, ...score(results, defaultScoring, notIndexable) };
};

describe("scores that move as expected", () => {
  it("costs at least 5 points when the title is removed, content-keywords failing with it", () => {
    const whole = scored(html());
    const untitled = scored(html({ title: "" }));
    expect(whole.results.title?.status).toBe("pass");
    expect(whole.results["content-keywords"]?.status).toBe("pass");
    expect(untitled.results.title?.status).toBe("fail");
    expect(untitled.results["content-keywords"]?.status).toBe("fail");
    expect(whole.score - untitled.score).toBeGreaterThanOrEqual(5);
    expect(untitled.summary.gates).toEqual(["title"]);
  });

  it("keeps a page failing https, title or viewport from good, and names the gate", () => {
    const whole = scored(html());
    expect(whole.summary.gates).toEqual([]);
    expect(whole.score).toBeGreaterThanOrEqual(80);
    const cases = [
      { gate: "https", page: scored(html(), "http://example.com/guide/page") },
      { gate: "title", page: scored(html({ title: "" })) },
      { gate: "viewport", page: scored(html({ viewport: false })) },
      { gate: "indexable", page: scored(html(), undefined, true) },
    ];
    for (const { gate, page } of cases) {
      expect(page.summary.gates, gate).toEqual([gate]);
      expect(page.score, gate).toBeLessThanOrEqual(79);
      expect(page.result, gate).not.toBe("good");
    }
  });

  it("caps synthetic results that would otherwise be good, per gate", () => {
    const passing = (failing: string): CheckResults =>
      Object.fromEntries(
        ["https", "title", "viewport", ...Array.from({ length: 30 }, (_, index) => `other-${index}`)].map(
          (check) => [
            check,
            {
              category: "seo" as const,
              importance: "high" as const,
              status: check === failing ? ("fail" as const) : ("pass" as const),
              passed: null,
              value: null,
              message: "",
            },
          ],
        ),
      );
    for (const gate of ["https", "title", "viewport"]) {
      const capped = score(passing(gate), defaultScoring, false);
      expect(capped.score, gate).toBe(79); // 97 uncapped
      expect(capped.summary.gates).toEqual([gate]);
      // Fixing the gate brings back the 3 points of its weight and the 18 the cap held back.
      expect(capped.summary.costliest).toEqual([{ check: gate, points: 100 - 79 }]);
    }
    expect(score(passing("other-0"), defaultScoring, false)).toMatchObject({ score: 97, result: "good" });
  });

  it("gives each of the three costliest checks the points that fixing it brings back", () => {
    // No gate holds it (under a gate, fixing anything else brings back nothing above the cap).
    const page = scored(
      html()
        .replace('alt="A wheel" ', "")
        .replace("<h1>Bicycle repair shop</h1>", "")
        .replace(/<meta name="description"[^>]*>/, ""),
    );
    expect(page.summary.gates).toEqual([]);
    expect(page.summary.costliest).toHaveLength(3);
    const points = page.summary.costliest.map((entry) => entry.points);
    expect(points).toEqual([...points].sort((a, b) => b - a));
    for (const { check, points: back } of page.summary.costliest) {
      const result = page.results[check];
      expect(result?.status === "fail" || result?.status === "warn", check).toBe(true);
      const fixed = {
        ...page.results,
        [check]: { ...(result as NonNullable<typeof result>), status: "pass" as const },
      };
      expect(score(fixed, defaultScoring, false).score - page.score, check).toBe(back);
    }
    // No failed or warned check left out brings back more than the third.
    const third = page.summary.costliest[2]?.points ?? 0;
    for (const [check, result] of Object.entries(page.results)) {
      if (result.status !== "fail" && result.status !== "warn") continue;
      if (page.summary.costliest.some((entry) => entry.check === check)) continue;
      const fixed = { ...page.results, [check]: { ...result, status: "pass" as const } };
      expect(score(fixed, defaultScoring, false).score - page.score, check).toBeLessThanOrEqual(third);
    }
  });
});
