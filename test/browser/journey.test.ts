import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, startService, withScreenshot } from "../helpers/browser.js";
import { html, type LocalServer, startServer } from "../helpers/local-server.js";

/** The text of the first match, once it is there. */
async function textOf(locator: Locator): Promise<string> {
  await locator.first().waitFor();
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
    // The answer to the sign-up is the account page, with the new key shown once.
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

  it("passes an automated accessibility audit on the main pages", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await withScreenshot(page, "accessibility", async () => {
      const audit = async (path: string) => {
        await page.goto(`${service.url}${path}`);
        await page.evaluate(axeSource);
        const violations = await page.evaluate(async () => {
          const result = await (
            globalThis as unknown as {
              axe: {
                run(): Promise<{ violations: Array<{ id: string; impact: string; nodes: unknown[] }> }>;
              };
            }
          ).axe.run();
          return result.violations
            .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
            .map((violation) => `${violation.id} (${violation.nodes.length})`);
        });
        expect(violations, `${path}: ${violations.join(", ")}`).toEqual([]);
      };
      await audit("/");
      await audit("/register");
      await audit("/login");
      await register(page, "a11y@example.com");
      await audit("/account");
      await page.goto(`${service.url}/reports`);
      await page.fill("#url", `${site.url}/`);
      await page.getByRole("button", { name: "Analyse", exact: true }).click();
      await page.waitForURL(/\/reports\/\d+$/);
      await audit(new URL(page.url()).pathname);
      await audit("/reports");
      await audit("/projects");
      await audit("/docs");
    });
  });
});
