/**
 * `npm run bench:render`: rendered mode over the shared corpus (pages/ and readability/), served from 127.0.0.1
 * the way Lighthouse saw it (HTTP/1.1, `Content-Type: text/html`, no compression, no extra headers, robots.txt
 * a 404).
 *  1. Speed: seconds per page of BrowserPool.render, one page at a time, against the seconds Lighthouse 12.8.2
 *     took for the same pages (lighthouse-verdicts.tsv); the target is at least 3× faster. The same pages
 *     rendered without axe-core (back to back with each render), for the accessibility audit's cost: at most
 *     +30 % on the median. The CPU seconds of each part of those renders (bench/render-cpu.ts: Chromium's
 *     processes and Node's, from opening the page to closing its context), beside its wall seconds. Browser
 *     memory per page: the proportional set size (Pss, /proc/<pid>/smaps_rollup, so pages shared between
 *     Chromium's processes count once) of every Chromium process under this one, sampled every 100 ms; the
 *     peak of each page's render.
 *  1b. Against Lighthouse in this run, on a sample of the pages (BENCH_LIGHTHOUSE_SPEED_PAGES, default 20):
 *     Lighthouse with performance, SEO and accessibility, one page at a time, against
 *     `pagegrade analyze --file --mode rendered` over the same pages at `--concurrency 1` (one page alone: at
 *     least 3× Lighthouse's rate) and `--concurrency 4` (the batch: at least 8×), each the command's whole run
 *     (start-up included) divided by the pages; the machine's load printed beside them.
 *  2. Metrics: FCP, LCP, its element, CLS and TBT against Lighthouse 12.8.2 with `--throttling-method=provided`
 *     on the same served pages, its Chromium going out through the same guard proxy as rendered mode (so both
 *     meet the pages' refused external hosts the same way). Lighthouse is a tool for this benchmark only: it is installed on demand into
 *     $TMPDIR/pagegrade-lighthouse (outside the repository) and its JSON is cached there per page, so a re-run
 *     does not run it again (BENCH_LIGHTHOUSE_REFRESH=1 runs it again). Per-page results and disagreements go
 *     to bench-output/render/.
 *
 *  3. Verdicts: the whole corpus analysed in rendered mode (two pages at once), its SEO verdicts against
 *     Lighthouse's recorded ones (lighthouse-verdicts.tsv) under the raw-mode mapping of bench:lighthouse; the
 *     target is at least 98 % (BENCH_SKIP_VERDICTS=1 skips it).
 *
 * BENCH_PAGES=N takes a deterministic subset of N pages spread evenly over the sorted list (page i·total/N for
 * i = 0…N-1); the default is every page. BENCH_SKIP_LIGHTHOUSE=1 measures speed and memory only;
 * BENCH_SKIP_METRICS=1 skips part 2.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { dirname, join } from "node:path";
import { AddressPolicy } from "../src/analysis/fetch/address-policy.js";
import { ConnectionGuard } from "../src/analysis/fetch/connection-guard.js";
import { systemResolver } from "../src/analysis/fetch/host-resolver.js";
import { BrowserPool } from "../src/analysis/render/browser-pool.js";
import { GuardProxy } from "../src/analysis/render/guard-proxy.js";
import type { RenderedMetrics } from "../src/analysis/render/rendered-page.js";
import { metricsFromTrace } from "../src/analysis/render/trace-metrics.js";
import { chromiumPath } from "../test/helpers/browser.js";
import { corpusDir } from "../test/helpers/corpus.js";
import { notFound, startServer } from "../test/helpers/local-server.js";
import { agreementWithLighthouse } from "./lighthouse-agreement.js";
import { ensureLighthouse, lighthouseCli, lighthouseDir, lighthouseVersion } from "./lighthouse-install.js";
import { chromiumProcesses, PartCpu } from "./render-cpu.js";

const cacheDir = join(lighthouseDir, `results-${lighthouseVersion}-guard-proxy`);
const outputDir = new URL("../bench-output/render/", import.meta.url).pathname;
const refreshLighthouse = process.env.BENCH_LIGHTHOUSE_REFRESH === "1";
const skipLighthouse = process.env.BENCH_SKIP_LIGHTHOUSE === "1";

// The corpus root holds pages/, readability/ and the verdicts; corpusDir is its pages/ folder.
const corpusRoot = dirname(corpusDir);
const folders = ["pages", "readability"];

/** Seconds Lighthouse took per page ("pages/x.html" → seconds), from the recorded verdicts. */
const recordedSeconds = new Map<string, number>();
{
  const [header, ...rows] = readFileSync(join(corpusRoot, "lighthouse-verdicts.tsv"), "utf8")
    .trim()
    .split("\n");
  const secondsColumn = header?.split("\t").indexOf("seconds") ?? -1;
  for (const row of rows) {
    const cells = row.split("\t");
    recordedSeconds.set(cells[0] ?? "", Number(cells[secondsColumn]));
  }
}

