/**
 * `npm run bench:crawl`: a generated local site made of the corpus's real pages (bench/crawl/generated-site.ts),
 * politeness off, crawled on either set-up or both (BENCH_CRAWL_SETUP=sqlite|distributed|both, default both).
 *  1. Baseline, measured in the same run before the crawls and again after them (the crawls are compared with
 *     the mean of both, as the machine's speed drifts): the analysis engine alone (what bench:analysis
 *     measures, on the same pages) over 1,000 of the site's pages at the crawl's concurrency, with the heap
 *     growth the service's processes set (src/runtime/heap-growth.ts), as the crawls run; then rounds with it
 *     and with Node's own heap growth in turns, to show what that setting costs the engine.
 *  2. SQLite: crawls of 1,000 and of BENCH_CRAWL_PAGES pages, each in a process of its own
 *     (bench/crawl/run-crawl.ts, started with the Node.js flag and environment `npm start` gives the service)
 *     with the service's crawler over a fresh SQLite database: pages per second against the baseline (target
 *     ≥ 0.8×), wall time (target < 5 minutes for 10,000), peak RSS at 1,000 and at 10,000 pages (target flat,
 *     under 300 MB; the engine alone's peak, in this process, is printed beside it), database bytes per analysed
 *     page, in all and by table (bench/storage/database-bytes.ts); BENCH_CRAWL_DATABASE=postgres://… stores
 *     these crawls in PostgreSQL instead (a fresh schema each, dropped afterwards; kept, named bench_crawl_<pid>,
 *     with BENCH_CRAWL_KEEP_SCHEMA=1).
 *  3. Distributed: a crawl of BENCH_CRAWL_PAGES pages on PostgreSQL and BullMQ, through an API process with no
 *     workers and `pagegrade worker` processes (bench/crawl/distributed.ts), once per worker count of
 *     BENCH_CRAWL_WORKERS (default 2; "1,2,4" draws the curve), the crawl's parts (BENCH_CRAWL_CONCURRENCY)
 *     shared among the workers: pages per second against the baseline (target ≥ 0.8×), wall time, peak RSS per
 *     process before and after half the pages (target flat, under 300 MB), each worker's peak with its analysis
 *     processes summed (target ≤ 350 MB), CPU per page by part (the workers, their analysis processes, the crawl's
 *     PostgreSQL connections and the server's own processes, the API, the site) against the engine's with the
 *     site's CPU while it served the engine (like for like), database bytes per page (after the VACUUM autovacuum would run, and
 *     before it: bench/storage/database-bytes.ts), Redis's memory, pages the site answered more
 *     than once and pages analysed more than once (target none), and where PostgreSQL's busy connections were
 *     (a sampling of pg_stat_activity: wait events and statements).
 * BENCH_CRAWL_PAGES sets the large crawl's size (default 10,000; 100,000 is the distributed target);
 * BENCH_CRAWL_CONCURRENCY the requests at once (default 8, as bench:analysis); BENCH_CRAWL_BASELINE_PAGES the
 * engine's measured pages (default 1,000); BENCH_CRAWL_CPU_PROF a directory for the workers' CPU profiles
 * (`--cpu-prof`); BENCH_POSTGRES_URL and
 * BENCH_REDIS_URL the servers (default: the local ones on their usual ports).
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { availableParallelism } from "node:os";
import { setFlagsFromString } from "node:v8";
import { Analyzer } from "../src/analysis/analyse.js";
import { loadAnalysisConfig } from "../src/config.js";
import { applyHeapGrowth } from "../src/runtime/heap-growth.js";
import { crawlDistributed, type DistributedCrawlResult } from "./crawl/distributed.js";
import { cpuSecondsOf } from "./crawl/process-sampler.js";

const largeCrawl = Number(process.env.BENCH_CRAWL_PAGES ?? 10_000);
const concurrency = Number(process.env.BENCH_CRAWL_CONCURRENCY ?? 8);
const baselinePages = Number(process.env.BENCH_CRAWL_BASELINE_PAGES ?? 1_000);
const setup = process.env.BENCH_CRAWL_SETUP ?? "both";
if (!["sqlite", "distributed", "both"].includes(setup)) {
  throw new Error(`BENCH_CRAWL_SETUP must be sqlite, distributed or both, got "${setup}"`);
}
const workerCounts = (process.env.BENCH_CRAWL_WORKERS ?? "2").split(",").map((count) => {
  const workers = Number(count.trim());
  if (!Number.isInteger(workers) || workers < 1) {
    throw new Error(`BENCH_CRAWL_WORKERS must be worker counts such as "1,2,4", got "${count}"`);
  }
  return workers;
});
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
let engineCpuMsPerPage = 0;
/** Of that, the analysis processes' share. */
let enginePoolCpuMsPerPage = 0;
/** The generated site's CPU per page while it served the engine (counted beside the engine's, like for like). */
let engineSiteCpuMsPerPage = 0;
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
  const poolCpuSeconds = () =>
    new Map((analyzer.analysisPool?.processIds ?? []).map((pid) => [pid, cpuSecondsOf(pid) ?? 0] as const));
  const cpuBefore = process.cpuUsage();
  const poolBefore = poolCpuSeconds();
  const siteBefore = cpuSecondsOf(site.pid as number) ?? 0;
  const baselineBefore = await analyse(baselinePages);
  // The site serves the engine's pages as it serves the crawls': its CPU is counted on both sides.
  engineSiteCpuMsPerPage = (((cpuSecondsOf(site.pid as number) ?? 0) - siteBefore) * 1000) / baselinePages;
  // CPU time per page of the engine alone (its threads and its analysis processes included), to hold a worker's
  // against.
  const cpuUsed = process.cpuUsage(cpuBefore);
  let poolUsedSeconds = 0;
  for (const [pid, seconds] of poolCpuSeconds()) poolUsedSeconds += seconds - (poolBefore.get(pid) ?? 0);
  engineCpuMsPerPage = ((cpuUsed.user + cpuUsed.system) / 1000 + poolUsedSeconds * 1000) / baselinePages;
  enginePoolCpuMsPerPage = (poolUsedSeconds * 1000) / baselinePages;
  // This process has done nothing but the engine's work (the site runs in a process of its own), so its peak
  // memory is the engine's at this concurrency: the floor for a crawl's.
  const enginePeakRssMb = process.resourceUsage().maxRSS / 1024;
  // What the heap growth setting costs the engine: rounds with it and with Node's own, in turns (so that the
  // JIT's warming up favours neither).
  const rates = { service: 0, node: 0 };
  // (On the SQLite set-up only: it is the one process whose heap setting the benchmark reads.)
  for (let round = 0; round < (setup === "distributed" ? 0 : 3); round++) {
    applyHeapGrowth();
    rates.service += await analyse(300);
    setFlagsFromString("--heap-growing-percent=0");
    rates.node += await analyse(300);
  }
  applyHeapGrowth();
  console.log(`site ${base}, ${largeCrawl} pages; ${concurrency} requests at once`);
  console.log(
    `baseline: the analysis engine alone, ${baselinePages} pages: ${baselineBefore.toFixed(1)} pages/s, ${engineCpuMsPerPage.toFixed(1)} ms CPU per page (${enginePoolCpuMsPerPage.toFixed(1)} of it in the analysis processes) + the site ${engineSiteCpuMsPerPage.toFixed(1)}, peak RSS ${Math.round(enginePeakRssMb)} MB; ` +
      (rates.node > 0
        ? `its speed with the service's heap growth against Node's own, in turns: ${(rates.service / rates.node).toFixed(2)}×`
        : ""),
  );

  // 2. The crawls on SQLite, one process each.
  const results: Array<{ pages: number; result: CrawlResult }> = [];
  for (const pages of setup === "distributed" ? [] : [1_000, largeCrawl]) {
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

  // 3. The crawls on the distributed set-up, one per worker count.
  const distributed: MeasuredDistributedCrawl[] = [];
  for (const workers of setup === "sqlite" ? [] : workerCounts) {
    // BENCH_CRAWL_CPU_PROF=<directory>: each worker writes a V8 CPU profile there when it stops.
    const profiles = process.env.BENCH_CRAWL_CPU_PROF;
    const siteCpuBefore = cpuSecondsOf(site.pid as number) ?? 0;
    const result = await crawlDistributed({
      site: base,
      pages: largeCrawl,
      workers,
      parts: concurrency,
      ...(profiles ? { cpuProfileDir: profiles } : {}),
    });
    distributed.push({ ...result, siteCpuSeconds: (cpuSecondsOf(site.pid as number) ?? 0) - siteCpuBefore });
  }

  // 4. The engine alone again, now that the crawls are done: the machine's speed drifts over minutes, so the
  // crawls are compared with the mean of the engine's speed before and after them.
  const baselineAfter = await analyse(baselinePages);
  await analyzer.close();
  const baseline = (baselineBefore + baselineAfter) / 2;
  console.log(
    `the engine alone again after the crawls: ${baselineAfter.toFixed(1)} pages/s; the crawls are compared with the mean, ${baseline.toFixed(1)} pages/s\n`,
  );
  if (results.length > 0) printSqlite(results, baseline);
  if (distributed.length > 0) printDistributed(distributed, baseline);
} finally {
  site.stdin.end();
}

