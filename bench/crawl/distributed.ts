/**
 * One crawl of bench:crawl on the distributed set-up, started the way the README says: PostgreSQL (a schema of
 * its own in the database of BENCH_POSTGRES_URL) and BullMQ on Redis (a key prefix of its own on
 * BENCH_REDIS_URL), an API process with no workers (`PAGEGRADE_WORKERS=0 npm start`) and N `pagegrade worker`
 * processes (`npx --no-install pagegrade worker`), a user made with `pagegrade user create`,
 * and the crawl started and followed through the API. The settings are the documented environment variables:
 * the crawl runs `parts` parts (PAGEGRADE_CRAWL_HOST_CONCURRENCY, with no delay between requests), and each
 * worker runs its share of them at once (PAGEGRADE_WORKERS and PAGEGRADE_CRAWL_WORKERS, ⌈parts / N⌉).
 *
 * While it runs it samples every process from /proc (peak RSS before and after the crawl's half-way point, the
 * peak of each process with its descendants summed, CPU time; PostgreSQL's own processes' CPU), Redis's `INFO memory`, and PostgreSQL's `pg_stat_activity` for this crawl's connections (their
 * `application_name` is the schema's name): what the busy connections wait on (a `Lock` wait is a hot spot),
 * which statements they run, a sampling profile of the database's work, and which statements the lock waits are
 * in (those writing the crawl's row, `update "crawls"` or a claim, against the rest). Afterwards it reads the database's
 * bytes per table, the pages the site answered more than once (the generated site counts them) and the pages
 * analysed more than once (reports with more than one analysis), then stops the processes with SIGTERM, drops
 * the schema (kept with BENCH_CRAWL_KEEP_SCHEMA=1) and deletes the Redis keys.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { createServer } from "node:net";
import { Redis } from "ioredis";
import pg from "pg";
import { openStore } from "../../src/store/database.js";
import { bytesPerTable } from "../storage/database-bytes.js";
import { cpuSecondsOf, PostgresBackground, ProcessSampler, type SampledProcess } from "./process-sampler.js";

const root = new URL("../..", import.meta.url).pathname;
const postgresBase = process.env.BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const redisUrl = process.env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379";
/**
 * How often pg_stat_activity is sampled (0: not at all): every 100 ms, every 500 ms on a crawl of more than
 * 20,000 pages (thousands of samples either way; each costs the benchmark's process CPU that the crawl's two
 * cores share, and the engine's side has no such cost).
 */
function pgSampleMsFor(pages: number): number {
  return Number(process.env.BENCH_CRAWL_PG_SAMPLE_MS ?? (pages > 20_000 ? 500 : 100));
}

export interface DistributedCrawlOptions {
  /** The generated site's base URL; the crawl starts at /p/0. */
  site: string;
  pages: number;
  workers: number;
  /** The crawl's parts: requests at once to the site. */
  parts: number;
  /** Extra environment for the worker processes (a CPU profile's flags, say). */
  /** A directory for each worker's V8 CPU profile (`node --cpu-prof`, which NODE_OPTIONS may not carry). */
  cpuProfileDir?: string;
}

export interface DistributedCrawlResult {
  workers: number;
  parts: number;
  status: string;
  seconds: number;
  analysed: number;
  failed: number;
  processes: SampledProcess[];
  /** CPU seconds of this crawl's PostgreSQL connections (the backends' own time, from /proc). */
  postgresCpuSeconds: number;
  /** CPU seconds of the server's own processes meanwhile (WAL writer, checkpointer…: process-sampler.ts). */
  postgresBackgroundCpuSeconds: number;
  databaseBytes: Record<string, number>;
  databaseBytesPerPage: number;
  /** Bytes per page as the crawl left them, before the VACUUM that autovacuum would run (see database-bytes.ts). */
  databaseBytesPerPageAtEnd: number;
  redisPeakUsedMb: number;
  redisBaseUsedMb: number;
  /** The bytes of this crawl's own Redis keys at the end (MEMORY USAGE). */
  redisKeysBytes: number;
  /** Page requests the site answered, distinct pages, pages requested more than once. */
  fetches: { requests: number; pages: number; repeated: number };
  /** Reports holding more than one analysis, and analyses beyond one per report. */
  analysedTwice: { reports: number; extraAnalyses: number };
  /** pg_stat_activity samples of busy connections, by wait event ("CPU" when not waiting). */
  waits: Record<string, number>;
  /** The same samples by statement (its text's first 100 characters), busiest first. */
  statements: Array<{ statement: string; samples: number }>;
  /** The samples waiting on a lock (`Lock:…`), by statement, busiest first. */
  lockWaits: Array<{ statement: string; samples: number }>;
  /** Of those, the samples in statements that write the crawl's row (`update "crawls"` anywhere in them). */
  crawlRowLockWaits: number;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === "object" && address ? address.port : 0;
}