const allPages = folders.flatMap((folder) =>
  readdirSync(join(corpusRoot, folder))
    .filter((name) => name.endsWith(".html"))
    .sort()
    .map((name) => `${folder}/${name}`),
);
const wanted = Number(process.env.BENCH_PAGES ?? allPages.length);
const pages =
  wanted >= allPages.length
    ? allPages
    : Array.from(
        { length: wanted },
        (_value, index) => allPages[Math.floor((index * allPages.length) / wanted)] ?? "",
      );
const bodies = new Map(pages.map((page) => [`/${page}`, readFileSync(join(corpusRoot, page))]));

// Exactly what Lighthouse saw: text/html with a Content-Length, nothing else added; anything else a 404.
const server = await startServer(
  {},
  {
    fallback: (request, response) => {
      const body = bodies.get(new URL(request.url ?? "/", "http://x").pathname);
      if (!body) return notFound(request, response);
      response.setHeader("content-type", "text/html");
      response.end(body);
    },
  },
);

console.log(`${pages.length} of ${allPages.length} corpus pages, served at ${server.url}`);

// ---- 1. Rendered mode: seconds and browser memory per page ----------------------------------------------

// One guard for both tools: Lighthouse's Chromium goes out through a GuardProxy of its own per page too, so
// both load each page the same way (the pages' external hosts refused by the same proxy, never resolved by the
// browser itself).
const guard = new ConnectionGuard(
  new AddressPolicy({ allowPrivateNetworks: false, allowedRanges: ["127.0.0.1"] }),
  systemResolver,
);
const parts = new PartCpu();
const pool = new BrowserPool(
  guard,
  // Benchmarks run as root here, where Chromium has no sandbox; servers keep it on.
  { executablePath: chromiumPath, sandbox: false, maxConcurrent: 1, onPart: parts.ended },
);

interface Rendered {
  page: string;
  seconds: number;
  peakPssMiB: number;
  metrics: RenderedMetrics | null;
  error: string | null;
}

// Warm-up: the first browser launch is not a page's cost (Lighthouse's recorded seconds exclude its own
// Chrome start-up too, as it reuses nothing between runs but measures from navigation).
await pool.render(new URL(`${server.url}/${pages[0]}`)).catch(() => null);

// The same pages without axe-core, to measure what the accessibility audit costs: each page is rendered both
// ways back to back, alternating which goes first, so that the machine's drift falls on both alike.
const poolWithoutAxe = new BrowserPool(guard, {
  executablePath: chromiumPath,
  sandbox: false,
  maxConcurrent: 1,
  accessibility: false,
});
await poolWithoutAxe.render(new URL(`${server.url}/${pages[0]}`)).catch(() => null);
const secondsWithoutAxe = new Map<string, number>();
const renderWithoutAxe = async (page: string) => {
  const t0 = performance.now();
  await poolWithoutAxe.render(new URL(`${server.url}/${page}`)).catch(() => null);
  secondsWithoutAxe.set(page, (performance.now() - t0) / 1000);
};

