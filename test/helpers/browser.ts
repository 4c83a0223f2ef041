/**
 * The real thing for browser tests: the service listening on 127.0.0.1 (SQLite file, real engine allowed to
 * reach local pages) and Debian's Chromium driven by playwright-core. A failing test leaves a screenshot in
 * test-results/.
 */
import { mkdirSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { type Browser, chromium, type Page } from "playwright-core";
import { Analyzer } from "../../src/analysis/analyse.js";
import { buildApp } from "../../src/app.js";
import { loadAnalysisConfig, loadServiceConfig } from "../../src/config.js";
import { freshDatabase, testServiceSettings } from "./api.js";

export const chromiumPath = process.env.PAGEGRADE_CHROMIUM ?? "/usr/bin/chromium";

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--no-first-run",
      "--disable-sync",
    ],
  });
}

/** `settings` adds to the service's environment (e.g. `PAGEGRADE_CRAWL_DELAY_MS`). */
export async function startService(settings: Record<string, string> = {}) {
  const database = await freshDatabase("sqlite");
  const analyzer = new Analyzer(
    loadAnalysisConfig({
      PAGEGRADE_ALLOW_PRIVATE_NETWORKS: "1",
      PAGEGRADE_PROBE_CACHE_SECONDS: "0",
      // Tests run as root, where Chromium (rendered mode) cannot have its sandbox.
      PAGEGRADE_CHROMIUM_SANDBOX: "0",
    }),
  );
  const config = loadServiceConfig({ DATABASE_URL: database.url, ...testServiceSettings, ...settings });
  const app = await buildApp({ store: database.store, analyzer, config, logger: false });
  await app.listen({ host: "127.0.0.1", port: 0 });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  return {
    url,
    close: async () => {
      await app.close();
      await analyzer.close();
      await database.drop();
    },
  };
}

/** Runs a browser step and saves a screenshot of the page when it fails. */
export async function withScreenshot<T>(page: Page, name: string, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    mkdirSync("test-results", { recursive: true });
    await page
      .screenshot({ path: `test-results/${name.replace(/[^a-z0-9-]+/gi, "-")}.png`, fullPage: true })
      .catch(() => {});
    throw error;
  }
}
