/**
 * axe-core on a page in real Chromium, the parts an ordinary page does not reach: a page that tampers with the
 * globals axe relies on (and defines its own `axe`) is still audited correctly, because axe runs in a world of
 * its own; a DOM too large to audit in the time allowed ends at the limit with a problem instead of holding the
 * render; and what leaves the page is bounded (50 nodes per rule with the count of all, 500-character snippets).
 */
import type { Browser, BrowserContext, CDPSession } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  auditAccessibility,
  maxAxeNodes,
  maxAxeText,
} from "../../src/analysis/checks/accessibility/axe-audit.js";
import { launchBrowser } from "../helpers/browser.js";

describe("axe-core in Chromium", () => {
  let browser: Browser;
  let context: BrowserContext;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser.close();
  });

  async function pageWith(html: string): Promise<CDPSession> {
    context = await browser.newContext({ viewport: { width: 412, height: 823 } });
    const page = await context.newPage();
    await page.setContent(html);
    return context.newCDPSession(page);
  }

  it("audits a page that tampers with the globals axe relies on", async () => {
    const cdp = await pageWith(`<!doctype html><html lang="en"><title>Tampering</title>
      <script>
        window.axe = { run: async () => ({ violations: [] }) };
        Array.prototype.map = function () { return []; };
        Object.keys = () => [];
        JSON.stringify = () => "{}";
        Promise.prototype.then = function () { return this; };
      </script><main><img src="/a.png" id="photo"></main>`);
    const outcome = await auditAccessibility(cdp, performance.now() + 20_000);
    await context.close();
    expect(outcome).toMatchObject({
      audit: {
        axeVersion: "4.14.1",
        violations: { "image-alt": { count: 1, nodes: [{ selector: "#photo" }] } },
      },
    });
  });

  it("bounds what leaves the page: 50 nodes per rule with the count of all, snippets cut", async () => {
    const images = Array.from({ length: 120 }, (_v, index) => `<img src="/${index}.png" title="">`).join("");
    const long = `<img src="/long.png" data-x="${"x".repeat(2_000)}">`;
    const cdp = await pageWith(
      `<!doctype html><html lang="en"><title>Many</title><main>${long}${images}</main>`,
    );
    const outcome = await auditAccessibility(cdp, performance.now() + 30_000);
    await context.close();
    if (!("audit" in outcome)) throw new Error(outcome.problem);
    const imageAlt = outcome.audit.violations["image-alt"];
    expect(imageAlt?.count).toBe(121);
    expect(imageAlt?.nodes).toHaveLength(maxAxeNodes);
    for (const node of imageAlt?.nodes ?? []) expect(node.snippet.length).toBeLessThanOrEqual(maxAxeText);
  });

  it("stops at the time limit on a DOM too large to audit in it", async () => {
    const rows = Array.from({ length: 20_000 }, (_v, index) => `<p style="color:#999">Row ${index}</p>`).join(
      "",
    );
    const cdp = await pageWith(`<!doctype html><html lang="en"><title>Huge</title><main>${rows}</main>`);
    const started = performance.now();
    const outcome = await auditAccessibility(cdp, performance.now() + 30_000, 200);
    const took = performance.now() - started;
    await context.close();
    expect(outcome).toEqual({ problem: "axe-core did not finish within 0.2 s" });
    expect(took).toBeLessThan(5_000);
  });
});
