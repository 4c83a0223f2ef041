/**
 * `npm run bench:site-checks`: judging a finished crawl as a site (the site checks: duplicates, inlinks,
 * orphans, broken and redirected links, click depth, canonicals, hreflang…) at 10,000 and 100,000 pages, on
 * SQLite and PostgreSQL (`BENCH_DATABASES=sqlite,postgres`, both by default; `BENCH_SITE_PAGES=10000,100000`).
 * Each crawl is written straight into a fresh database (test/helpers/synthetic-crawl.ts: a tree of pages with
 * every kind of defect, about 7 links a page), then judged in a process of its own started as the service
 * starts (`MALLOC_ARENA_MAX=2`, `--max-semi-space-size=16`), whose peak RSS is its own.
 * Baseline, measured in the same run on the same database: a process that only reads the crawl's page and link
 * rows a batch at a time, keeping none (the least a judgement does). Reported per size: the judgement's time and
 * its ratio to the baseline, its peak RSS beside the baseline's, the longest it held the event loop, and from
 * the smallest to the largest size the growth of the peak RSS (target: under 300 MB at 100,000 pages, and flat).
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { AccountService } from "../src/accounts/account-service.js";
import { openStore } from "../src/store/database.js";
import type { Store } from "../src/store/store.js";
import { syntheticPage, syntheticStart, writeCrawl } from "../test/helpers/synthetic-crawl.js";

const postgresUrl = process.env.PAGEGRADE_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const sizes = (process.env.BENCH_SITE_PAGES ?? "10000,100000").split(",").map(Number);
const databases = (process.env.BENCH_DATABASES ?? "sqlite,postgres").split(",") as Array<
  "sqlite" | "postgres"
>;
const targetMb = 300;

interface Measure {
  seconds: number;
  rssMb: number;
  loopMaxMs: number;
  found: Record<string, number>;
  steps: Record<string, [ms: number, heldMs: number, peakRssMb: number]>;
}

function measure(
  mode: "judge" | "read",
  databaseUrl: string,
  schema: string,
  userId: number,
  crawlId: number,
) {
  const output = execFileSync(
    process.execPath,
    [
      "--max-semi-space-size=16",
      "--heap-growing-percent=60",
      "--import",
      "tsx",
      join(import.meta.dirname, "site-checks", "judge-process.ts"),
      mode,
      databaseUrl,
      schema,
      String(userId),
      String(crawlId),
    ],
    { env: { ...process.env, MALLOC_ARENA_MAX: "2" }, encoding: "utf8", maxBuffer: 16 * 1024 * 1024 },
  );
  return JSON.parse(output.trim().split("\n").at(-1) as string) as Measure;
}

/** The step that held the event loop longest, and how long (ms). */
function longestHold(steps: Measure["steps"]): string {
  const [step, [, held]] = Object.entries(steps).sort((a, b) => b[1][1] - a[1][1])[0] ?? ["none", [0, 0]];
  return `${step} ${held}`;
}

/** Where the peak RSS rose: each step that raised it, with the peak at its end. */
function rises(steps: Measure["steps"]): string {
  let peak = 0;
  const raised: string[] = [];
  for (const [step, [, , rss]] of Object.entries(steps)) {
    if (rss > peak) raised.push(`${step} ${rss}`);
    peak = Math.max(peak, rss);
  }
  return raised.join(", ");
}

function slowest(steps: Measure["steps"]): string {
  return Object.entries(steps)
    .sort((a, b) => b[1][0] - a[1][0])
    .slice(0, 5)
    .map(([step, [ms, held]]) => `${step} ${ms}/${held}`)
    .join(", ");
}

async function crawlOf(store: Store, userId: number, pages: number): Promise<number> {
  const now = new Date().toISOString();
  const crawl = await store.db
    .insertInto("crawls")
    .values({
      user_id: userId,
      url: syntheticStart,
      project: "bench.example",
      status: "running",
      max_pages: pages,
      max_depth: 20,
      sitemaps: 1,
      include: "[]",
      exclude: "[]",
      mode: "raw",
      privacy: 1,
      schedule: "off",
      robots_txt: null,
      created_at: now,
      updated_at: now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return crawl.id;
}

async function bench(kind: "sqlite" | "postgres"): Promise<boolean> {
  const dir = mkdtempSync(join(tmpdir(), "pagegrade-bench-site-"));
  const schema = kind === "postgres" ? `bench_${randomBytes(6).toString("hex")}` : "";
  const databaseUrl = kind === "sqlite" ? `sqlite:${join(dir, "bench.db")}` : postgresUrl;
  const store = await openStore(databaseUrl, schema ? { schema } : {});
  let met = true;
  try {
    const userId = (await new AccountService(store).createUser("bench@example.com", null)).account.id;
    const peaks: number[] = [];
    for (const pages of sizes) {
      const crawlId = await crawlOf(store, userId, pages);
      const building = performance.now();
      const links = await writeCrawl(store, crawlId, pages, (index) => syntheticPage(index, pages));
      await sql`analyze`.execute(store.db);
      const buildSeconds = (performance.now() - building) / 1000;
      const read = measure("read", databaseUrl, schema, userId, crawlId);
      const judged = measure("judge", databaseUrl, schema, userId, crawlId);
      peaks.push(judged.rssMb);
      const under = judged.rssMb < targetMb;
      met &&= under;
      const found = Object.entries(judged.found)
        .map(([check, count]) => `${check} ${count}`)
        .join(", ");
      console.log(
        `${kind.padEnd(8)} ${pages} pages, ${links} links (written in ${buildSeconds.toFixed(1)} s): ` +
          `judged in ${judged.seconds.toFixed(2)} s, ${(judged.seconds / read.seconds).toFixed(1)}× the baseline ` +
          `(reading the rows alone: ${read.seconds.toFixed(2)} s); peak RSS ${judged.rssMb.toFixed(0)} MB ` +
          `(target < ${targetMb} MB: ${under ? "met" : "NOT MET"}; baseline ${read.rssMb.toFixed(0)} MB); ` +
          `event loop held at most ${judged.loopMaxMs.toFixed(0)} ms\n         found: ${found}\n         ` +
          `slowest steps (time / longest hold, ms): ${slowest(judged.steps)}; longest hold: ${longestHold(judged.steps)}\n         ` +
          `peak RSS after each step that raised it (MB): ${rises(judged.steps)}`,
      );
    }
    if (peaks.length > 1) {
      const growth = (peaks.at(-1) as number) - (peaks[0] as number);
      console.log(
        `${kind.padEnd(8)} peak RSS from ${sizes[0]} to ${sizes.at(-1)} pages: ${(peaks[0] as number).toFixed(0)} → ` +
          `${(peaks.at(-1) as number).toFixed(0)} MB (${growth >= 0 ? "+" : ""}${growth.toFixed(0)} MB, ` +
          `${((peaks.at(-1) as number) / (peaks[0] as number)).toFixed(2)}×)`,
      );
    }
    return met;
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
    if (kind === "postgres") {
      const pg = await import("pg");
      const client = new pg.default.Client({ connectionString: postgresUrl });
      await client.connect();
      await client.query(`drop schema if exists ${schema} cascade`);
      await client.end();
    }
  }
}

const results: boolean[] = [];
for (const kind of databases) results.push(await bench(kind));
process.exitCode = results.every(Boolean) ? 0 : 1;
