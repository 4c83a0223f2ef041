/**
 * The rendered-only checks on crafted snapshots: `na` in raw mode and without a measurement, the bands of each
 * lab metric at their edges, failed requests and console errors, and what JavaScript changes between the served
 * and the rendered document (conflicting signals fail, added content warns, nothing changed passes).
 */
import { describe, expect, it } from "vitest";
import { consoleErrors } from "../../../src/analysis/checks/console-errors.js";
import { cumulativeLayoutShift } from "../../../src/analysis/checks/cumulative-layout-shift.js";
import { failedRequests } from "../../../src/analysis/checks/failed-requests.js";
import { firstContentfulPaint } from "../../../src/analysis/checks/first-contentful-paint.js";
import { largestContentfulPaint } from "../../../src/analysis/checks/largest-contentful-paint.js";
import { renderingChanges } from "../../../src/analysis/checks/rendering-changes.js";
import { totalBlockingTime } from "../../../src/analysis/checks/total-blocking-time.js";
import { parseDocument } from "../../../src/analysis/parse.js";
import type { RenderedMetrics } from "../../../src/analysis/render/rendered-page.js";
import { resolveScoring } from "../../../src/analysis/scoring-config.js";
import type { PageSnapshot, RenderedFactsSnapshot } from "../../../src/analysis/snapshot.js";
import { doc, pageFrom, run } from "../../helpers/page.js";

const metrics = (overrides: Partial<RenderedMetrics> = {}): RenderedMetrics => ({
  firstContentfulPaintMs: 900,
  largestContentfulPaintMs: 1_200,
  largestContentfulPaintType: "image",
  largestContentfulPaintElement: {
    html: '<img src="/hero.webp">',
    imageUrl: "https://example.com/hero.webp",
  },
  cumulativeLayoutShift: 0.02,
  layoutShifts: [{ atMs: 800, score: 0.02, elements: [{ html: '<div class="ad">', imageUrl: null }] }],
  interactiveMs: 1_500,
  totalBlockingTimeMs: 120,
  longTasks: [
    {
      startMs: 1_000,
      durationMs: 170,
      scripts: ["https://example.com/app.js", "https://cdn.example/ads.js"],
    },
  ],
  ...overrides,
});

/** A rendered snapshot: `servedHtml` is the document before scripts, `renderedHtml` after. */
function rendered(
  renderedHtml: string,
  extra: Partial<RenderedFactsSnapshot> = {},
  servedHtml = renderedHtml,
): PageSnapshot {
  const page = pageFrom(renderedHtml);
  return {
    ...page,
    rendered: {
      metrics: metrics(),
      failedRequests: [],
      failedRequestCount: 0,
      consoleProblems: [],
      accessibility: { problem: "not run" },
      consoleProblemCount: 0,
      rawDocument: parseDocument(servedHtml, page.finalUrl),
      ...extra,
    },
  };
}

const plain = doc("<h1>Repair</h1><p>Wheels.</p>", "<title>Repair</title>");

