/**
 * One judging process of `bench:site-checks`: opens the database it is given, then either judges the crawl
 * (`judge`: what a crawl's finishing part does) or only reads its page and link rows a batch at a time without
 * keeping them (`read`: the least any judgement does). Prints one line of JSON: seconds, peak RSS in MB, the
 * longest the event loop was held (ms), what the judgement found (issues and their counts) and each step's time,
 * longest hold of the event loop and the peak RSS when it ended.
 */
import { openCrawlStores } from "../../src/crawls/crawl-stores.js";
import { judgeCrawl } from "../../src/crawls/site-judgement.js";
import { openStore } from "../../src/store/database.js";

const [mode, databaseUrl, schema, userId, crawlId] = process.argv.slice(2);
const store = await openStore(databaseUrl as string, schema ? { schema } : {});
const stores = openCrawlStores(store);
const crawl = await stores.crawls.find(Number(userId), Number(crawlId));
if (!crawl) throw new Error("no such crawl");
// The longest gap between two ticks of a 10 ms timer, less the 10 ms: how long the event loop was held.
let loopMaxMs = 0;
let stepMaxMs = 0;
let lastTick = performance.now();
const ticker = setInterval(() => {
  const now = performance.now();
  loopMaxMs = Math.max(loopMaxMs, now - lastTick - 10);
  stepMaxMs = Math.max(stepMaxMs, now - lastTick - 10);
  lastTick = now;
}, 10);
/** The longest hold since `stepMaxMs` was last reset, counting the turn running now. */
const loopMaxMsSince = () => Math.max(stepMaxMs, performance.now() - lastTick - 10);
const started = performance.now();
let found: Record<string, number> = {};
/**
 * Per step (inlinks, each check, saving): its time and the longest the event loop was held during it, in ms, and
 * the process's peak RSS in MB when it ended (the step that raises it is the one that holds the most).
 */
const steps: Record<string, [ms: number, heldMs: number, peakRssMb: number]> = {};
if (mode === "judge") {
  await judgeCrawl(stores.site, crawl, (step, ms) => {
    steps[step] = [
      Math.round(ms),
      Math.round(loopMaxMsSince()),
      Math.round(process.resourceUsage().maxRSS / 1024),
    ];
    stepMaxMs = 0;
  });
  const issues = await store.db
    .selectFrom("crawl_issues")
    .select(["check_id", "count"])
    .where("crawl_id", "=", crawl.id)
    .execute();
  found = Object.fromEntries(issues.map((issue) => [issue.check_id, Number(issue.count)]));
} else {
  let lastId = 0;
  for (;;) {
    const rows = await store.db
      .selectFrom("crawl_pages")
      .selectAll()
      .where("crawl_id", "=", crawl.id)
      .where("id", ">", lastId)
      .orderBy("id")
      .limit(2000)
      .execute();
    if (rows.length === 0) break;
    lastId = (rows.at(-1) as { id: number }).id;
    await store.db
      .selectFrom("crawl_links")
      .selectAll()
      .where("crawl_id", "=", crawl.id)
      .where(
        "from_page",
        "in",
        rows.map((row) => row.id),
      )
      .execute();
  }
}
const seconds = (performance.now() - started) / 1000;
clearInterval(ticker);
await store.close();
console.log(
  JSON.stringify({
    seconds,
    rssMb: process.resourceUsage().maxRSS / 1024,
    loopMaxMs,
    found,
    steps,
  }),
);
