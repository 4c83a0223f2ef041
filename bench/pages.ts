/**
 * `npm run bench:pages`: server-side render time of the heaviest pages, through the whole app (routing, session,
 * store queries on SQLite, the view, the layout): a report page with every check of the catalogue failing with
 * 50 evidence items each, and the page of a finished 10,000-page crawl with a page-sized issue list. The
 * baseline, measured in the same run, is the landing page (the same app path, session included, with no data). Prints the median and
 * p95 of each and its ratio to the baseline; the goal is under 100 ms each.
 */
import { catalogue } from "../src/analysis/catalogue.js";
import { openCrawlStores } from "../src/crawls/crawl-stores.js";
import { ReportStore } from "../src/store/report-store.js";
import { timestamp } from "../src/timestamps.js";
import { startApi } from "../test/helpers/api.js";
import { runningCrawl } from "../test/helpers/crawl-rows.js";
import { seedRow } from "../test/helpers/seed.js";
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

// A finished crawl of 10,000 pages with its links and site issues.
const crawl = await runningCrawl(openCrawlStores(api.database.store), userId, { max_pages: crawlPages });
const now = timestamp();
for (let start = 0; start < crawlPages; start += 500) {
  await db
    .insertInto("crawl_pages")
    .values(
      Array.from({ length: 500 }, (_, offset) => {
        const index = start + offset;
        return {
          crawl_id: crawl.id,
          url: `https://site.example/page-${index}`,
          depth: index === 0 ? 0 : 1 + (index % 7),
          state: index % 50 === 0 ? "failed" : "analysed",
          status_code: index % 50 === 0 ? 404 : 200,
          title: `Page ${index}`,
          score: index % 50 === 0 ? null : index % 100,
          result: index % 50 === 0 ? null : "decent",
          inlinks: index % 13,
        };
      }) as never,
    )
    .execute();
}
const issueItems = Array.from({ length: 200 }, (_, index) => ({
  url: `https://site.example/page-${index * 50}`,
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
    })) as never,
  )
  .execute();
await db
  .updateTable("crawls")
  .set({
    status: "complete",
    analysed: crawlPages - 200,
    failed: 200,
    discovered: crawlPages,
    score: 49,
    result: "bad",
    finished_at: now,
  } as never)
  .where("id", "=", crawl.id)
  .execute();

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

const baseline = await measure("/");
const rows: Array<[string, Awaited<ReturnType<typeof measure>>]> = [
  ["landing page (baseline)", baseline],
  [`report page, ${catalogue.length} failed checks × 50 items`, await measure(`/reports/${inserted.id}`)],
  [`crawl page, ${crawlPages} pages`, await measure(`/crawls/${crawl.id}`)],
];
for (const [name, row] of rows) {
  console.log(
    `${name.padEnd(45)} median ${row.median.toFixed(1).padStart(6)} ms  p95 ${row.p95.toFixed(1).padStart(6)} ms  ${(row.median / baseline.median).toFixed(1).padStart(5)}× baseline  ${(row.bytes / 1024).toFixed(0)} KiB`,
  );
}
await api.close();