function printSqlite(results: Array<{ pages: number; result: CrawlResult }>, baseline: number): void {
  console.log("SQLite, one process:");
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
}

/** A distributed crawl's figures, with the CPU the generated site spent serving it. */
type MeasuredDistributedCrawl = DistributedCrawlResult & { siteCpuSeconds: number };

function printDistributed(results: MeasuredDistributedCrawl[], baseline: number): void {
  console.log(
    `\nDistributed: PostgreSQL + BullMQ, an API process with no workers and pagegrade worker processes, ${concurrency} parts:`,
  );
  const rows = results.map((result) => {
    const rate = result.analysed / result.seconds;
    const workers = result.processes.filter((process) => process.role.startsWith("worker"));
    const byWorker = workerPeaks(workers);
    const api = Math.max(
      ...result.processes.filter((process) => process.role.startsWith("api")).map((p) => p.peakRssMb),
    );
    const workerCpu = workers.reduce((sum, process) => sum + process.cpuSeconds, 0);
    return {
      workers: result.workers,
      status: result.status,
      analysed: result.analysed,
      failed: result.failed,
      seconds: result.seconds.toFixed(1),
      "pages/s": rate.toFixed(1),
      "vs engine": `${(rate / baseline).toFixed(2)}×`,
      "worker RSS MB": [...byWorker.values()].map((peak) => Math.round(peak.own)).join(" "),
      "with analysis MB": [...byWorker.values()].map((peak) => Math.round(peak.tree)).join(" "),
      "API RSS MB": Math.round(api),
      "worker CPU ms/page": `${((workerCpu * 1000) / Math.max(1, result.analysed)).toFixed(1)} (engine ${engineCpuMsPerPage.toFixed(1)})`,
      "PG CPU ms/page": (
        ((result.postgresCpuSeconds + result.postgresBackgroundCpuSeconds) * 1000) /
        Math.max(1, result.analysed)
      ).toFixed(1),
      "DB bytes/page": Math.round(result.databaseBytesPerPage),
      "Redis MB": `${(result.redisPeakUsedMb - result.redisBaseUsedMb).toFixed(1)} (keys ${(result.redisKeysBytes / 1024 / 1024).toFixed(2)})`,
      "fetched >1": result.fetches.repeated,
      "analysed >1": result.analysedTwice.reports,
    };
  });
  console.table(rows);
  for (const result of results) {
    console.log(
      `\n${result.workers} worker(s), every process (peak RSS before half the pages → at the end, CPU):`,
    );
    for (const process of result.processes) {
      console.log(
        `  ${process.role.padEnd(18)} ${String(process.pid).padStart(7)}  ${Math.round(process.peakRssFirstHalfMb)} → ${Math.round(process.peakRssMb)} MB, ` +
          `${process.cpuSeconds.toFixed(1)} s CPU  (${process.command})`,
      );
    }
    // Where the CPU went, per analysed page: on a machine whose cores the crawl saturates, the engine's CPU per
    // page over the crawl's is the most the crawl can reach of the engine's rate.
    const perPage = (seconds: number) => (seconds * 1000) / Math.max(1, result.analysed);
    const cpuOf = (match: (process: (typeof result.processes)[number]) => boolean) =>
      perPage(result.processes.filter(match).reduce((sum, process) => sum + process.cpuSeconds, 0));
    const analysisCpu = cpuOf((process) => process.command.includes("analysis-process-entry"));
    const workerCpu = cpuOf((process) => process.role.startsWith("worker")) - analysisCpu;
    const apiCpu = cpuOf((process) => process.role.startsWith("api"));
    const postgresCpu = perPage(result.postgresCpuSeconds);
    const postgresBackgroundCpu = perPage(result.postgresBackgroundCpuSeconds);
    const siteCpu = perPage(result.siteCpuSeconds);
    const crawlCpu = workerCpu + analysisCpu + apiCpu + postgresCpu + postgresBackgroundCpu + siteCpu;
    // Like for like: the site's CPU on both sides (it served the engine's pages too).
    const engineCpu = engineCpuMsPerPage + engineSiteCpuMsPerPage;
    const cpuBound = (availableParallelism() * 1000) / crawlCpu;
    console.log(
      `  CPU per page: workers ${workerCpu.toFixed(1)} ms + their analysis processes ${analysisCpu.toFixed(1)} + PostgreSQL ${postgresCpu.toFixed(1)} (connections) + ${postgresBackgroundCpu.toFixed(1)} (its own processes) + API ${apiCpu.toFixed(1)} + the site ${siteCpu.toFixed(1)} = ${crawlCpu.toFixed(1)} ms; ` +
        `the engine alone: ${engineCpuMsPerPage.toFixed(1)} (${enginePoolCpuMsPerPage.toFixed(1)} of it in its analysis processes) + the site ${engineSiteCpuMsPerPage.toFixed(1)} = ${engineCpu.toFixed(1)} ms; ` +
        `the crawl's ÷ the engine's: ${(crawlCpu / engineCpu).toFixed(2)}; ${availableParallelism()} cores allow at most ${cpuBound.toFixed(1)} pages/s at that, ${(cpuBound / baseline).toFixed(2)}× the engine`,
    );
    for (const [worker, peak] of workerPeaks(result.processes.filter((p) => p.role.startsWith("worker")))) {
      console.log(
        `  ${worker}: peak RSS ${Math.round(peak.own)} MB, ${Math.round(peak.tree)} MB with its analysis processes (summed in one sample)`,
      );
    }
    console.log(
      `  site: ${result.fetches.requests} page requests for ${result.fetches.pages} pages, ${result.fetches.repeated} pages requested more than once; ` +
        `${result.analysedTwice.reports} reports with more than one analysis (${result.analysedTwice.extraAnalyses} extra analyses)`,
    );
    const bytes = Object.entries(result.databaseBytes)
      .slice(0, 8)
      .map(([table, size]) => `${table} ${Math.round(size / Math.max(1, result.analysed))}`)
      .join(", ");
    console.log(
      `  database bytes per page by table, after VACUUM: ${bytes} (${Math.round(result.databaseBytesPerPageAtEnd)} in all at the crawl's end, before it)`,
    );
    const samples = Object.values(result.waits).reduce((sum, count) => sum + count, 0);
    const waits = Object.entries(result.waits)
      .sort((a, b) => b[1] - a[1])
      .map(([wait, count]) => `${wait} ${((100 * count) / Math.max(1, samples)).toFixed(0)}%`)
      .join(", ");
    console.log(`  PostgreSQL busy connections (${samples} samples): ${waits || "none"}`);
    for (const { statement, samples: count } of result.statements.slice(0, 8)) {
      console.log(`    ${((100 * count) / Math.max(1, samples)).toFixed(0).padStart(3)}%  ${statement}`);
    }
    const lockSamples = result.lockWaits.reduce((sum, { samples: count }) => sum + count, 0);
    const share = (count: number) => `${((100 * count) / Math.max(1, samples)).toFixed(0)}%`;
    console.log(
      `  lock waits: ${share(lockSamples)} of the busy samples, ${share(result.crawlRowLockWaits)} in statements writing the crawl's row (a claim, the room, the counts); by statement:`,
    );
    for (const { statement, samples: count } of result.lockWaits.slice(0, 4)) {
      console.log(`    ${share(count).padStart(4)}  ${statement}`);
    }
  }
}

/**
 * Per worker, the peak RSS of the process doing its work (the largest of its tree: the worker runs under npx and
 * its shell) and of that process with its descendants (its analysis processes), summed in
 * one sample.
 */
function workerPeaks(
  workers: MeasuredDistributedCrawl["processes"],
): Map<string, { own: number; tree: number }> {
  const peaks = new Map<string, { own: number; tree: number }>();
  for (const process of workers) {
    const name = process.role.replace(" › child", "");
    const peak = peaks.get(name);
    if (!peak || process.peakRssMb > peak.own)
      peaks.set(name, { own: process.peakRssMb, tree: process.peakTreeRssMb });
  }
  return peaks;
}
