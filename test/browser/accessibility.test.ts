/**
 * The accessibility category with Debian's Chromium and axe-core: a crafted page with known defects (an image
 * without alt, faint text, an unlabelled field, a misspelt role, a button without a name, no lang, an id that
 * ARIA refers to twice) gets exactly the expected verdicts and evidence through the API, the command line and
 * the web report page; a page without them passes; fixing them shows in the history diff and the PDF prints the
 * category; raw mode leaves every accessibility check `na` and the category null.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accessibilityChecks } from "../../src/analysis/checks/accessibility/axe-checks.js";
import { defaultScoring } from "../../src/analysis/scoring-config.js";
import { call, startApi, type TestApi } from "../helpers/api.js";
import { html, type LocalServer, startServer } from "../helpers/local-server.js";
import { pdfPages } from "../helpers/pdf.js";

const defects = `<!doctype html><html><head><meta charset="utf-8"><title>Crafted accessibility defects</title>
<meta name="viewport" content="width=device-width"></head>
<body><main><h1>Defects</h1>
<img src="/photo.png" id="photo" width="40" height="40">
<p id="faint" style="color:#aaaaaa;background:#ffffff">Faint text on white</p>
<form><input type="text" id="name"></form>
<div role="buttn" id="bad-role">A misspelt role</div>
<button id="nameless"></button>
<label id="dup">Email</label><input type="email" id="email" aria-labelledby="dup"><span id="dup">again</span>
</main></body></html>`;

const clean = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>An accessible page</title>
<meta name="viewport" content="width=device-width"></head>
<body><main><h1>Bicycle repair</h1>
<img src="/photo.png" alt="A wheel being trued" width="40" height="40">
<p>Wheels, chains and brakes, repaired at home.</p>
<form><label for="name">Your name</label> <input type="text" id="name"></form>
</main></body></html>`;

/** What the defects page must get: every accessibility check not listed here passes or is `na`. */
const expected: Record<string, { status: string; selector: string; summary: string; snippet: string }> = {
  "a11y-image-alt": {
    status: "fail",
    selector: "#photo",
    snippet: '<img src="/photo.png" id="photo" width="40" height="40">',
    summary: "Element does not have an alt attribute",
  },
  "a11y-color-contrast": {
    status: "fail",
    selector: "#faint",
    snippet: '<p id="faint" style="color:#aaaaaa;background:#ffffff">',
    summary: "insufficient color contrast of 2.32",
  },
  "a11y-label": {
    status: "fail",
    selector: "#name",
    snippet: '<input type="text" id="name">',
    summary: "Element does not have an implicit (wrapped) <label>",
  },
  "a11y-aria-roles": {
    status: "fail",
    selector: "#bad-role",
    snippet: '<div role="buttn" id="bad-role">',
    summary: "Role must be one of the valid ARIA roles: buttn",
  },
  "a11y-button-name": {
    status: "fail",
    selector: "#nameless",
    snippet: '<button id="nameless"></button>',
    summary: "Element does not have inner text that is visible to screen readers",
  },
  "a11y-html-has-lang": {
    status: "fail",
    selector: "html",
    snippet: "<html>",
    summary: "The <html> element does not have a lang attribute",
  },
  "a11y-duplicate-id-aria": {
    status: "info",
    selector: "label",
    snippet: '<label id="dup">Email</label>',
    summary: "Document has multiple elements referenced with ARIA with the same id attribute: dup",
  },
};

type Result = {
  status: string;
  category: string;
  value: unknown;
  message: string;
  details?: { items: Array<Record<string, string>> };
};

/** Every accessibility check of a results object that is neither pass nor na, by id. */
function flagged(results: Record<string, Result>): string[] {
  return Object.entries(results)
    .filter(([id, result]) => id.startsWith("a11y-") && !["pass", "na"].includes(result.status))
    .map(([id]) => id)
    .sort();
}

function expectDefects(results: Record<string, Result>) {
  expect(flagged(results)).toEqual(Object.keys(expected).sort());
  for (const [id, want] of Object.entries(expected)) {
    const result = results[id] as Result;
    expect(result.status, id).toBe(want.status);
    expect(result.category, id).toBe("accessibility");
    expect(result.value, id).toBe(1);
    const items = result.details?.items ?? [];
    expect(items, id).toHaveLength(1);
    expect(items[0]?.selector, id).toBe(want.selector);
    expect(items[0]?.snippet, id).toContain(want.snippet);
    expect(items[0]?.summary, id).toContain(want.summary);
  }
}

/** The category's score recomputed from its results and the default weights (pass 1, fail 0). */
function accessibilityScore(
  results: Record<string, Result & { importance: "high" | "medium" | "low" }>,
): number {
  let weight = 0;
  let earned = 0;
  for (const result of Object.values(results)) {
    if (result.category !== "accessibility" || !["pass", "fail"].includes(result.status)) continue;
    weight += defaultScoring.weights[result.importance];
    if (result.status === "pass") earned += defaultScoring.weights[result.importance];
  }
  return Math.round((100 * earned) / weight);
}

const routes = { "/defects": html(defects), "/clean": html(clean), "/changing": html(defects) };

