/**
 * Every page of the app over realistic data (test/helpers/realistic-app.ts: a rendered report of a page failing
 * many checks, two crawls of a 300-page site with hundreds of findings) in Debian's Chromium at a desk's 1350×940
 * and a phone's 390×844: no page scrolls sideways, tables stay inside their cards, axe-core finds nothing serious
 * or critical, the report fits its height targets with its first failed check (and its lab metrics) in the first
 * screen, lists are paged to a phone's reach, chart labels are at least 11 px, and a running crawl's pages per
 * second and time left change while it runs.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "../helpers/browser.js";
import { type RealisticApp, startRealisticApp } from "../helpers/realistic-app.js";

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

const desk = { width: 1350, height: 940 };
const phone = { width: 390, height: 844 };

/** What is wrong with a page's layout: sideways scroll, tables out of their cards, axe's serious findings. */
async function layoutProblems(page: Page, width: number): Promise<string[]> {
  const found = (await page.evaluate(`(() => {
    const problems = [];
    const wide = document.documentElement.scrollWidth;
    if (wide > ${width}) problems.push("is " + wide + " px wide");
    for (const table of document.querySelectorAll(".card table")) {
      const spill = table.getBoundingClientRect().right - table.closest(".card").getBoundingClientRect().right;
      if (spill > 1) problems.push("a table spills " + Math.round(spill) + " px out of its card");
    }
    return problems;
  })()`)) as string[];
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const result = await (
      globalThis as unknown as {
        axe: { run(): Promise<{ violations: Array<{ id: string; impact: string; nodes: unknown[] }> }> };
      }
    ).axe.run();
    return result.violations
      .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
      .map((violation) => `axe ${violation.id} (${violation.nodes.length})`);
  });
  return [...found, ...violations];
}

const heightOf = (page: Page) => page.evaluate("document.documentElement.scrollHeight") as Promise<number>;

