/**
 * `npm run bench:crawl-diff`: comparing two crawls of 10,000 pages (`GET /crawls/{id}/diff`'s work), on SQLite
 * and on PostgreSQL. Two complete crawls are written straight into a fresh database (no site is fetched): 10,000
 * analysed pages each with their page-check statuses, 9,500 URLs in common (500 removed, 500 added), a regressed
 * check on every 10th common page and a fixed one on every 15th, a status change on every 50th; 3,000 site
 * findings each over three checks, 300 of each check new and 300 resolved.
 * Baseline, measured in the same run on the same database: one plain read of the newer crawl's pages (URL and
 * check statuses), the least any comparison must do. Reported: the diff's median time over 5 runs (target
 * < 2 s) and its ratio to the baseline. BENCH_DIFF_PAGES sets the crawls' size.
 */
import { type Insertable, sql } from "kysely";
import { CrawlComparison } from "../src/crawls/crawl-diff.js";
import { openCrawlStores } from "../src/crawls/crawl-stores.js";
import { insertNamedRows, namedPageChecks } from "../src/crawls/page-check-code-store.js";
import type { Database } from "../src/store/schema.js";
import type { Store } from "../src/store/store.js";
import { benchDatabase, benchUser, insertCompleteCrawl, insertInBatches } from "./seeded-crawl.js";

const pages = Number(process.env.BENCH_DIFF_PAGES ?? 10_000);
const runs = 5;
const siteChecks = ["broken-links", "orphan-pages", "duplicate-title"];
const findingsPerCheck = 1_000;
const changedFindings = 300;
/** A page's usual non-pass statuses (what a crawled page of the corpus typically has). */
const usual = {
  "llms-txt": "fail",
  "content-security-policy": "fail",
  hsts: "warn",
  "image-format": "warn",
  "structured-data": "warn",
  "social-preview": "fail",
  "largest-contentful-paint": "na",
  "cumulative-layout-shift": "na",
};

async function insertAll<Table extends "crawl_pages" | "crawl_issues" | "crawl_findings">(
  store: Store,
  table: Table,
  rows: Insertable<Database[Table]>[],
): Promise<void> {
  await store.db.transaction().execute((trx) => insertInBatches(trx, table, rows, 400));
}

function completeCrawl(store: Store, userId: number, finishedAt: string): Promise<number> {
  return insertCompleteCrawl(store, {
    userId,
    url: "https://bench.example/",
    pages,
    score: 80,
    result: "decent",
    finishedAt,
  });
}

/** Crawl `side` (0: the older, 1: the newer) of the generated site. */
async function fillCrawl(store: Store, crawlId: number, side: 0 | 1): Promise<void> {
  const common = pages - pages / 20;
  const indexes = [
    ...Array.from({ length: common }, (_, i) => i),
    ...Array.from({ length: pages - common }, (_, i) => (side === 0 ? common + i : pages + i)),
  ];
  const statusesOf = new Map<string, Record<string, string>>();
  await insertAll(
    store,
    "crawl_pages",
    indexes.map((i) => {
      const statuses: Record<string, string> = { ...usual };
      if (side === 1 && i % 10 === 0) statuses["image-alt"] = "fail";
      if (side === 0 && i % 15 === 0) statuses.title = "warn";
      statusesOf.set(`https://bench.example/p/${i}`, statuses);
      return {
        crawl_id: crawlId,
        url: `https://bench.example/p/${i}`,
        depth: 1,
        state: "done",
        status_code: side === 1 && i % 50 === 0 ? 404 : 200,
        content_type: "text/html",
        indexable: 1,
        report_id: i + 1,
        score: 80,
        result: "decent",
        excluded: null,
        error: null,
      };
    }),
  );
  // Each page's failed and warned checks, as the crawler records them.
  const stored = await store.db
    .selectFrom("crawl_pages")
    .select(["id", "url"])
    .where("crawl_id", "=", crawlId)
    .execute();
  await insertNamedRows(
    store.db,
    stored.flatMap((page) =>
      Object.entries(statusesOf.get(page.url) ?? {})
        .filter(([, status]) => status === "fail" || status === "warn")
        .map(([check, status]) => ({
          crawl_id: crawlId,
          page_id: page.id,
          check_id: check,
          status: status as "fail" | "warn",
          template: "/p/*",
        })),
    ),
  );
  const shift = side === 0 ? 0 : changedFindings;
  await insertAll(
    store,
    "crawl_issues",
    siteChecks.map((check, position) => ({
      crawl_id: crawlId,
      position,
      check_id: check,
      category: "seo",
      importance: position === 0 ? "high" : "medium",
      title: check,
      message: `${findingsPerCheck} found.`,
      count: findingsPerCheck,
      items: "[]",
      truncated: findingsPerCheck - 100,
    })),
  );
  await insertAll(
    store,
    "crawl_findings",
    siteChecks.flatMap((check) =>
      Array.from({ length: findingsPerCheck }, (_, position) => {
        const url = `https://bench.example/p/${position + shift}`;
        return {
          crawl_id: crawlId,
          check_id: check,
          position,
          fingerprint: `${check}:${url}`,
          item: JSON.stringify({ url, sources: ["https://bench.example/"], fingerprint: `${check}:${url}` }),
        };
      }),
    ),
  );
}

async function median(work: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    await work();
    times.push(performance.now() - started);
  }
  return (times.sort((a, b) => a - b)[Math.floor(runs / 2)] as number) / 1000;
}

async function bench(kind: "sqlite" | "postgres"): Promise<boolean> {
  const database = await benchDatabase(kind);
  const { store } = database;
  try {
    const { userId } = await benchUser(store);
    const older = await completeCrawl(store, userId, "2026-01-01T00:00:00.000Z");
    const newer = await completeCrawl(store, userId, "2026-01-08T00:00:00.000Z");
    const building = performance.now();
    await fillCrawl(store, older, 0);
    await fillCrawl(store, newer, 1);
    if (kind === "postgres") await sql`analyze`.execute(store.db);
    const buildSeconds = (performance.now() - building) / 1000;
    const stores = openCrawlStores(store);
    const comparison = new CrawlComparison(stores.crawls, stores.diffs);
    const baseline = await median(() => namedPageChecks(store.db, newer));
    const diff = await comparison.diff(userId, newer);
    const seconds = await median(() => new CrawlComparison(stores.crawls, stores.diffs).diff(userId, newer));
    const regressed = diff?.page_checks.find((check) => check.check === "image-alt")?.regressed;
    const newFindings = diff?.site_issues.reduce((total, issue) => total + issue.new_count, 0);
    const met = seconds < 2;
    console.log(
      `${kind.padEnd(8)} two crawls of ${pages} pages built in ${buildSeconds.toFixed(1)} s; ` +
        `diff ${seconds.toFixed(3)} s (target < 2 s: ${met ? "met" : "NOT MET"}), ` +
        `baseline (one read of a crawl's pages) ${baseline.toFixed(3)} s, ratio ${(seconds / baseline).toFixed(1)}×; ` +
        `found ${newFindings} new findings, ${regressed} pages regressed on image-alt, ` +
        `${diff?.pages.added.length}+ added, ${diff?.pages.truncated} entries left out of the page lists`,
    );
    return met;
  } finally {
    await database.drop();
  }
}

const results = [await bench("sqlite"), await bench("postgres")];
process.exitCode = results.every(Boolean) ? 0 : 1;
