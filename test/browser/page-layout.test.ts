/**
 * Every page in real Chromium at a laptop's 1280×800 and a phone's 390×844: no horizontal scroll, axe-core finds
 * no serious or critical violation, and on a report with failures the first failed check is in the first screen.
 * A full-page screenshot of each is saved under test-results/pages/ (ignored by git) for people to look at.
 */
import { mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, startService } from "../helpers/browser.js";
import { html, type LocalServer, startServer } from "../helpers/local-server.js";

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
const screenshots = "test-results/pages";
const widths = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];

const gif = "data:image/gif;base64,R0lGODlhAQABAAAAACw=";
/** A page that fails many checks, with 24 identical images without alt text. */
const badPage = `<!doctype html><html><head><title>x</title></head><body>
<img src="${gif}"> `.concat(
  Array.from({ length: 23 }, () => `<img src="${gif}">`).join(""),
  Array.from({ length: 30 }, (_, index) => `<a href="/p${index}">here</a> <img src="/i${index}.png">`).join(
    "",
  ),
  '<a href="/gone">gone</a></body></html>',
);
const sitePage = (title: string, links: string) =>
  `<!doctype html><html lang="en"><head><title>${title}</title></head><body><h1>${title}</h1>${links}</body></html>`;

describe("every page at 1280 and 390 pixels", () => {
  let browser: Browser;
  let service: Awaited<ReturnType<typeof startService>>;
  let site: LocalServer;
  let signedIn: BrowserContext;
  let anonymous: BrowserContext;
  const paths: Record<string, string> = {};

  beforeAll(async () => {
    mkdirSync(screenshots, { recursive: true });
    site = await startServer({
      "/bad": html(badPage),
      "/": html(
        sitePage(
          "Bicycle repair at home",
          '<a href="/a">Wheels</a> <a href="/b">Brakes</a> <a href="/missing">Old page</a>',
        ),
      ),
      "/a": html(sitePage("Wheels", '<a href="/">Home</a> <a href="/b">Brakes</a>')),
      "/b": html(sitePage("Wheels", '<a href="/">Home</a> <a href="/c">Chains</a>')),
      "/c": html(sitePage("Chains", '<a href="/">Home</a>')),
    });
    service = await startService({ PAGEGRADE_CRAWL_DELAY_MS: "0" });
    browser = await launchBrowser();
    anonymous = await browser.newContext();
    signedIn = await browser.newContext();
    const page = await signedIn.newPage();
    await page.goto(`${service.url}/register`);
    await page.fill("#email", "layout@example.com");
    await page.fill("#password", "correct horse battery");
    await page.click("button[type=submit]");
    const key = ((await page.textContent("#new-api-key")) ?? "").trim();

    await page.goto(`${service.url}/reports`);
    await page.fill("#url", `${site.url}/bad`);
    await page.getByRole("button", { name: "Analyse", exact: true }).click();
    await page.waitForURL(/\/reports\/\d+$/);
    const report = new URL(page.url()).pathname;

    await page.goto(`${service.url}/crawls`);
    await page.fill("#url", `${site.url}/`);
    await page.getByRole("button", { name: "Start the crawl" }).click();
    await page.waitForURL(/\/crawls\/\d+$/);
    const crawl = new URL(page.url()).pathname;
    const deadline = Date.now() + 60_000;
    for (;;) {
      const answer = await fetch(`${service.url}/api/v1${crawl}`, {
        headers: { authorization: `Bearer ${key}` },
      });
      const { data } = (await answer.json()) as { data: { status: string } };
      if (data.status === "complete") break;
      if (Date.now() > deadline) throw new Error(`the crawl is still ${data.status}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await page.close();
    Object.assign(paths, {
      reports: "/reports",
      report,
      history: `${report}/history`,
      manage: `${report}/manage`,
      "delete-report": `${report}/delete`,
      projects: "/projects",
      account: "/account",
      webhooks: "/account/webhooks",
      crawls: "/crawls",
      crawl,
    });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await service?.close();
    await site?.close();
  });

  /** Opens a page at a size, saves its screenshot, and answers what is wrong with its layout and accessibility. */
  async function inspect(context: BrowserContext, name: string, path: string, size: (typeof widths)[number]) {
    const page: Page = await context.newPage();
    await page.setViewportSize(size);
    await page.goto(`${service.url}${path}`);
    await page.waitForLoadState("networkidle");
    await page.screenshot({ path: `${screenshots}/${name}-${size.width}.png`, fullPage: true });
    const scrollWidth = await page.evaluate("document.documentElement.scrollWidth");
    await page.evaluate(axeSource);
    const violations = await page.evaluate(async () => {
      const result = await (
        globalThis as unknown as {
          axe: { run(): Promise<{ violations: Array<{ id: string; impact: string; nodes: unknown[] }> }> };
        }
      ).axe.run();
      return result.violations
        .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
        .map((violation) => `${violation.id} (${violation.nodes.length})`);
    });
    return { page, scrollWidth: Number(scrollWidth), violations };
  }

  for (const size of widths) {
    it(`signed out, at ${size.width} px`, async () => {
      for (const [name, path] of Object.entries({
        home: "/",
        login: "/login",
        register: "/register",
        docs: "/docs",
      })) {
        const { page, scrollWidth, violations } = await inspect(anonymous, name, path, size);
        await page.close();
        expect(scrollWidth, `${path} is ${scrollWidth} px wide`).toBeLessThanOrEqual(size.width);
        expect(violations, `${path}: ${violations.join(", ")}`).toEqual([]);
      }
    });

    it(`signed in, at ${size.width} px`, async () => {
      const problems: string[] = [];
      for (const [name, path] of Object.entries(paths)) {
        const { page, scrollWidth, violations } = await inspect(signedIn, name, path, size);
        await page.close();
        if (scrollWidth > size.width) problems.push(`${path} is ${scrollWidth} px wide`);
        if (violations.length > 0) problems.push(`${path}: ${violations.join(", ")}`);
      }
      expect(problems).toEqual([]);
    });

    it(`shows a report's first failed check in the first screen at ${size.width} px`, async () => {
      const { page } = await inspect(signedIn, "report-first-screen", paths.report as string, size);
      const first = page.locator(".check:has(.status-fail) h3").first();
      const box = await first.boundingBox();
      await page.close();
      expect(box).not.toBeNull();
      expect(
        (box?.y ?? 0) + (box?.height ?? 0),
        "the first failure's heading ends within the first screen",
      ).toBeLessThanOrEqual(size.height);
    });
  }
});
