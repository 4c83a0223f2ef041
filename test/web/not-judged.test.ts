/**
 * Honest empty states on the report page of a raw (HTML as served) analysis: Accessibility, which only a rendered
 * analysis judges, says it was not judged and how to get it, never "Nothing to fix here." in green; the
 * Performance section names the lab metrics it did not measure. A category judged with nothing to fix still says
 * "Nothing to fix here.".
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CheckResult } from "../../src/analysis/judge.js";
import { findingSections } from "../../src/web/views/report-findings.js";
import { call, startApi, type TestApi } from "../helpers/api.js";
import { html, type LocalServer, startServer } from "../helpers/local-server.js";

/** The note the "To fix" list ends with for one category, or fails. */
const note = (body: string, category: string) => {
  const start = body.indexOf(`id="not-judged-${category}">`);
  expect(start, category).toBeGreaterThan(-1);
  return body.slice(start, body.indexOf("</p>", start));
};

describe("a raw analysis's report page", () => {
  let api: TestApi;
  let site: LocalServer;
  let key: string;

  beforeAll(async () => {
    site = await startServer({
      "/": html(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>The bicycle repair shop of the old town</title><meta name="viewport" content="width=device-width, initial-scale=1"></head><body><h1>Bicycle repair shop</h1><p>Our bicycle repair shop fixes any bike the same day.</p></body></html>`,
      ),
    });
    api = await startApi("sqlite");
    key = await api.newUser();
  });
  afterAll(async () => {
    await api.close();
    await site.close();
  });

  it("says accessibility and the lab metrics were not judged, and how to get them", async () => {
    const stored = await call(api, "POST", "/api/v1/reports", {
      key,
      json: { url: `${site.url}/`, privacy: 0 },
    });
    expect(stored.statusCode, stored.body).toBe(201);
    const page = await api.app.inject({ method: "GET", url: `/reports/${stored.json().data.id}` });
    expect(page.statusCode).toBe(200);
    const accessibility = note(page.body, "accessibility");
    expect(accessibility).toContain(
      "Accessibility: not judged in this analysis. These checks need the page rendered in a browser",
    );
    expect(accessibility).toContain("rendered mode");
    const performance = note(page.body, "performance");
    expect(performance).toMatch(
      /not measured in this analysis \(they need the page rendered in a browser\): [^<]*Largest Contentful Paint/,
    );
    // Filtered to accessibility, the list claims no clean bill either.
    const filtered = await api.app.inject({
      method: "GET",
      url: `/reports/${stored.json().data.id}?category=accessibility`,
    });
    expect(filtered.body).not.toContain("Nothing to fix");
    expect(note(filtered.body, "accessibility")).toContain("not judged in this analysis");
  });

  it("keeps Nothing to fix here for a category that was judged", () => {
    const passed: CheckResult = {
      category: "security",
      importance: "high",
      status: "pass",
      passed: true,
      value: null,
      message: "Fine.",
    };
    const markup = String(findingSections({ https: passed }, { category: "security" }));
    expect(markup).toContain('<p class="all-clear">Nothing to fix here.</p>');
    const notApplying = String(
      findingSections({ https: { ...passed, status: "na", passed: null } }, { category: "security" }),
    );
    expect(notApplying).not.toContain("Nothing to fix");
    expect(notApplying).toContain("Not judged: none of these checks applies to this page.");
  });
});