// Seconds come from renders without the memory sampler (reading every Chromium process's smaps_rollup ten times
// a second slows a renderer that allocates, as axe-core does); the sampled render of each page gives its memory.
const rendered: Rendered[] = [];
for (const [index, page] of pages.entries()) {
  if (index % 2 === 0) await renderWithoutAxe(page);
  const t0 = performance.now();
  let metrics: RenderedMetrics | null = null;
  let error: string | null = null;
  parts.start();
  try {
    metrics = (await pool.render(new URL(`${server.url}/${page}`))).metrics;
  } catch (failure) {
    error = failure instanceof Error ? failure.message : String(failure);
  }
  parts.stop();
  const seconds = (performance.now() - t0) / 1000;
  if (index % 2 === 1) await renderWithoutAxe(page);
  const sampler = startMemorySampler();
  await pool.render(new URL(`${server.url}/${page}`)).catch(() => null);
  rendered.push({ page, seconds, peakPssMiB: sampler.stop(), metrics, error });
}
await pool.close();
await poolWithoutAxe.close();

const ours = rendered.map((entry) => entry.seconds);
const theirs = pages.map((page) => recordedSeconds.get(page)).filter((value) => value !== undefined);
const memory = rendered.map((entry) => entry.peakPssMiB);
console.log("\nSpeed, one page at a time (seconds per page)");
console.log(`  rendered mode    median ${fmt(median(ours))}  p95 ${fmt(p95(ours))}`);
console.log(
  `  Lighthouse (rec) median ${fmt(median(theirs))}  p95 ${fmt(p95(theirs))}  (${theirs.length} pages)`,
);
console.log(
  `  ratio            median ${(median(theirs) / median(ours)).toFixed(1)}×  p95 ${(p95(theirs) / p95(ours)).toFixed(1)}× faster (target ≥ 3×)`,
);
const withoutAxe = [...secondsWithoutAxe.values()];
console.log(
  `  without axe-core median ${fmt(median(withoutAxe))}  p95 ${fmt(p95(withoutAxe))}: axe adds ${(100 * (median(ours) / median(withoutAxe) - 1)).toFixed(0)} % to the median (target ≤ 30 %)`,
);
console.log(`Where a page's CPU goes (one page at a time, with axe-core)\n${parts.table()}`);
console.log(
  `Browser memory per page (peak Pss of Chromium's processes): median ${median(memory).toFixed(0)} MiB, p95 ${p95(memory).toFixed(0)} MiB, max ${Math.max(...memory).toFixed(0)} MiB`,
);
mkdirSync(outputDir, { recursive: true });
writeFileSync(
  join(outputDir, "speed.tsv"),
  `${["page\tseconds ours\tseconds Lighthouse (recorded)\tpeak Pss MiB\terror", ...rendered.map((entry) => [entry.page, entry.seconds.toFixed(2), recordedSeconds.get(entry.page)?.toFixed(2) ?? "", entry.peakPssMiB.toFixed(0), entry.error ?? ""].join("\t"))].join("\n")}\n`,
);
const slowest = [...rendered].sort((a, b) => b.seconds - a.seconds).slice(0, 3);
console.log(
  `  slowest: ${slowest.map((entry) => `${entry.page} ${fmt(entry.seconds)}`).join(", ")} (all in speed.tsv)`,
);
const failed = rendered.filter((entry) => entry.error);
if (failed.length)
  console.log(`Failed renders: ${failed.map((entry) => `${entry.page} (${entry.error})`).join(", ")}`);

