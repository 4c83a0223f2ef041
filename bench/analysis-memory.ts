/**
 * `npm run bench:analysis-memory`: what a smaller young generation in the analysis processes would cost and save.
 * Two pools of one process each, one at a semi-space of BENCH_ANALYSIS_SEMI_SPACE_MB (default 8) and one at
 * Node.js's own size (what the pool runs), parse and judge the same corpus pages (those large enough for a
 * process), interleaved page by page in the same run, so a noisy machine slows both alike. Prints each process's
 * CPU per page (utime + stime from /proc, its start excluded) and peak resident memory (VmRSS sampled every
 * 50 ms); the CPU ratio is the median of the rounds' ratios. BENCH_ANALYSIS_MEMORY_ROUNDS passes over the pages
 * (default 15). Linux only.
 */
import { readFileSync } from "node:fs";
import { PageCollector } from "../src/analysis/collect.js";
import { AnalysisPool } from "../src/analysis/pool/analysis-pool.js";
import { InThreadSession } from "../src/analysis/pool/page-session.js";
import { defaultScoring } from "../src/analysis/scoring-config.js";
import { loadAnalysisConfig } from "../src/config.js";
import { loadCorpus, serveCorpus } from "../test/helpers/corpus.js";
import { cpuSecondsOf } from "./crawl/process-sampler.js";

const rounds = Number(process.env.BENCH_ANALYSIS_MEMORY_ROUNDS ?? 15);
const semiSpaceMb = Number(process.env.BENCH_ANALYSIS_SEMI_SPACE_MB ?? 8);
const analysisConfig = loadAnalysisConfig({ ...process.env, PAGEGRADE_ALLOW_PRIVATE_NETWORKS: "1" });
// The pages an analysis process gets: those of analysisPoolMinBytes or more (smaller ones stay on the caller's thread).
const pages = loadCorpus().filter((page) => page.html.length >= analysisConfig.analysisPoolMinBytes);
const server = await serveCorpus(pages);

// A real snapshot's response facts and host probes; each page's parse swaps in its own document.
const snapshot = await (async () => {
  const collector = new PageCollector(analysisConfig);
  const { facts, session } = await collector.collect(
    new URL(`${server.url}/${pages[0]?.name}`),
    async () => new InThreadSession(defaultScoring),
  );
  session.release();
  await collector.close();
  const { rendered: _rendered, ...rest } = facts;
  return rest;
})();

const rssMb = (pid: number) =>
  Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;

interface Side {
  label: string;
  pool: AnalysisPool;
  pid: number;
  startCpu: number;
  peakMb: number;
}

/** Analyses one page in `pool`: its parse, then its judgement. */
async function analyse(pool: AnalysisPool, page: (typeof pages)[number]): Promise<void> {
  const session = await pool.session("");
  await session.parse({
    body: page.html,
    contentType: "text/html",
    finalUrl: `${server.url}/${page.name}`,
    renderedHtml: null,
  });
  await session.judge(snapshot, null);
  session.release();
}

/** A pool of one process at this semi-space, started by a first page (its start is not counted). */
async function side(label: string, semiSpaceMb: number | undefined): Promise<Side> {
  const pool = new AnalysisPool({
    processes: 1,
    timeLimitMs: 600_000,
    memoryLimitMb: 512,
    scoring: defaultScoring,
    ...(semiSpaceMb === undefined ? {} : { semiSpaceMb }),
  });
  await analyse(pool, pages[0] as (typeof pages)[number]);
  const pid = pool.processIds[0] as number;
  return { label, pool, pid, startCpu: cpuSecondsOf(pid) ?? 0, peakMb: rssMb(pid) };
}

const sides = [
  await side(`semi-space ${semiSpaceMb} MB`, semiSpaceMb),
  await side("Node.js's own", undefined),
];
const sampler = setInterval(() => {
  for (const entry of sides) entry.peakMb = Math.max(entry.peakMb, rssMb(entry.pid));
}, 50);

// Each round's CPU ratio, the median reported: a round a neighbour's load disturbed does not decide the figure.
const roundRatios: number[] = [];
for (let round = 0; round < rounds; round++) {
  const before = sides.map(({ pid }) => cpuSecondsOf(pid) ?? 0);
  for (const page of pages) {
    // Alternate which side goes first, so neither always follows the other's garbage on the same core.
    const order = (round + pages.indexOf(page)) % 2 === 0 ? sides : [...sides].reverse();
    for (const { pool } of order) await analyse(pool, page);
  }
  const [smallCpu, ownCpu] = sides.map(({ pid }, index) => (cpuSecondsOf(pid) ?? 0) - (before[index] ?? 0));
  roundRatios.push((smallCpu ?? 0) / (ownCpu ?? 1));
}
clearInterval(sampler);
roundRatios.sort((a, b) => a - b);
const medianRatio = roundRatios[Math.floor(roundRatios.length / 2)] ?? Number.NaN;

const analysed = rounds * pages.length;
const results = sides.map(({ label, pid, startCpu, peakMb }) => ({
  label,
  cpuMsPerPage: (1000 * ((cpuSecondsOf(pid) ?? 0) - startCpu)) / analysed,
  peakMb,
}));
for (const side of sides) await side.pool.close();
await server.close();

const [small, own] = results as [(typeof results)[0], (typeof results)[0]];
console.log(`${analysed} pages in each process (${rounds} rounds of ${pages.length}), interleaved:`);
console.table(
  results.map(({ label, cpuMsPerPage, peakMb }) => ({
    process: label,
    "CPU ms/page": cpuMsPerPage.toFixed(2),
    "peak RSS MB": peakMb.toFixed(0),
  })),
);
console.log(
  `${small.label} ÷ ${own.label}: CPU ${medianRatio.toFixed(2)}× (the median of ${rounds} rounds; ${roundRatios[0]?.toFixed(2)}–${roundRatios.at(-1)?.toFixed(2)}), peak memory ${(small.peakMb - own.peakMb).toFixed(0)} MB (${(small.peakMb / own.peakMb).toFixed(2)}×)`,
);
process.exit(0);
