/**
 * `npm run bench:pages`: server-side render time of the heaviest pages, through the whole app (routing, session,
 * store queries on SQLite, the view, the layout): a report page with every check of the catalogue failing with
 * 50 evidence items each, the page of a finished 10,000-page crawl with a page-sized issue list, its page
 * checks rolled up and its 30,000 links; the links listing (its last page, and filtered by target), the last page
 * of a check's failing pages, and the project dashboard showing what changed in that crawl against the one
 * before: its first view (one request) with the summary stored when the crawl completed (by another process, as
 * a worker does), its first view of crawls completed before summaries were stored (one request, which compares
 * the two crawls live and stores the summary), then seen again. The
 * baseline, measured in the same run, is the landing page (the same app path, session included, with no data).
 * Prints the median and p95 of each and its ratio to the baseline; the goal is under 100 ms each.
 */
import { catalogue } from "../src/analysis/catalogue.js";
import { CrawlChangeSummaries } from "../src/crawls/crawl-change-summary.js";
import { CrawlComparison } from "../src/crawls/crawl-diff.js";
import type { CrawlRow } from "../src/crawls/crawl-store.js";
import { openCrawlStores } from "../src/crawls/crawl-stores.js";
import { insertNamedRows } from "../src/crawls/page-check-code-store.js";
import { ReportStore } from "../src/store/report-store.js";
import { timestamp } from "../src/timestamps.js";
import { startApi } from "../test/helpers/api.js";
import { runningCrawl } from "../test/helpers/crawl-rows.js";
import { seedColumns, seedRow } from "../test/helpers/seed.js";
import { WebClient } from "../test/helpers/web-client.js";

const rounds = Number(process.env.BENCH_ROUNDS ?? 40);
const crawlPages = 10_000;

const api = await startApi("sqlite");
const client = new WebClient(api.app);
await client.post("/register", { email: "bench@example.com", password: "correct horse battery" });
const db = api.database.store.db;
const { id: userId } = await db
  .selectFrom("users")
  .select("id")
  .where("email", "=", "bench@example.com")
  .executeTakeFirstOrThrow();

// A report whose every check fails with 50 evidence items (half of them identical, as image lists often are).
const results = Object.fromEntries(
  catalogue.map((entry) => [
    entry.id,
    {
      category: entry.category,
      importance: entry.importance,
      status: "fail",
      passed: false,
      value: null,
      message: `${entry.title} failed.`,
      details: {
        items: Array.from({ length: 50 }, (_, index) => ({
          src: index % 2 ? `/image-${index}.png` : "data:image/gif;base64,R0lGOD",
        })),
        truncated: 10,
      },
    },
  ]),
);
const inserted = await new ReportStore(api.database.store).insert(
  seedRow(userId, { url: "https://bench.example/", score: 12, results: JSON.stringify(results) }),
);

// Two finished crawls of 10,000 pages of one project, each with its links (3 a page, anchor text included),
// its page checks (3 failing or warning on every page) and site issues; the second breaks a different page in
// every 50 and fails one more check on a page in 10, so the dashboard's comparison has changes to find.
async function seedCrawl(variant: number, finishedAt: string): Promise<number> {
  const crawl = await runningCrawl(openCrawlStores(api.database.store), userId, { max_pages: crawlPages });
  const broken = (index: number) => (index + variant) % 50 === 0;
  const statuses = (index: number) => ({
    "image-alt": "fail",
    "meta-description": index % 2 ? "warn" : "fail",
    ...(variant === 1 && index % 10 === 0 ? { "heading-order": "fail" } : {}),
  });
  for (let start = 0; start < crawlPages; start += 500) {
    const pages = await db
      .insertInto("crawl_pages")
      .values(
        Array.from({ length: 500 }, (_, offset) => {
          const index = start + offset;
          return {
            crawl_id: crawl.id,
            url: `https://site.example/page-${index}`,
            depth: index === 0 ? 0 : 1 + (index % 7),
            state: broken(index) ? "failed" : "done",
            status_code: broken(index) ? 404 : 200,
            title: `Page ${index}`,
            score: broken(index) ? null : index % 100,
            result: broken(index) ? null : "decent",
            inlinks: index % 13,
          };
        }),
      )
      .returning(["id", "url"])
      .execute();
    await db
      .insertInto("crawl_links")
      .values(
        pages.flatMap((page, offset) =>
          [1, 2, 3].map((step) => ({
            crawl_id: crawl.id,
            from_page: page.id,
            to_url: `https://site.example/page-${(start + offset + step * 37) % crawlPages}`,
            nofollow: step === 3 ? 1 : 0,
            anchor: `Read page ${(start + offset + step * 37) % crawlPages} <now>`,
          })),
        ),
      )
      .execute();
    await insertNamedRows(
      db,
      pages.flatMap((page, offset) =>
        Object.entries(statuses(start + offset)).map(([check, status]) => ({
          crawl_id: crawl.id,
          page_id: page.id,
          check_id: check,
          status: status as "fail" | "warn",
          template: `/${page.url.split("/")[3]}`,
        })),
      ),
    );
  }
  const issueItems = Array.from({ length: 200 }, (_, index) => ({
    url: `https://site.example/page-${index * 50 + variant}`,
    status_code: 404,
    sources: Array.from({ length: 8 }, (_, source) => `https://site.example/page-${source}`),
  }));
  await db
    .insertInto("crawl_issues")
    .values(
      ["broken-links", "duplicate-title", "orphan-pages", "redirect-chains"].map((check, position) => ({
        crawl_id: crawl.id,
        position,
        check_id: check,
        category: "seo",
        importance: position === 0 ? "high" : "medium",
        title: check,
        message: `${check} found.`,
        count: 200,
        items: JSON.stringify(issueItems),
        truncated: 0,
      })),
    )
    .execute();
  await db
    .insertInto("crawl_findings")
    .values(
      issueItems.map((item, position) => ({
        crawl_id: crawl.id,
        check_id: "broken-links",
        position,
        fingerprint: item.url,
        item: JSON.stringify(item),
      })),
    )
    .execute();
  await db
    .updateTable("crawls")
    .set({
      status: "complete",
      analysed: crawlPages - 200,
      failed: 200,
      discovered: crawlPages,
      score: 49 + variant,
      result: "bad",
      finished_at: finishedAt,
    })
    .where("id", "=", crawl.id)
    .execute();
  return crawl.id;
}
// The project the crawls belong to has a report, as every project does.
await db
  .insertInto("reports")
  .values(seedColumns(userId, { url: "https://site.example/", score: 60 }))
  .execute();