// ---- 1b. The command's rendered batch and one page alone against Lighthouse in this run -------------------
// Lighthouse run now on the same machine, with the categories rendered mode covers (performance, SEO,
// accessibility), one page at a time as it is meant to run, on BENCH_LIGHTHOUSE_SPEED_PAGES pages spread over
// the list (default 20): its wall-clock seconds per page (process start to report) against the command's over
// the same pages, one at a time (target ≥ 3×) and four at once (target ≥ 8×). The machine is shared: its load
// is printed with the figures, and all three run back to back so that it falls on each alike.
if (!skipLighthouse) {
  ensureLighthouse();
  const speedPages = Math.min(Number(process.env.BENCH_LIGHTHOUSE_SPEED_PAGES ?? 20), pages.length);
  const sample = Array.from(
    { length: speedPages },
    (_value, index) => pages[Math.floor((index * pages.length) / speedPages)] ?? "",
  );
  const loadBefore = loadavg();
  const urlFile = join(outputDir, "speed-urls.txt");
  writeFileSync(urlFile, `${sample.map((page) => `${server.url}/${page}`).join("\n")}\n`);
  const batch = await commandSecondsPerPage(urlFile, 4, sample.length);
  const alone = await commandSecondsPerPage(urlFile, 1, sample.length);
  let lighthouseTotal = 0;
  for (const page of sample) {
    const t0 = performance.now();
    await runLighthouse(`${server.url}/${page}`, join(lighthouseDir, "speed-run.json"), [
      "performance",
      "seo",
      "accessibility",
    ]);
    lighthouseTotal += (performance.now() - t0) / 1000;
  }
  const lighthouse = lighthouseTotal / sample.length;
  const loadAfter = loadavg();
  const ratio = (ours: number, target: number) =>
    `${(lighthouse / ours).toFixed(1)}× Lighthouse's rate (target ≥ ${target}×: ${lighthouse / ours >= target ? "met" : "NOT met"})`;
  console.log(
    `\nAgainst Lighthouse ${lighthouseVersion} run now (performance, SEO, accessibility, one page at a time), ${sample.length} pages; load ${loadBefore.map((value) => value.toFixed(1)).join(" ")} before, ${loadAfter.map((value) => value.toFixed(1)).join(" ")} after (1, 5, 15 min, ${availableParallelism()} cores)`,
  );
  console.log(`  Lighthouse                                        ${fmt(lighthouse)} a page`);
  console.log(`  analyze --file --mode rendered --concurrency 1    ${fmt(alone)} a page  ${ratio(alone, 3)}`);
  console.log(`  analyze --file --mode rendered --concurrency 4    ${fmt(batch)} a page  ${ratio(batch, 8)}`);
  const oursOnSample = rendered.filter((entry) => sample.includes(entry.page)).map((entry) => entry.seconds);
  console.log(
    `  (BrowserPool.render alone, above: median ${fmt(median(oursOnSample))} on these pages, the render without the analysis or the command's start)`,
  );
}

// ---- 2. Metrics against Lighthouse -------------------------------------------------------------------------

