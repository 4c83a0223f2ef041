/**
 * `npm run bench:crawl`: a generated local site of 10,000 pages made of the corpus's real pages
 * (bench/crawl/generated-site.ts), politeness off.
 *  1. Baseline, measured in the same run before the crawls and again after them (the crawls are compared with
 *     the mean of both, as the machine's speed drifts): the analysis engine alone (what bench:analysis
 *     measures, on the same pages) over 1,000 of the site's pages at the crawl's concurrency, with the heap
 *     growth the service's processes set (src/runtime/heap-growth.ts), as the crawls run; then rounds with it
 *     and with Node's own heap growth in turns, to show what that setting costs the engine.
 *  2. Crawls of 1,000 and of 10,000 pages, each in a process of its own (bench/crawl/run-crawl.ts, started with
 *     the Node.js flag and environment `npm start` gives the service) with the service's crawler over a fresh
 *     SQLite database: pages per second against the baseline (target ≥ 0.8×),
 *     wall time (target < 5 minutes for 10,000), peak RSS at 1,000 and at 10,000 pages (target flat, under
 *     300 MB; the engine alone's peak, in this process, is printed beside it), database bytes per analysed
 *     page, in all and by table (bench/storage/database-bytes.ts).
 * BENCH_CRAWL_PAGES sets the large crawl's size; BENCH_CRAWL_CONCURRENCY the requests at once (default 8, as
 * bench:analysis); BENCH_CRAWL_DATABASE=postgres://… stores the crawls in PostgreSQL instead (a fresh schema
 * each, dropped afterwards).
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { setFlagsFromString } from "node:v8";
import { Analyzer } from "../src/analysis/analyse.js";
import { loadAnalysisConfig } from "../src/config.js";
import { applyHeapGrowth } from "../src/runtime/heap-growth.js";

const largeCrawl = Number(process.env.BENCH_CRAWL_PAGES ?? 10_000);
const concurrency = Number(process.env.BENCH_CRAWL_CONCURRENCY ?? 8);
const baselinePages = 1_000;
/** What `npm start` (package.json) gives the service's process besides MALLOC_ARENA_MAX=2 (see the README). */
const serviceNodeFlags = ["--max-semi-space-size=16"];

/** What bench/crawl/run-crawl.ts prints of a crawl. */
interface CrawlResult {
  status: string;
  seconds: number;
  analysed: number;
  failed: number;
  peakRssMb: number;
  databaseBytesPerPage: number;
  /** Bytes per analysed page by table (indexes included), and their total. */
  tables: Record<string, number>;
}

const here = new URL(".", import.meta.url).pathname;
const site = spawn(process.execPath, ["--import", "tsx", `${here}crawl/generated-site.ts`], {
  stdio: ["pipe", "pipe", "inherit"],
  env: { ...process.env, BENCH_SITE_PAGES: String(largeCrawl) },
});
const base = ((await once(site.stdout, "data")) as [Buffer])[0].toString().trim();

try {
  // 1. The engine alone over the same pages: a warm-up pass, then the measured pass.
  const analyzer = new Analyzer(
    loadAnalysisConfig({ ...process.env, PAGEGRADE_ALLOW_PRIVATE_NETWORKS: "1" }),
  );
  const analyse = async (count: number) => {
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < count) await analyzer.analyse(`${base}/p/${next++}`);
      }),
    );
    return count / ((performance.now() - started) / 1000);
  };
  applyHeapGrowth();
  await analyse(200);
  const baselineBefore = await analyse(baselinePages);
  // This process has done nothing but the engine's work (the site runs in a process of its own), so its peak
  // memory is the engine's at this concurrency: the floor for a crawl's.
  const enginePeakRssMb = process.resourceUsage().maxRSS / 1024;
  // What the heap growth setting costs the engine: rounds with it and with Node's own, in turns (so that the
  // JIT's warming up favours neither).
  const rates = { service: 0, node: 0 };
  for (let round = 0; round < 3; round++) {
    applyHeapGrowth();
    rates.service += await analyse(300);
    setFlagsFromString("--heap-growing-percent=0");
    rates.node += await analyse(300);
  }
  applyHeapGrowth();
  console.log(`site ${base}, ${largeCrawl} pages; ${concurrency} requests at once`);
  console.log(
    `baseline: the analysis engine alone, ${baselinePages} pages: ${baselineBefore.toFixed(1)} pages/s, peak RSS ${Math.round(enginePeakRssMb)} MB; ` +
      `its speed with the service's heap growth against Node's own, in turns: ${(rates.service / rates.node).toFixed(2)}×`,
  );

  // 2. The crawls.
  const results: Array<{ pages: number; result: CrawlResult }> = [];
  for (const pages of [1_000, largeCrawl]) {
    const child = spawn(
      process.execPath,
      [
        ...serviceNodeFlags,
        "--import",
        "tsx",
        `${here}crawl/run-crawl.ts`,
        `${base}/p/0`,
        String(pages),
        String(concurrency),
      ],
      {
        stdio: ["ignore", "pipe", "inherit"],
        env: { ...process.env, MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? "2" },
      },
    );
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    const [code] = (await once(child, "exit")) as [number];
    if (code !== 0) throw new Error(`the crawl of ${pages} pages exited with ${code}`);
    results.push({ pages, result: JSON.parse(output.trim().split("\n").pop() as string) });
  }

  // 3. The engine alone again, now that the crawls are done: the machine's speed drifts over minutes, so the
  // crawls are compared with the mean of the engine's speed before and after them.
  const baselineAfter = await analyse(baselinePages);
  await analyzer.close();
  const baseline = (baselineBefore + baselineAfter) / 2;
  console.log(
    `the engine alone again after the crawls: ${baselineAfter.toFixed(1)} pages/s; the crawls are compared with the mean, ${baseline.toFixed(1)} pages/s\n`,
  );
  const rows = results.map(({ pages, result }) => {
    const rate = result.analysed / result.seconds;
    return {
      pages,
      status: result.status,
      analysed: result.analysed,
      failed: result.failed,
      seconds: result.seconds.toFixed(1),
      "pages/s": rate.toFixed(1),
      "vs engine": `${(rate / baseline).toFixed(2)}×`,
      "peak RSS MB": Math.round(result.peakRssMb),
      "DB bytes/page": Math.round(result.databaseBytesPerPage),
    };
  });
  console.table(rows);
  console.log("\ndatabase bytes per analysed page, by table (indexes included):");
  console.table(Object.fromEntries(results.map(({ pages, result }) => [`${pages} pages`, result.tables])));
  const [small, large] = rows as [(typeof rows)[number], (typeof rows)[number]];
  console.log(
    `\n${largeCrawl} pages in ${large.seconds} s (target < 300 s); ${large["vs engine"]} the engine alone (target ≥ 0.8×); ` +
      `peak RSS ${small["peak RSS MB"]} MB at 1,000 pages, ${large["peak RSS MB"]} MB at ${largeCrawl} (target flat, < 300 MB)`,
  );
} finally {
  site.stdin.end();
}
