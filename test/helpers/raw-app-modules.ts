/**
 * Run as its own process (`node --import tsx test/helpers/raw-app-modules.ts`): builds and starts the app on a
 * fresh SQLite file, answers a few raw-only requests (a user, a report list, /healthz, an unknown page), and
 * prints as JSON the files of playwright-core that the process has loaded. playwright-core's ESM entry loads
 * its CommonJS build, so every one of its files passes through the CommonJS module cache. As a control, it then
 * imports playwright-core itself and counts again, which shows the count sees it when it is loaded.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AccountService } from "../../src/accounts/account-service.js";
import { Analyzer } from "../../src/analysis/analyse.js";
import { buildApp } from "../../src/app.js";
import { loadAnalysisConfig, loadServiceConfig } from "../../src/config.js";
import { openStore } from "../../src/store/database.js";

function playwrightFiles(): string[] {
  const cache = createRequire(import.meta.url).cache;
  return Object.keys(cache).filter((file) => file.includes("/node_modules/playwright-core/"));
}

const directory = mkdtempSync(join(tmpdir(), "pagegrade-raw-app-"));
try {
  const store = await openStore(`sqlite:${join(directory, "raw.db")}`);
  const analyzer = new Analyzer(loadAnalysisConfig({}));
  const config = loadServiceConfig({ DATABASE_URL: `sqlite:${join(directory, "raw.db")}` });
  const app = await buildApp({ store, analyzer, config, logger: false });
  await app.ready();
  const { key } = await new AccountService(store).createUser("raw@example.com", null);
  const statuses = [];
  for (const url of ["/api/v1/reports", "/api/v1/account", "/healthz", "/nothing-here", "/api/v1/nothing"]) {
    const response = await app.inject({ url, headers: { authorization: `Bearer ${key}` } });
    statuses.push(response.statusCode);
  }
  await app.close();
  await analyzer.close();
  await store.close();
  const loaded = playwrightFiles();
  await import("playwright-core");
  process.stdout.write(`${JSON.stringify({ statuses, loaded, afterImport: playwrightFiles().length })}\n`);
} finally {
  rmSync(directory, { recursive: true, force: true });
}