mkdirSync(outputDir, { recursive: true });
if (!skipLighthouse && process.env.BENCH_SKIP_METRICS !== "1") {
  ensureLighthouse();
  mkdirSync(cacheDir, { recursive: true });
  const rows: string[] = [];
  const disagreements: string[] = [];
  const agreement = { fcp: 0, lcp: 0, element: 0, cls: 0, tbt: 0 };
  let compared = 0;
  // pagegrade's trace-metrics.ts applied to the trace Lighthouse itself recorded: the computation alone,
  // without two page loads' differences (machine load, name resolution) between the runs.
  const sameTrace = { pages: 0, fcp: 0, lcp: 0, cls: 0, tbt: 0 };
  let lighthouseSeconds = 0;
  let lighthouseRuns = 0;
  for (const entry of rendered) {
    const cached = join(cacheDir, `${entry.page.replaceAll("/", "__")}.json`);
    if (refreshLighthouse || !existsSync(cached)) {
      const t0 = performance.now();
      await runLighthouse(`${server.url}/${entry.page}`, cached);
      lighthouseSeconds += (performance.now() - t0) / 1000;
      lighthouseRuns++;
    }
    const reference = existsSync(cached) ? lighthouseMetrics(JSON.parse(readFileSync(cached, "utf8"))) : null;
    const tracePath = cached.replace(/\.json$/, "-0.trace.json");
    if (reference && existsSync(tracePath)) {
      const computed = metricsFromTrace(JSON.parse(readFileSync(tracePath, "utf8")).traceEvents ?? []);
      if (computed) {
        sameTrace.pages++;
        if (within(computed.firstContentfulPaintMs, reference.fcp, 0.1, 100)) sameTrace.fcp++;
        if (within(computed.largestContentfulPaint?.ms ?? null, reference.lcp, 0.1, 100)) sameTrace.lcp++;
        if (reference.cls !== null && Math.abs(computed.cumulativeLayoutShift - reference.cls) <= 0.01)
          sameTrace.cls++;
        if (within(computed.totalBlockingTimeMs, reference.tbt, 0.2, 50)) sameTrace.tbt++;
      }
    }
    const metrics = entry.metrics;
    if (!reference || !metrics) {
      disagreements.push(
        `${entry.page}\tnot compared\t${entry.error ?? (metrics ? "Lighthouse gave no metrics" : "no metrics")}`,
      );
      continue;
    }
    compared++;
    const checks = {
      fcp: within(metrics.firstContentfulPaintMs, reference.fcp, 0.1, 100),
      lcp: within(metrics.largestContentfulPaintMs, reference.lcp, 0.1, 100),
      element: sameElement(metrics.largestContentfulPaintElement?.html ?? null, reference.lcpElement),
      cls: reference.cls !== null && Math.abs(metrics.cumulativeLayoutShift - reference.cls) <= 0.01,
      tbt: within(metrics.totalBlockingTimeMs, reference.tbt, 0.2, 50),
    };
    for (const key of Object.keys(checks) as Array<keyof typeof checks>) {
      if (checks[key]) agreement[key]++;
    }
    const row = [
      entry.page,
      `${metrics.firstContentfulPaintMs}/${num(reference.fcp)}`,
      `${metrics.largestContentfulPaintMs}/${num(reference.lcp)}`,
      `${metrics.cumulativeLayoutShift}/${reference.cls === null ? "-" : reference.cls.toFixed(4)}`,
      `${metrics.totalBlockingTimeMs}/${num(reference.tbt)}`,
      checks.element ? "same" : "differs",
    ].join("\t");
    rows.push(row);
    const wrong = (Object.keys(checks) as Array<keyof typeof checks>).filter((key) => !checks[key]);
    if (wrong.length) {
      disagreements.push(
        `${row}\t${wrong.join(",")}\t${metrics.largestContentfulPaintElement?.html ?? "-"}\t${reference.lcpElement ?? "-"}`,
      );
    }
  }
  const header = "page\tFCP ms ours/LH\tLCP ms ours/LH\tCLS ours/LH\tTBT ms ours/LH\tLCP element";
  writeFileSync(join(outputDir, "metrics.tsv"), `${[header, ...rows].join("\n")}\n`);
  writeFileSync(
    join(outputDir, "disagreements.tsv"),
    `${[`${header}\tdisagreeing\tour LCP element\tLighthouse LCP element`, ...disagreements].join("\n")}\n`,
  );
  console.log(`\nPer page (ours/Lighthouse):\n${header}\n${rows.join("\n")}`);
  if (lighthouseRuns) {
    console.log(
      `\nLighthouse ran on ${lighthouseRuns} pages in this run: ${(lighthouseSeconds / lighthouseRuns).toFixed(2)} s per page on average (the rest came from ${cacheDir})`,
    );
  }
  const share = (count: number) => (compared ? (100 * count) / compared : 0);
  const line = (name: string, count: number, target: number, rule: string) =>
    console.log(
      `  ${name.padEnd(12)} ${String(count).padStart(4)}/${compared}  ${share(count).toFixed(1).padStart(5)} %  target ≥ ${target} %  ${share(count) >= target ? "met" : "NOT met"}  (${rule})`,
    );
  console.log(
    `\nAgreement with Lighthouse ${lighthouseVersion} (--throttling-method=provided), ${compared} pages compared`,
  );
  line("FCP", agreement.fcp, 90, "within max(10 %, 100 ms)");
  line("LCP", agreement.lcp, 90, "within max(10 %, 100 ms)");
  line("LCP element", agreement.element, 90, "same tag and attributes");
  line("CLS", agreement.cls, 80, "within 0.01");
  line("TBT", agreement.tbt, 80, "within max(20 %, 50 ms)");
  if (sameTrace.pages) {
    const of = (count: number) => `${count}/${sameTrace.pages}`;
    console.log(
      `Computed from Lighthouse's own trace (${sameTrace.pages} pages): FCP ${of(sameTrace.fcp)}, LCP ${of(sameTrace.lcp)}, CLS ${of(sameTrace.cls)}, TBT ${of(sameTrace.tbt)} within the same bounds`,
    );
  }
  console.log(`Per-page figures and disagreements: ${outputDir}`);
}