/**
 * Starts a command in a process group of its own (npm and npx run the service and the worker as their
 * children), as a terminal or a process manager would; `stop` signals the whole group.
 */
function start(command: string, args: string[], options: Parameters<typeof spawn>[2]): ChildProcess {
  const child = spawn(command, args, { ...options, detached: true });
  child.on("error", (error) => process.stderr.write(`${command} ${args.join(" ")}: ${error.message}\n`));
  return child;
}

function started(child: ChildProcess, what: string): Promise<never> {
  return new Promise((_resolve, reject) => {
    child.once("exit", (code, signal) => reject(new Error(`${what} exited (${code ?? signal})`)));
  });
}

/** Whether any process of the group is still there. */
function groupAlive(group: number): boolean {
  try {
    process.kill(group, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * SIGTERM to the process's group (SIGKILL after 30 s), resolved once every process of the group has exited: `npx`
 * ends at once while the worker it started finishes its jobs, and the schema must outlive those.
 */
async function stop(child: ChildProcess): Promise<void> {
  if (child.pid === undefined) return;
  const group = -child.pid;
  if (!groupAlive(group)) return;
  process.kill(group, "SIGTERM");
  const killBy = Date.now() + 30_000;
  while (groupAlive(group)) {
    if (Date.now() > killBy) process.kill(group, "SIGKILL");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export async function crawlDistributed(options: DistributedCrawlOptions): Promise<DistributedCrawlResult> {
  const schema = `bench_crawl_${randomBytes(5).toString("hex")}`;
  const separator = postgresBase.includes("?") ? "&" : "?";
  const databaseUrl = `${postgresBase}${separator}options=-c%20search_path%3D${schema}%2Cpublic&application_name=${schema}`;
  const prefix = `pagegrade-bench:${schema}:`;
  const admin = new pg.Client({ connectionString: postgresBase });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  const redis = new Redis(redisUrl);
  const children: ChildProcess[] = [];
  const sampler = new ProcessSampler();
  const perWorker = Math.ceil(options.parts / options.workers);
  const shared = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    PAGEGRADE_QUEUE_URL: redisUrl,
    PAGEGRADE_REDIS_KEY_PREFIX: prefix,
    PAGEGRADE_ALLOW_PRIVATE_NETWORKS: "1",
    PAGEGRADE_RATE_LIMIT: "0",
    PAGEGRADE_CRAWL_START_RATE_LIMIT: "0",
    PAGEGRADE_CRAWL_MAX_PAGES: String(options.pages),
    PAGEGRADE_CRAWL_HOST_CONCURRENCY: String(options.parts),
    PAGEGRADE_CRAWL_DELAY_MS: "0",
    LOG_LEVEL: "warn",
  };
  try {
    // The API: `PAGEGRADE_WORKERS=0 npm start`.
    const port = await freePort();
    const api = start("npm", ["start", "--silent"], {
      cwd: root,
      env: { ...shared, PAGEGRADE_WORKERS: "0", PORT: String(port) },
      stdio: ["ignore", "ignore", "inherit"],
    });
    children.push(api);
    const apiExit = started(api, "the API process");
    apiExit.catch(() => undefined);
    const base = `http://127.0.0.1:${port}`;
    for (const startBy = Date.now() + 120_000; ; ) {
      const ready = await fetch(`${base}/healthz`).then(
        (response) => response.ok,
        () => false,
      );
      if (ready) break;
      if (Date.now() > startBy) throw new Error("the API process did not answer /healthz in 2 minutes");
      await Promise.race([new Promise((resolve) => setTimeout(resolve, 200)), apiExit]);
    }
    sampler.watch(api.pid as number, "api");

    // A user and its key: `pagegrade user create` (the key is its last line).
    const create = start(
      "npx",
      ["--no-install", "pagegrade", "user", "create", "--email", `bench-${schema}@example.com`],
      {
        cwd: root,
        env: shared,
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    let created = "";
    create.stdout?.on("data", (chunk: Buffer) => {
      created += chunk.toString();
    });
    const [createCode] = (await once(create, "exit")) as [number];
    if (createCode !== 0) throw new Error(`pagegrade user create exited with ${createCode}`);
    const key = created.trim().split("\n").pop() as string;

    // The workers: `npx --no-install pagegrade worker`, each running its share of the parts.
    const ready: Array<Promise<void>> = [];
    for (let n = 1; n <= options.workers; n++) {
      // Profiled, the worker is started as bin/pagegrade starts it (its memory settings), with `--cpu-prof`.
      const [command, args] = options.cpuProfileDir
        ? [
            process.execPath,
            [
              "--max-semi-space-size=8",
              "--cpu-prof",
              `--cpu-prof-dir=${options.cpuProfileDir}`,
              "bin/pagegrade.js",
              "worker",
            ],
          ]
        : ["npx", ["--no-install", "pagegrade", "worker"]];
      const worker = start(command, args, {
        cwd: root,
        env: {
          ...shared,
          ...(options.cpuProfileDir ? { MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? "2" } : {}),
          PAGEGRADE_WORKERS: String(perWorker),
          PAGEGRADE_CRAWL_WORKERS: String(perWorker),
        },
        stdio: ["ignore", "ignore", "pipe"],
      });
      children.push(worker);
      let log = "";
      ready.push(
        Promise.race([
          new Promise<void>((resolve) => {
            worker.stderr?.on("data", (chunk: Buffer) => {
              process.stderr.write(chunk);
              log += chunk.toString();
              if (log.includes("running up to")) resolve();
            });
          }),
          started(worker, `worker ${n}`),
        ]),
      );
      sampler.watch(worker.pid as number, `worker ${n}`);
    }
    await Promise.all(ready);

    // Redis before the crawl, then the crawl through the API.
    const usedMb = async () => {
      const info = await redis.info("memory");
      return Number(/^used_memory:(\d+)/m.exec(info)?.[1] ?? 0) / 1024 / 1024;
    };
    const redisBaseUsedMb = await usedMb();
    let redisPeakUsedMb = redisBaseUsedMb;
    await fetch(`${options.site}/bench/fetches?reset=1`);
    sampler.start();
    const startedAt = performance.now();
    const response = await fetch(`${base}/api/v1/crawls`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ url: `${options.site}/p/0`, max_pages: options.pages, sitemaps: 0 }),
    });
    if (response.status !== 202)
      throw new Error(`POST /api/v1/crawls: ${response.status} ${await response.text()}`);
    const crawlId = ((await response.json()) as { data: { id: number } }).data.id;

    // The database's busy connections, sampled.
    const waits: Record<string, number> = {};
    const statements = new Map<string, number>();
    const lockWaits = new Map<string, number>();
    let crawlRowLockWaits = 0;
    const backendPids = new Set<number>();
    const activity = new pg.Client({ connectionString: postgresBase });
    await activity.connect();
    const pgSampleMs = pgSampleMsFor(options.pages);
    let sampling = pgSampleMs > 0;
    const sampleActivity = (async () => {
      while (sampling) {
        const { rows } = await activity.query<{
          pid: number;
          state: string | null;
          wait_event_type: string | null;
          wait_event: string | null;
          query: string;
        }>(
          "select pid, state, wait_event_type, wait_event, query from pg_stat_activity where application_name = $1",
          [schema],
        );
        for (const row of rows) {
          backendPids.add(row.pid);
          if (row.state !== "active") continue;
          const wait = row.wait_event_type ? `${row.wait_event_type}:${row.wait_event}` : "CPU";
          waits[wait] = (waits[wait] ?? 0) + 1;
          const statement = row.query.replace(/\s+/g, " ").slice(0, 100);
          statements.set(statement, (statements.get(statement) ?? 0) + 1);
          if (row.wait_event_type === "Lock") {
            lockWaits.set(statement, (lockWaits.get(statement) ?? 0) + 1);
            if (/update "crawls"/.test(row.query)) crawlRowLockWaits++;
          }
        }
        await new Promise((resolve) => setTimeout(resolve, pgSampleMs));
      }
    })();
    const postgresCpu = new Map<number, number>();
    const postgresBackground = new PostgresBackground();
    const samplePostgresCpu = () => {
      for (const pid of backendPids) postgresCpu.set(pid, cpuSecondsOf(pid) ?? postgresCpu.get(pid) ?? 0);
      postgresBackground.sample();
    };
    samplePostgresCpu();

    let crawl: { status: string; pages: { analysed: number; failed: number } } = {
      status: "queued",
      pages: { analysed: 0, failed: 0 },
    };
    let lastPrinted = 0;
    while (!["complete", "failed", "cancelled"].includes(crawl.status)) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      redisPeakUsedMb = Math.max(redisPeakUsedMb, await usedMb());
      samplePostgresCpu();
      const answer = await fetch(`${base}/api/v1/crawls/${crawlId}`, {
        headers: { authorization: `Bearer ${key}` },
      });
      crawl = ((await answer.json()) as { data: typeof crawl }).data;
      if (crawl.pages.analysed + crawl.pages.failed >= options.pages / 2) sampler.markHalfway();
      if (performance.now() - lastPrinted > 30_000) {
        lastPrinted = performance.now();
        process.stderr.write(
          `  ${options.workers} worker(s): ${crawl.pages.analysed} analysed after ${((performance.now() - startedAt) / 1000).toFixed(0)} s\n`,
        );
      }
    }
    const seconds = (performance.now() - startedAt) / 1000;
    sampling = false;
    await sampleActivity;
    await activity.end();
    samplePostgresCpu();
    const processes = sampler.stop();

    // What it left behind.
    const fetches = (await (
      await fetch(`${options.site}/bench/fetches`)
    ).json()) as DistributedCrawlResult["fetches"];
    const { rows: twice } = await admin.query<{ reports: string; extra: string }>(
      `select count(*) filter (where analyses > 1) as reports, coalesce(sum(analyses - 1), 0) as extra
         from ${schema}.reports`,
    );
    const measured = await openStore(postgresBase, { schema, migrate: false });
    const bytesAtEnd = await bytesPerTable(measured);
    const databaseBytes = Object.fromEntries(
      await bytesPerTable(measured, { vacuumPostgres: true }).finally(() => measured.close()),
    );
    let redisKeysBytes = 0;
    for (let cursor = "0"; ; ) {
      const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 1000);
      for (const name of keys) redisKeysBytes += Number((await redis.memory("USAGE", name)) ?? 0);
      cursor = next;
      if (cursor === "0") break;
    }
    return {
      workers: options.workers,
      parts: options.parts,
      status: crawl.status,
      seconds,
      analysed: crawl.pages.analysed,
      failed: crawl.pages.failed,
      processes,
      postgresCpuSeconds: [...postgresCpu.values()].reduce((sum, cpu) => sum + cpu, 0),
      postgresBackgroundCpuSeconds: postgresBackground.cpuSeconds(),
      databaseBytes,
      databaseBytesPerPage:
        Object.values(databaseBytes).reduce((sum, bytes) => sum + bytes, 0) /
        Math.max(1, crawl.pages.analysed),
      databaseBytesPerPageAtEnd:
        [...bytesAtEnd.values()].reduce((sum, bytes) => sum + bytes, 0) / Math.max(1, crawl.pages.analysed),
      redisPeakUsedMb,
      redisBaseUsedMb,
      redisKeysBytes,
      fetches,
      analysedTwice: { reports: Number(twice[0]?.reports ?? 0), extraAnalyses: Number(twice[0]?.extra ?? 0) },
      waits,
      statements: [...statements]
        .sort((a, b) => b[1] - a[1])
        .map(([statement, samples]) => ({ statement, samples })),
      lockWaits: [...lockWaits]
        .sort((a, b) => b[1] - a[1])
        .map(([statement, samples]) => ({ statement, samples })),
      crawlRowLockWaits,
    };
  } finally {
    sampler.stop();
    // Workers first (they hand their jobs back), then the API.
    await Promise.all(children.slice(1).map(stop));
    if (children[0]) await stop(children[0]);
    if (process.env.BENCH_CRAWL_KEEP_SCHEMA) console.error(`  kept PostgreSQL schema ${schema}`);
    else await admin.query(`drop schema if exists ${schema} cascade`).catch(() => undefined);
    await admin.end();
    for (let cursor = "0"; ; ) {
      const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 1000);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
      if (cursor === "0") break;
    }
    redis.disconnect();
  }
}
