/**
 * One crawl for bench:crawl in a process of its own (so its peak memory is its own): the crawler the service
 * runs, over a fresh SQLite database in a temporary directory (or, with BENCH_CRAWL_DATABASE=postgres://…, a
 * fresh schema of that PostgreSQL database, dropped afterwards unless BENCH_CRAWL_KEEP_SCHEMA is set, so that its
 * tables and indexes can be looked at one by one), with politeness off and the heap growth the
 * service's processes set. Prints one JSON line:
 * seconds, pages analysed, peak RSS, database bytes per page, in all and per table (bench/storage/database-bytes.ts).
 * Arguments: <start URL> <max pages> <requests at once>.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { AccountService } from "../../src/accounts/account-service.js";
import { Analyzer } from "../../src/analysis/analyse.js";
import { defaultScheduleIntervals, loadAnalysisConfig } from "../../src/config.js";
import { crawlFields } from "../../src/crawls/crawl-service.js";
import { openCrawlStores } from "../../src/crawls/crawl-stores.js";
import { crawlHere } from "../../src/crawls/crawler.js";
import { silentEventSink } from "../../src/events/event-sink.js";
import { applyHeapGrowth } from "../../src/runtime/heap-growth.js";
import { openStore } from "../../src/store/database.js";
import { ReportStore } from "../../src/store/report-store.js";
import { timestamp } from "../../src/timestamps.js";
import { bytesPerTable, perPage } from "../storage/database-bytes.js";

applyHeapGrowth();
const [url, maxPagesText, concurrencyText] = process.argv.slice(2);
const maxPages = Number(maxPagesText);
const directory = mkdtempSync(join(tmpdir(), "pagegrade-bench-crawl-"));
const postgresUrl = process.env.BENCH_CRAWL_DATABASE;
const schema = `bench_crawl_${process.pid}`;
const store = await openStore(postgresUrl ?? `sqlite:${join(directory, "crawl.db")}`, {
  ...(postgresUrl ? { schema } : {}),
});
const analyzer = new Analyzer(loadAnalysisConfig({ ...process.env, PAGEGRADE_ALLOW_PRIVATE_NETWORKS: "1" }));
const stores = openCrawlStores(store);
const { crawls } = stores;
const userId = (await new AccountService(store).createUser("bench@pagegrade.invalid", null)).account.id;
const fields = crawlFields(
  { url, max_pages: maxPages, sitemaps: 0 },
  { maxPages, renderingAvailable: false },
);
const now = timestamp();
const parts = Number(concurrencyText);
const crawl = await crawls.insert({ ...fields, parts, user_id: userId, created_at: now, updated_at: now });

const started = performance.now();
await crawlHere(
  {
    stores,
    reports: new ReportStore(store, { historyLimit: 100 }),
    analyzer,
    events: silentEventSink,
    settings: { maxPages, perUser: 1, hostConcurrency: parts, delayMs: 0 },
    scheduleIntervals: defaultScheduleIntervals,
    outbound: analyzer.outbound(),
  },
  crawl,
);
const seconds = (performance.now() - started) / 1000;
const finished = await crawls.find(userId, crawl.id);
await analyzer.close();
const tables = perPage(await bytesPerTable(store), finished?.analysed ?? 0);
if (postgresUrl && !process.env.BENCH_CRAWL_KEEP_SCHEMA)
  await sql`drop schema ${sql.id(schema)} cascade`.execute(store.db);
await store.close();
rmSync(directory, { recursive: true, force: true });
process.stdout.write(
  `${JSON.stringify({
    status: finished?.status,
    seconds,
    analysed: finished?.analysed ?? 0,
    failed: finished?.failed ?? 0,
    issues: [finished?.issues_high, finished?.issues_medium, finished?.issues_low],
    peakRssMb: process.resourceUsage().maxRSS / 1024,
    databaseBytesPerPage: tables.total,
    tables,
  })}\n`,
);