await server.close();

// ---- 3. Rendered SEO verdicts against Lighthouse's ------------------------------------------------------------
// Lighthouse judged the rendered document: pagegrade's rendered mode must agree on at least 98 % of verdicts.

if (process.env.BENCH_SKIP_VERDICTS !== "1") {
  console.log("");
  const { share } = await agreementWithLighthouse("rendered", 2);
  console.log(
    `rendered verdicts: ${(share * 100).toFixed(1)} % agree (target ≥ 98 %: ${share >= 0.98 ? "met" : "NOT met"})`,
  );
}

// ---- helpers -------------------------------------------------------------------------------------------------

/** Seconds per page of `pagegrade analyze --file <urls> --mode rendered --concurrency N`, its whole run. */
function commandSecondsPerPage(urlFile: string, concurrency: number, pageCount: number): Promise<number> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [
        new URL("../bin/pagegrade.js", import.meta.url).pathname,
        "analyze",
        "--file",
        urlFile,
        "--mode",
        "rendered",
        "--concurrency",
        String(concurrency),
      ],
      {
        env: {
          ...process.env,
          PAGEGRADE_ALLOW_PRIVATE_NETWORKS: "1",
          PAGEGRADE_CHROMIUM_PATH: chromiumPath,
          PAGEGRADE_CHROMIUM_SANDBOX: "0",
          NO_COLOR: "1",
        },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.resume();
    child.on("close", () => {
      const failed = stdout.split("\n").filter((line) => line.startsWith("error\t"));
      if (failed.length)
        console.log(`  --concurrency ${concurrency}: ${failed.length} pages failed: ${failed[0]}`);
      resolve((performance.now() - t0) / 1000 / pageCount);
    });
  });
}

async function runLighthouse(
  url: string,
  outputPath: string,
  categories: string[] = ["performance"],
): Promise<void> {
  // The limits rendered mode gives a page (BrowserPool's defaults).
  const proxy = await GuardProxy.start(guard, {
    maxRequests: 500,
    maxBytes: 50 * 1024 * 1024,
    connectTimeoutMs: 5_000,
  });
  try {
    await runLighthouseThrough(url, outputPath, proxy.url, categories);
  } finally {
    await proxy.close();
  }
}

function runLighthouseThrough(
  url: string,
  outputPath: string,
  proxyUrl: string,
  categories: string[],
): Promise<void> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [
        lighthouseCli,
        url,
        "--quiet",
        `--only-categories=${categories.join(",")}`,
        "--throttling-method=provided",
        "--output=json",
        // The metrics run keeps the trace beside the report, so pagegrade's metrics can also be computed from
        // Lighthouse's own trace; the speed run (three categories) does not write it.
        ...(categories.length === 1 ? ["--save-assets"] : []),
        `--output-path=${outputPath}`,
        `--chrome-flags=--headless=new --no-sandbox --disable-gpu --disable-background-networking --disable-component-update --no-first-run --disable-sync --proxy-server=${proxyUrl} --proxy-bypass-list=<-loopback>`,
      ],
      { env: { ...process.env, CHROME_PATH: chromiumPath }, stdio: ["ignore", "ignore", "pipe"] },
    );
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), 120_000);
    child.on("close", (code) => {
      clearTimeout(timer);
      if (code !== 0) console.log(`Lighthouse failed on ${url} (${code}): ${stderr.trim().slice(-300)}`);
      resolve();
    });
  });
}