describe("every page over realistic data, on a desk and on a phone", () => {
  let browser: Browser;
  let app: RealisticApp;

  beforeAll(async () => {
    browser = await launchBrowser();
    app = await startRealisticApp(browser);
  }, 240_000);
  afterAll(async () => {
    await app?.close();
    await browser?.close();
  });

  const open = async (path: string, size: typeof desk, signedIn = true) => {
    const context = signedIn ? app.signedIn : await browser.newContext();
    const page = await context.newPage();
    await page.setViewportSize(size);
    await page.goto(`${app.service.url}${path}`);
    await page.waitForLoadState("networkidle");
    return page;
  };

  for (const size of [desk, phone]) {
    it(`no sideways scroll, tables in their cards, no serious axe finding at ${size.width} px`, async () => {
      const problems: string[] = [];
      const pages = { ...app.paths, home: "/", docs: "/docs" };
      for (const [name, path] of Object.entries(pages)) {
        const page = await open(path, size);
        problems.push(...(await layoutProblems(page, size.width)).map((problem) => `${name}: ${problem}`));
        await page.close();
      }
      for (const path of ["/", "/login", "/register"]) {
        const page = await open(path, size, false);
        problems.push(...(await layoutProblems(page, size.width)).map((problem) => `${path}: ${problem}`));
        await page.close();
      }
      expect(problems).toEqual([]);
    }, 120_000);

    it(`the report leads with its failures and metrics, within its height, at ${size.width} px`, async () => {
      const page = await open(app.paths.report as string, size);
      const height = await heightOf(page);
      // A rendered report's findings vary a little from run to run (console messages, failed requests, lab
      // metrics): on a desk it measured up to 4,030 px with the header's workspace switcher, so the bound leaves
      // that much room and still fails a page whose folds stop closing.
      expect(height, "the report's height with its folds closed").toBeLessThanOrEqual(
        size === desk ? 4200 : 9000,
      );
      const firstFailure = await page.locator(".to-fix .check:has(.status-fail) h3").first().boundingBox();
      expect((firstFailure?.y ?? 0) + (firstFailure?.height ?? 0)).toBeLessThanOrEqual(size.height);
      if (app.reportMode === "rendered") {
        const metrics = await page.locator(".metrics").boundingBox();
        expect(metrics, "the lab metrics").not.toBeNull();
        expect((metrics?.y ?? 0) + (metrics?.height ?? 0)).toBeLessThanOrEqual(size.height);
      }
      // Failures before warnings, whatever their categories.
      const statuses = await page.locator(".to-fix .check h3 .badge").allTextContents();
      expect(statuses.length).toBeGreaterThan(10);
      expect(statuses.lastIndexOf("Failed")).toBeLessThan(statuses.indexOf("Warning"));
      await page.close();
    });
  }

  it("pages long lists to a phone's reach and names checks by their titles", async () => {
    const heights: Record<string, number> = {};
    for (const name of ["crawl-links", "crawl-check-pages", "crawl-issue"]) {
      const page = await open(app.paths[name] as string, phone);
      heights[name] = await heightOf(page);
      if (name === "crawl-issue") heights.pages = (await page.locator("#pages").boundingBox())?.height ?? 0;
      await page.close();
    }
    expect(heights["crawl-links"]).toBeLessThanOrEqual(6000);
    expect(heights["crawl-check-pages"]).toBeLessThanOrEqual(6000);
    expect(heights.pages).toBeLessThanOrEqual(6000);

    const crawl = await open(app.paths.crawl as string, desk);
    // Checks by their titles as reports show them, ids only beside them.
    expect(await crawl.locator(".check-rollup").textContent()).toContain("Meta description");
    // Every page check reachable: the roll-up is paged, not cut at its first rows.
    const next = crawl.locator('nav[aria-label="Pages of the page checks"] a[rel="next"]');
    if ((await next.count()) > 0) {
      await next.click();
      await crawl.waitForURL(/checks=2/);
      expect(await crawl.locator(".check-rollup tbody tr").count()).toBeGreaterThan(0);
    }
    expect(await crawl.locator(".crawl-summary").textContent()).toContain("Error pages");
    expect(await crawl.locator("text=What changed since the previous crawl").count()).toBe(1);
    await crawl.close();
    const first = await open(app.paths["crawl-first"] as string, desk);
    expect(await first.locator("text=What changed since the previous crawl").count()).toBe(0);
    await first.close();
  });

  for (const size of [desk, phone]) {
    it(`a crawl's shared audit shows what to fix first in the first screen at ${size.width} px`, async () => {
      const page = await open(app.paths.audit as string, size, false);
      // Private by default: a visitor without a session is told nothing.
      expect(await page.locator("#fix-first").count()).toBe(0);
      await page.close();
      const audit = await open(app.paths.audit as string, size);
      const box = await audit.locator("#fix-first li").first().boundingBox();
      expect(box?.y ?? Number.POSITIVE_INFINITY).toBeLessThan(size.height);
      await audit.close();
    });
  }

  it("tells two analyses of one day apart on the trend chart, drawn in one colour", async () => {
    const page = await open(app.paths.report as string, desk);
    const labels = await page.locator(".score-chart svg > text").allTextContents();
    const [from, to] = labels.slice(-2);
    expect(from).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}/);
    expect(to).not.toBe(from);
    const colours =
      await page.evaluate(`[...document.querySelectorAll(".score-chart polyline, .score-chart circle")]
      .map((shape) => shape.getAttribute("stroke") === "#ffffff" ? shape.getAttribute("fill") : shape.getAttribute("stroke"))`);
    expect(new Set(colours as string[]).size).toBe(1);
    await page.close();
  });

  it("draws chart labels of at least 11 px on a phone", async () => {
    const sizes: number[] = [];
    for (const name of ["project", "crawl", "history"]) {
      const page = await open(app.paths[name] as string, phone);
      sizes.push(
        ...((await page.evaluate(`[...document.querySelectorAll("figure svg text")].map((text) =>
          text.getScreenCTM().a * parseFloat(getComputedStyle(text).fontSize))`)) as number[]),
      );
      await page.close();
    }
    expect(sizes.length).toBeGreaterThan(0);
    expect(Math.min(...sizes)).toBeGreaterThanOrEqual(11);
  });

  it("shows a running crawl's pages per second and time left changing as it goes", async () => {
    const page = await open("/crawls", desk);
    await page.fill("#url", `${app.site.url}/`);
    await page.getByRole("button", { name: "Start the crawl" }).click();
    await page.waitForURL(/\/crawls\/\d+$/);
    const rates = new Set<string>();
    const lefts = new Set<string>();
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline && (rates.size < 2 || lefts.size < 2)) {
      const live = page.locator('[data-live="rate"]');
      if ((await live.count()) === 0) break;
      rates.add((await live.textContent()) ?? "");
      lefts.add((await page.locator('[data-live="left"]').textContent()) ?? "");
      await page.waitForTimeout(250);
    }
    await page.close();
    expect(rates.size, `pages per second seen: ${[...rates].join(", ")}`).toBeGreaterThanOrEqual(2);
    expect(lefts.size, `time left seen: ${[...lefts].join(", ")}`).toBeGreaterThanOrEqual(2);
  });
});