const seeding = performance.now();
await seedCrawl(0, "2026-01-01T00:00:00.000000Z");
const crawlId = await seedCrawl(1, timestamp());
console.log(
  `seeded two crawls of ${crawlPages} pages in ${((performance.now() - seeding) / 1000).toFixed(1)} s`,
);
// What completing the second crawl records, by services of its own (another process's, as a worker's are): the
// app's comparison service remembers nothing of it.
const workerStores = openCrawlStores(api.database.store);
const recordSummary = () =>
  workerStores.crawls
    .find(userId, crawlId)
    .then((crawl) =>
      new CrawlChangeSummaries(
        new CrawlComparison(workerStores.crawls, workerStores.diffs),
        workerStores.summaries,
        workerStores.diffs,
      ).record(crawl as CrawlRow),
    );
const recording = performance.now();
await recordSummary();
console.log(
  `summarised the crawl's changes at completion in ${(performance.now() - recording).toFixed(0)} ms`,
);

async function measure(path: string): Promise<{ median: number; p95: number; bytes: number }> {
  const times: number[] = [];
  let bytes = 0;
  for (let round = 0; round < rounds + 5; round++) {
    const started = performance.now();
    const response = await client.get(path);
    const elapsed = performance.now() - started;
    if (response.statusCode !== 200) throw new Error(`${path} answered ${response.statusCode}`);
    bytes = response.body.length;
    if (round >= 5) times.push(elapsed);
  }
  times.sort((a, b) => a - b);
  return {
    median: times[Math.floor(times.length / 2)] as number,
    p95: times[Math.min(times.length - 1, Math.floor(times.length * 0.95))] as number,
    bytes,
  };
}

/**
 * One request, for what a process does once and then remembers: the dashboard's first view of crawls without
 * a stored summary compares the two crawls (and stores the summary); later views read it.
 */
async function measureOnce(path: string): Promise<{ median: number; p95: number; bytes: number }> {
  const started = performance.now();
  const response = await client.get(path);
  const elapsed = performance.now() - started;
  if (response.statusCode !== 200) throw new Error(`${path} answered ${response.statusCode}`);
  return { median: elapsed, p95: elapsed, bytes: response.body.length };
}

const baseline = await measure("/");
const rows: Array<[string, Awaited<ReturnType<typeof measure>>]> = [
  ["landing page (baseline)", baseline],
  [`report page, ${catalogue.length} failed checks × 50 items`, await measure(`/reports/${inserted.id}`)],
  [`crawl page, ${crawlPages} pages`, await measure(`/crawls/${crawlId}`)],
  [`crawl links, last page of ${3 * crawlPages}`, await measure(`/crawls/${crawlId}/links?page=600`)],
  [`links to one page`, await measure(`/crawls/${crawlId}/links?to=https://site.example/page-5000`)],
  [`pages failing a check, last page`, await measure(`/crawls/${crawlId}/checks/image-alt/pages?page=200`)],
  ["project dashboard, first view (stored)", await measureOnce("/projects/site.example")],
  [
    "project dashboard, first view (compared live)",
    await db
      .deleteFrom("crawl_change_summaries")
      .execute()
      .then(() => measureOnce("/projects/site.example")),
  ],
  ["project dashboard, seen again", await measure("/projects/site.example")],
];
for (const [name, row] of rows) {
  console.log(
    `${name.padEnd(45)} median ${row.median.toFixed(1).padStart(6)} ms  p95 ${row.p95.toFixed(1).padStart(6)} ms  ${(row.median / baseline.median).toFixed(1).padStart(5)}× baseline  ${(row.bytes / 1024).toFixed(0)} KiB`,
  );
}
await api.close();