describe("the accessibility category in rendered mode", () => {
  let api: TestApi;
  let site: LocalServer;
  let key: string;

  beforeAll(async () => {
    site = await startServer(routes);
    api = await startApi("sqlite");
    key = await api.newUser();
  });
  afterAll(async () => {
    await api.close();
    await site.close();
  });

  it("gives the crafted defects exactly their verdicts and evidence through the API and the report page", async () => {
    const response = await call(api, "POST", "/api/v1/reports", {
      key,
      form: { url: `${site.url}/defects`, mode: "rendered", privacy: "0" },
    });
    expect(response.statusCode).toBe(201);
    const report = response.json().data;
    expectDefects(report.results);
    expect(Object.keys(report.results).filter((id) => id.startsWith("a11y-"))).toHaveLength(
      accessibilityChecks.length,
    );
    // 6 failed checks (high: image-alt, button-name; medium: label, aria-roles, color-contrast, html-has-lang)
    // among the ones that apply; the informative duplicate-id-aria does not count.
    expect(report.categories.accessibility).toBe(accessibilityScore(report.results));
    expect(report.categories.accessibility).toBeLessThan(80);

    const page = (await api.app.inject({ method: "GET", url: `/reports/${report.id}` })).body;
    // The category is each finding's label and one of the list's filters.
    expect(page).toContain('<span class="category-label">Accessibility</span>');
    expect(page).toContain('href="?category=accessibility#to-fix"');
    expect(page).toContain("Images must have alternative text");
    expect(page).toContain("#photo");
    expect(page).toContain("Role must be one of the valid ARIA roles: buttn");
  });

  it("passes a page without those defects", async () => {
    const report = (
      await call(api, "POST", "/api/v1/reports", {
        key,
        form: { url: `${site.url}/clean`, mode: "rendered" },
      })
    ).json().data;
    expect(flagged(report.results)).toEqual([]);
    for (const id of ["a11y-image-alt", "a11y-label", "a11y-html-has-lang", "a11y-color-contrast"]) {
      expect(report.results[id].status, id).toBe("pass");
    }
    // Nothing on the page for these rules to judge.
    for (const id of ["a11y-td-headers-attr", "a11y-video-caption", "a11y-aria-roles"]) {
      expect(report.results[id].status, id).toBe("na");
    }
    expect(report.categories.accessibility).toBe(100);
  });

  it("leaves every accessibility check na and the category null in raw mode", async () => {
    const report = (
      await call(api, "POST", "/api/v1/reports", { key, form: { url: `${site.url}/defects` } })
    ).json().data;
    expect(report.mode).toBe("raw");
    const statuses = Object.entries(report.results as Record<string, Result>)
      .filter(([id]) => id.startsWith("a11y-"))
      .map(([, result]) => result.status);
    expect(statuses).toHaveLength(accessibilityChecks.length);
    expect(new Set(statuses)).toEqual(new Set(["na"]));
    expect(report.categories.accessibility).toBeNull();
  });

  it("shows a fixed page in the history diff and prints the category in the PDF", async () => {
    const report = (
      await call(api, "POST", "/api/v1/reports", {
        key,
        form: { url: `${site.url}/changing`, mode: "rendered" },
      })
    ).json().data;
    routes["/changing"] = html(clean);
    const rerun = await call(api, "PATCH", `/api/v1/reports/${report.id}`, { key, form: { results: "1" } });
    expect(rerun.statusCode, rerun.body).toBe(200);
    const diff = (await call(api, "GET", `/api/v1/reports/${report.id}/diff`, { key })).json().data;
    expect(diff.categories.accessibility).toEqual({
      from: report.categories.accessibility,
      to: 100,
      change: 100 - report.categories.accessibility,
    });
    const fixed = diff.checks.filter((check: { change: string }) => check.change === "fixed");
    expect(fixed.map((check: { id: string }) => check.id)).toEqual(
      expect.arrayContaining(["a11y-image-alt", "a11y-label", "a11y-color-contrast", "a11y-html-has-lang"]),
    );
    const imageAlt = fixed.find((check: { id: string }) => check.id === "a11y-image-alt");
    expect(imageAlt.evidence.removed).toEqual([expect.objectContaining({ selector: "#photo" })]);

    const pdf = await call(api, "GET", `/api/v1/reports/${report.id}/pdf`, { key });
    expect(pdf.statusCode).toBe(200);
    const text = pdfPages(pdf.rawPayload).join(" ");
    expect(text).toContain("Accessibility 100");
    expect(text).toContain("Images must have alternative text");
  });

  it("gives the same verdicts and evidence on the command line", async () => {
    const bin = new URL("../../bin/pagegrade.js", import.meta.url).pathname;
    const env = {
      ...process.env,
      NO_COLOR: "1",
      PAGEGRADE_ALLOW_PRIVATE_NETWORKS: "1",
      PAGEGRADE_CHROMIUM_SANDBOX: "0",
    };
    const run = promisify(execFile);
    const json = await run(
      process.execPath,
      [bin, "analyze", `${site.url}/defects`, "--mode", "rendered", "--json"],
      {
        env,
      },
    );
    const report = JSON.parse(json.stdout);
    expectDefects(report.results);
    expect(report.categories.accessibility).toEqual(expect.any(Number));

    const readable = await run(
      process.execPath,
      [bin, "analyze", `${site.url}/defects`, "--mode", "rendered"],
      {
        env,
      },
    );
    expect(readable.stdout).toContain(`Accessibility ${report.categories.accessibility}`);
    expect(readable.stdout).toContain(
      "(a11y-image-alt) [high]  1 element fails: Images must have alternative text.",
    );
    expect(readable.stdout).toContain("#photo");
  });
});
