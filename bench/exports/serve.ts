/**
 * The service for `npm run bench:exports`, in a process of its own so that its RSS is the service's alone: opens
 * the seeded database (BENCH_DATABASE_URL, BENCH_SCHEMA for PostgreSQL) with the heap growth the service sets
 * (src/runtime/heap-growth.ts), listens on 127.0.0.1 and prints its port.
 */
import type { AddressInfo } from "node:net";
import { Analyzer } from "../../src/analysis/analyse.js";
import { buildApp } from "../../src/app.js";
import { loadAnalysisConfig, loadServiceConfig } from "../../src/config.js";
import { applyHeapGrowth } from "../../src/runtime/heap-growth.js";
import { openStore } from "../../src/store/database.js";

// As the service's own entry point does first.
applyHeapGrowth();

const databaseUrl = process.env.BENCH_DATABASE_URL as string;
const schema = process.env.BENCH_SCHEMA;
const store = await openStore(databaseUrl, schema ? { schema } : {});
const app = await buildApp({
  store,
  analyzer: new Analyzer(loadAnalysisConfig({})),
  config: loadServiceConfig({
    DATABASE_URL: databaseUrl,
    PAGEGRADE_RATE_LIMIT: "0",
    PAGEGRADE_WORKERS: "0",
    LOG_LEVEL: "silent",
  }),
  logger: false,
});
await app.listen({ host: "127.0.0.1", port: 0 });
process.stdout.write(`${(app.server.address() as AddressInfo).port}\n`);
process.on("SIGTERM", () => {
  void app.close().then(() => store.close().then(() => process.exit(0)));
});