describe("the rendered-only checks", () => {
  it("are not applicable in raw mode", () => {
    for (const check of [
      largestContentfulPaint,
      cumulativeLayoutShift,
      totalBlockingTime,
      firstContentfulPaint,
      renderingChanges,
      failedRequests,
      consoleErrors,
    ]) {
      expect(run(check, pageFrom(plain)).status, check.id).toBe("na");
    }
  });

  it("judge each lab metric by its bands, at the edges, with the LCP element as evidence", () => {
    const at = (overrides: Partial<RenderedMetrics>) => rendered(plain, { metrics: metrics(overrides) });
    expect(run(largestContentfulPaint, at({ largestContentfulPaintMs: 2_500 })).status).toBe("pass");
    expect(run(largestContentfulPaint, at({ largestContentfulPaintMs: 2_501 })).status).toBe("warn");
    expect(run(largestContentfulPaint, at({ largestContentfulPaintMs: 4_001 })).status).toBe("fail");
    const lcp = run(largestContentfulPaint, at({}));
    expect(lcp).toMatchObject({ value: 1_200 });
    expect(lcp.items?.[0]).toMatchObject({ type: "image", image: "https://example.com/hero.webp" });
    expect(run(cumulativeLayoutShift, at({ cumulativeLayoutShift: 0.1 })).status).toBe("pass");
    expect(run(cumulativeLayoutShift, at({ cumulativeLayoutShift: 0.25 })).status).toBe("warn");
    expect(run(cumulativeLayoutShift, at({ cumulativeLayoutShift: 0.3 })).status).toBe("fail");
    expect(run(totalBlockingTime, at({ totalBlockingTimeMs: 200 })).status).toBe("pass");
    expect(run(totalBlockingTime, at({ totalBlockingTimeMs: 600 })).status).toBe("warn");
    expect(run(totalBlockingTime, at({ totalBlockingTimeMs: 601 })).status).toBe("fail");
    expect(run(totalBlockingTime, at({ totalBlockingTimeMs: 601 })).items).toEqual([
      { start_ms: 1_000, duration_ms: 170, scripts: "https://example.com/app.js https://cdn.example/ads.js" },
    ]);
    expect(run(firstContentfulPaint, at({ firstContentfulPaintMs: 1_800 })).status).toBe("pass");
    expect(run(firstContentfulPaint, at({ firstContentfulPaintMs: 3_001 })).status).toBe("fail");
    // Nothing measured is not a pass.
    expect(run(largestContentfulPaint, at({ largestContentfulPaintMs: null })).status).toBe("na");
    expect(run(totalBlockingTime, rendered(plain, { metrics: null })).status).toBe("na");
  });

  it("take their bands from the scoring thresholds, so an operator's file moves them", () => {
    const page = rendered(plain, { metrics: metrics({ largestContentfulPaintMs: 3_000 }) });
    expect(run(largestContentfulPaint, page).message).toBe(
      "The largest contentful paint is 3.00 s; aim for at most 2.50 s.",
    );
    const thresholds = resolveScoring({
      thresholds: { largestContentfulPaintMs: { pass: 3_500 } },
    }).thresholds;
    expect(run(largestContentfulPaint, page, thresholds)).toMatchObject({
      status: "pass",
      message: "The largest contentful paint is 3.00 s.",
    });
  });

  it("list failed requests and console errors", () => {
    const failing = rendered(plain, {
      failedRequests: [
        { url: "https://example.com/a.png", resourceType: "image", status: 404, error: null, blocked: false },
        {
          url: "http://10.0.0.1/x.js",
          resourceType: "script",
          status: null,
          error: "net::ERR_FAILED",
          blocked: true,
        },
      ],
      failedRequestCount: 2,
      consoleProblems: [{ kind: "uncaught-exception", text: "x is not defined", location: null }],
      consoleProblemCount: 1,
    });
    const failed = run(failedRequests, failing);
    expect(failed).toMatchObject({ status: "warn", value: 2, message: "2 requests the page made fail." });
    expect(failed.items?.[1]).toMatchObject({ blocked: true, type: "script" });
    expect(run(consoleErrors, failing)).toMatchObject({ status: "warn", value: 1 });
    expect(run(failedRequests, rendered(plain)).status).toBe("pass");
    expect(run(consoleErrors, rendered(plain)).status).toBe("pass");
  });

  it("fail when scripts change the title, robots, canonical or hreflang, naming each raw → rendered", () => {
    const served = doc(
      "<p>Hi</p>",
      '<title>Served</title><link rel="canonical" href="https://example.com/a">',
    );
    const changed = doc(
      "<p>Hi</p>",
      '<title>Served</title><link rel="canonical" href="https://example.com/b"><meta name="robots" content="noindex">',
    );
    const outcome = run(renderingChanges, rendered(changed, {}, served));
    expect(outcome.status).toBe("fail");
    expect(outcome.items).toEqual([
      { fact: "meta robots", raw: null, rendered: "robots: noindex" },
      { fact: "canonical", raw: "https://example.com/a", rendered: "https://example.com/b" },
    ]);
  });

  it("warn when scripts add links or much text, and pass when the served HTML already had them", () => {
    const served = doc("<p>Short.</p>", "<title>T</title>");
    const withLinks = doc('<p>Short.</p><a href="/more">More</a>', "<title>T</title>");
    const added = run(renderingChanges, rendered(withLinks, {}, served));
    expect(added.status).toBe("warn");
    expect(added.items).toEqual([{ fact: "link", raw: null, rendered: "https://example.com/more" }]);
    const manyWords = doc(`<p>Short.</p><p>${"word ".repeat(200)}</p>`, "<title>T</title>");
    expect(run(renderingChanges, rendered(manyWords, {}, served)).status).toBe("warn");
    // A few words (a cookie notice) are not content.
    const fewWords = doc("<p>Short.</p><p>We use cookies.</p>", "<title>T</title>");
    expect(run(renderingChanges, rendered(fewWords, {}, served)).status).toBe("pass");
    expect(run(renderingChanges, rendered(withLinks, {}, withLinks)).status).toBe("pass");
  });
});
