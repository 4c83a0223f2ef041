/**
 * pagegrade in real Chromium: a user's journey (sign up, analyse, filter, protect, delete), hostile page text
 * rendered inert, /docs rendered from the package, and every page at a laptop's 1280×800 and a phone's 390×844:
 * no horizontal scroll, axe-core finds no serious or critical violation, and on a report with failures the first
 * failed check is in the first screen. A full-page screenshot of each page at each width is saved under
 * test-results/pages/ (ignored by git).
 */
import { mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, startService, withScreenshot } from "../helpers/browser.js";
import { html, type LocalServer, startServer } from "../helpers/local-server.js";

/** The text of the first match, once it is there. */
async function textOf(locator: Locator): Promise<string> {
  // Attached, not necessarily visible: passed checks are in a closed <details>.
  await locator.first().waitFor({ state: "attached" });
  return (await locator.first().textContent()) ?? "";
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

describe("pagegrade in a real browser", () => {
  let browser: Browser;
  let service: Awaited<ReturnType<typeof startService>>;
  let site: LocalServer;

  beforeAll(async () => {
    site = await startServer({
      "/": html(
        '<!doctype html><html lang="en"><head><title>Bicycle repair at home</title></head><body><h1>Bicycles</h1><img src="/a.png"></body></html>',
      ),
      "/hostile": html(
        '<!doctype html><html lang="en"><head><title><script>alert(1)</script></title></head><body><h1><img src=x onerror=alert(2)>Head</h1><a href="/x"><b onclick=alert(3)>click here</b></a></body></html>',
      ),
    });
    service = await startService();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await service?.close();
    await site?.close();
  });

  const register = async (page: Page, email: string) => {
    await page.goto(`${service.url}/register`);
    await page.fill("#email", email);
    await page.fill("#password", "correct horse battery");
    await page.click("button[type=submit]");
    // Sign-up redirects to the account page (a reload does not post the form again), which offers the first
    // steps; its button makes the API key, shown once in the answer to that POST.
    await page.waitForURL(`${service.url}/account`);
    await page.reload();
    await page.getByRole("heading", { name: "Next: analyse your first page" }).waitFor();
    await page.getByRole("button", { name: "Create an API key" }).click();
    await page.waitForSelector("#new-api-key");
  };

  it("registers, uses the API key, analyses, filters, protects with a password and deletes", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await withScreenshot(page, "journey", async () => {
      await register(page, "browser@example.com");
      const key = (await page.textContent("#new-api-key"))?.trim() ?? "";
      expect(key).toMatch(/^pgk_/);
      // Log out and in again, the way a returning user does.
      await page.getByRole("button", { name: "Log out" }).click();
      await page.goto(`${service.url}/login`);
      await page.fill("#email", "browser@example.com");
      await page.fill("#password", "correct horse battery");
      await page.getByRole("button", { name: "Log in" }).click();
      await page.waitForURL(`${service.url}/reports`);
      const account = await fetch(`${service.url}/api/v1/account`, {
        headers: { authorization: `Bearer ${key}` },
      });
      expect(((await account.json()) as { data: { email: string } }).data.email).toBe("browser@example.com");

      await page.goto(`${service.url}/reports`);
      await page.fill("#url", `${site.url}/`);
      await page.selectOption("#privacy", "1");
      await page.getByRole("button", { name: "Analyse", exact: true }).click();
      await page.waitForURL(/\/reports\/\d+$/);
      const reportUrl = page.url();
      expect(await textOf(page.locator("h1"))).toContain("Report for");
      await page.locator("svg.gauge").first().waitFor();
      expect(await textOf(page.locator("#check-image-alt"))).toContain("How to fix");

      await page.goto(`${service.url}/reports?search=127.0.0.1&result=`);
      expect(await page.locator("tbody tr").count()).toBe(1);
      await page.goto(`${service.url}/reports?search=nothing-like-this`);
      await page.locator("text=No reports match.").first().waitFor();

      // Another user gets a 404 for the private report.
      const otherContext = await browser.newContext();
      const other = await otherContext.newPage();
      await register(other, "other-browser@example.com");
      const denied = await other.goto(reportUrl);
      expect(denied?.status()).toBe(404);

      // Password protection, seen from a fresh browser context.
      await page.goto(`${reportUrl}/manage`);
      await page.selectOption("#privacy", "2");
      await page.fill("#password", "first secret");
      await page.getByRole("button", { name: "Save privacy", exact: true }).click();
      await page.locator("text=Privacy saved.").first().waitFor();
      const visitor = await (await browser.newContext()).newPage();
      await visitor.goto(reportUrl);
      expect((await textOf(visitor.locator("h1"))).trim()).toBe("This report is protected");
      await visitor.fill("#password", "wrong");
      await visitor.getByRole("button", { name: "Open the report" }).click();
      await visitor.locator("text=The password is not correct.").first().waitFor();
      await visitor.fill("#password", "first secret");
      await visitor.getByRole("button", { name: "Open the report" }).click();
      expect(await textOf(visitor.locator("h1"))).toContain("Report for");
      await visitor.goto(reportUrl);
      expect(await textOf(visitor.locator("h1"))).toContain("Report for");
      await page.goto(`${reportUrl}/manage`);
      await page.selectOption("#privacy", "2");
      await page.fill("#password", "second secret");
      await page.getByRole("button", { name: "Save privacy", exact: true }).click();
      await visitor.goto(reportUrl);
      expect((await textOf(visitor.locator("h1"))).trim()).toBe("This report is protected");

      // Delete, with confirmation.
      await page.goto(`${reportUrl}/manage`);
      await page.getByRole("link", { name: "Delete this report…" }).click();
      await page.getByRole("button", { name: "Yes, delete" }).click();
      await page.waitForURL(`${service.url}/reports`);
      expect((await page.goto(reportUrl))?.status()).toBe(404);
    });
  });

  it("renders a hostile page's text inert", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const dialogs: string[] = [];
    page.on("dialog", (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await withScreenshot(page, "hostile", async () => {
      await register(page, "xss@example.com");
      await page.goto(`${service.url}/reports`);
      await page.fill("#url", `${site.url}/hostile`);
      await page.selectOption("#privacy", "0");
      await page.getByRole("button", { name: "Analyse", exact: true }).click();
      await page.waitForURL(/\/reports\/\d+$/);
      expect(await textOf(page.locator("#check-title"))).toContain("<script>alert(1)</script>");
      await page.click("#check-link-text");
      expect(dialogs).toEqual([]);
      expect(await page.locator("script:not([src])").count()).toBe(0);
    });
  });
});

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
    await page.waitForURL(`${service.url}/account`);
    await page.getByRole("button", { name: "Create an API key" }).click();
    const key = ((await page.textContent("#new-api-key")) ?? "").trim();

    await page.goto(`${service.url}/reports`);
    await page.fill("#url", `${site.url}/bad`);
    await page.getByRole("button", { name: "Analyse", exact: true }).click();
    await page.waitForURL(/\/reports\/\d+$/);
    const report = new URL(page.url()).pathname;

    // Two crawls of the site, so the project page has changes to show and the crawl a comparison.
    const crawlOnce = async () => {
      await page.goto(`${service.url}/crawls`);
      await page.fill("#url", `${site.url}/`);
      await page.getByRole("button", { name: "Start the crawl" }).click();
      await page.waitForURL(/\/crawls\/\d+$/);
      const path = new URL(page.url()).pathname;
      // The running crawl's page reloads itself when the crawl ends: wait for that, so no later navigation races it.
      await page.locator(".crawl-summary").waitFor({ timeout: 60_000 });
      const deadline = Date.now() + 60_000;
      for (;;) {
        const answer = await fetch(`${service.url}/api/v1${path}`, {
          headers: { authorization: `Bearer ${key}` },
        });
        const { data } = (await answer.json()) as { data: { status: string } };
        if (data.status === "complete") return path;
        if (Date.now() > deadline) throw new Error(`the crawl is still ${data.status}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    };
    await crawlOnce();
    const crawl = await crawlOnce();
    const rollup = await fetch(`${service.url}/api/v1${crawl}/checks`, {
      headers: { authorization: `Bearer ${key}` },
    });
    const check = ((await rollup.json()) as { data: Array<{ check: string }> }).data[0]?.check as string;
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
      "crawl-links": `${crawl}/links`,
      "crawl-check-pages": `${crawl}/checks/${check}/pages`,
      "crawl-diff": `${crawl}/diff`,
      project: `/projects/${new URL(site.url).hostname}`,
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

  it("renders every operation of the OpenAPI document on /docs, from the app alone, within the CSP", async () => {
    const page = await anonymous.newPage();
    const elsewhere: string[] = [];
    const refused: string[] = [];
    page.on("request", (request) => {
      if (!request.url().startsWith(service.url) && !request.url().startsWith("data:"))
        elsewhere.push(request.url());
    });
    page.on("console", (message) => {
      if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
    });
    await page.goto(`${service.url}/docs`);
    await page.locator(".opblock").first().waitFor();
    const document = (await (await fetch(`${service.url}/api/v1/openapi.json`)).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const operations = Object.values(document.paths).reduce(
      (sum, methods) => sum + Object.keys(methods).length,
      0,
    );
    expect(await page.locator(".opblock").count()).toBe(operations);
    await page.close();
    expect(elsewhere).toEqual([]);
    expect(refused).toEqual([]);
  });

  for (const size of widths) {
    it(`signed out, at ${size.width} px`, async () => {
      const problems: string[] = [];
      for (const [name, path] of Object.entries({
        home: "/",
        login: "/login",
        register: "/register",
        docs: "/docs",
      })) {
        const { page, scrollWidth, violations } = await inspect(anonymous, name, path, size);
        await page.close();
        if (scrollWidth > size.width) problems.push(`${path} is ${scrollWidth} px wide`);
        if (violations.length > 0) problems.push(`${path}: ${violations.join(", ")}`);
      }
      expect(problems).toEqual([]);
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
