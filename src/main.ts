/**
 * Starts the service: configuration from the environment, the store (created and migrated on first start),
 * the analysis engine, the job queue (its workers run here unless PAGEGRADE_WORKERS=0), the HTTP server, then
 * a probe launch of Chromium that logs one line naming the setting when rendered mode and PDFs cannot work.
 * SIGTERM/SIGINT close it gracefully: the server stops accepting, in-flight requests finish, running jobs finish
 * or are handed back within PAGEGRADE_JOB_GRACE_SECONDS, then the database closes.
 */
import type { AddressInfo } from "node:net";
import { Analyzer } from "./analysis/analyse.js";
import { buildApp } from "./app.js";
import { ConfigError, loadAnalysisConfig, loadServiceConfig } from "./config.js";
import { applyHeapGrowth } from "./runtime/heap-growth.js";
import { openStore } from "./store/database.js";

async function start(): Promise<void> {
  applyHeapGrowth();
  const config = loadServiceConfig();
  const analyzer = new Analyzer(loadAnalysisConfig());
  const store = await openStore(config.databaseUrl);
  const app = await buildApp({ store, analyzer, config });
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, "shutting down");
    // Stops accepting, lets in-flight requests finish, then the jobs (finished or handed back in the grace).
    await app.close();
    await analyzer.close();
    await store.close();
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
  await app.listen({ host: config.host, port: config.port });
  app.log.info(`pagegrade is ready: open ${addressToOpen(config.host, app.server.address())} in a browser`);
  // Whether Chromium starts here, found once now rather than by the first rendered analysis or PDF.
  const chromium = await analyzer.chromium.probe();
  if (chromium.problem) {
    app.log.warn(
      { chromium: chromium.launchError },
      `rendered mode and PDFs are unavailable: ${chromium.problem}`,
    );
  }
}

start().catch((error: unknown) => {
  const message =
    error instanceof ConfigError
      ? `configuration: ${error.message}`
      : ((error as Error)?.message ?? String(error));
  process.stderr.write(`pagegrade: cannot start: ${message}\n`);
  process.exit(1);
});

/** The address a person opens: the host and port listened on, a wildcard host shown as localhost. */
function addressToOpen(host: string, address: string | AddressInfo | null): string {
  const port = typeof address === "object" && address !== null ? address.port : "";
  const shown =
    host === "0.0.0.0" || host === "::" || host === ""
      ? "localhost"
      : host.includes(":")
        ? `[${host}]`
        : host;
  return `http://${shown}:${port}/`;
}