interface LighthouseMetrics {
  fcp: number | null;
  lcp: number | null;
  lcpElement: string | null;
  cls: number | null;
  tbt: number | null;
}

// biome-ignore lint/suspicious/noExplicitAny: Lighthouse's report JSON, read field by field.
function lighthouseMetrics(report: any): LighthouseMetrics | null {
  const audits = report?.audits;
  if (!audits) return null;
  const value = (id: string): number | null =>
    typeof audits[id]?.numericValue === "number" ? audits[id].numericValue : null;
  // 12.x: a list of tables, the first one naming the element.
  const details = audits["largest-contentful-paint-element"]?.details;
  const table = details?.type === "list" ? details.items?.[0] : details;
  const node = table?.items?.[0]?.node;
  return {
    fcp: value("first-contentful-paint"),
    lcp: value("largest-contentful-paint"),
    lcpElement: typeof node?.snippet === "string" ? node.snippet : null,
    cls: value("cumulative-layout-shift"),
    tbt: value("total-blocking-time"),
  };
}

function within(ours: number | null, theirs: number | null, share: number, floorMs: number): boolean {
  if (ours === null || theirs === null) return ours === theirs;
  return Math.abs(ours - theirs) <= Math.max(share * theirs, floorMs);
}

/**
 * Whether two start-tag renderings name the same element: same tag and, for every attribute both show, the
 * same value as far as both are shown (Lighthouse cuts values at 75 characters, pagegrade at 100, with "…").
 */
function sameElement(ours: string | null, theirs: string | null): boolean {
  if (ours === null || theirs === null) return ours === theirs;
  const a = parseStartTag(ours);
  const b = parseStartTag(theirs);
  if (a.tag !== b.tag) return false;
  for (const [name, value] of a.attributes) {
    const other = b.attributes.get(name);
    if (other === undefined) continue;
    const shown = Math.min(value.length, other.length);
    if (value.slice(0, shown) !== other.slice(0, shown)) return false;
  }
  return true;
}

function parseStartTag(snippet: string): { tag: string; attributes: Map<string, string> } {
  const tag = /^<([^\s>/]+)/.exec(snippet)?.[1]?.toLowerCase() ?? "";
  const attributes = new Map<string, string>();
  for (const match of snippet.slice(tag.length + 1).matchAll(/([^\s=>"]+)(?:="([^"]*)"?)?/g)) {
    const value = (match[2] ?? "").replaceAll("&quot;", '"').replace(/…$/, "");
    attributes.set(match[1]?.toLowerCase() ?? "", value);
  }
  return { tag, attributes };
}

/** Samples the Pss of every Chromium process under this one every 100 ms; stop() gives the peak in MiB. */
function startMemorySampler(): { stop(): number } {
  let peak = 0;
  const sample = () => {
    peak = Math.max(peak, chromiumPssKiB() / 1024);
  };
  sample();
  const timer = setInterval(sample, 100);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return peak;
    },
  };
}

function chromiumPssKiB(): number {
  let total = 0;
  for (const { pid } of chromiumProcesses()) {
    try {
      const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, "utf8");
      total += Number(/^Pss:\s+(\d+) kB/m.exec(rollup)?.[1] ?? 0);
    } catch {
      // The process ended while we looked.
    }
  }
  return total;
}

function median(values: readonly number[]): number {
  return quantile(values, 0.5);
}

function p95(values: readonly number[]): number {
  return quantile(values, 0.95);
}

function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const position = (sorted.length - 1) * q;
  const low = Math.floor(position);
  const high = Math.ceil(position);
  return (sorted[low] ?? 0) + ((sorted[high] ?? 0) - (sorted[low] ?? 0)) * (position - low);
}

function fmt(seconds: number): string {
  return `${seconds.toFixed(2)} s`;
}

function num(value: number | null): string {
  return value === null ? "-" : String(Math.round(value));
}
