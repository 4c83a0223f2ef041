/**
 * `npm run bench:jobs`, in two parts.
 *
 * 1. The queue's own cost per job on each adapter — no-op jobs per second through the embedded queue on SQLite
 *    and on PostgreSQL and through BullMQ on Redis (the machine's local servers), each from the first enqueue to
 *    the last completion, 16 producers enqueueing and 8 workers running. The baseline, measured in the same run,
 *    is a plain in-process loop running the same no-op with the same concurrency: the difference is what the
 *    queue costs (claims, leases, round trips), the ratio how many times slower it is.
 * 2. Scaling out: asynchronous analyses (`Prefer: respond-async`) of a local site that answers every request in
 *    300 ms, through one API process (running no jobs) on PostgreSQL and BullMQ, with one `pagegrade worker`
 *    process and then two: analyses per second from the first request to the last report complete. The one-worker
 *    run is the baseline; the target is at least 1.8× with two.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { AccountService } from "../src/accounts/account-service.js";
import { freshDatabase, postgresUrl } from "../test/helpers/api.js";
import { gate, type QueueKind, queueKinds, testQueues } from "../test/helpers/job-queues.js";
import { html, startServer } from "../test/helpers/local-server.js";
import { redisUrl } from "../test/helpers/redis.js";
import { startServiceProcess } from "../test/helpers/service-process.js";

const jobs = Number(process.env.BENCH_JOBS ?? 2_000);
const producers = 16;
const workers = 8;

/** The same no-op work, concurrency and completion counting, without a queue. */
async function baseline(): Promise<number> {
  const started = performance.now();
  let next = 0;
  let done = 0;
  const noop = async () => {
    done++;
  };
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (next < jobs) {
        next++;
        await noop();
      }
    }),
  );
  if (done !== jobs) throw new Error("baseline lost jobs");
  return performance.now() - started;
}

async function throughQueue(kind: QueueKind): Promise<number> {
  const queues = await testQueues(kind);
  try {
    const queue = queues.open({ workers, leaseMs: 30_000 });
    let done = 0;
    const finished = gate();
    queue.register(
      "noop",
      async () => {
        done++;
        if (done === jobs) finished.open();
      },
      { concurrency: workers },
    );
    await queue.start();
    // Warm-up: connections, prepared plans, BullMQ's scripts.
    await queue.enqueue("warm-up", null);
    const started = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: producers }, async () => {
        while (next < jobs) {
          next++;
          await queue.enqueue("noop", null, { attempts: 1 });
        }
      }),
    );
    await finished.promise;
    const elapsed = performance.now() - started;
    await queue.close();
    return elapsed;
  } finally {
    await queues.close();
  }
}

const labels: Record<QueueKind, string> = {
  sqlite: "embedded, SQLite",
  postgres: "embedded, PostgreSQL",
  bullmq: "BullMQ, Redis",
};

await baseline(); // warm-up
const base = await baseline();
const perSecond = (ms: number) => Math.round(jobs / (ms / 1000));
const microsPerJob = (ms: number) => ((ms * 1000) / jobs).toFixed(1);
console.log(`${jobs} no-op jobs, ${producers} producers, ${workers} workers`);
console.log(
  `${"baseline (in-process loop)".padEnd(28)} ${String(perSecond(base)).padStart(10)} jobs/s  ${microsPerJob(base).padStart(8)} µs/job`,
);
for (const kind of queueKinds) {
  const ms = await throughQueue(kind);
  console.log(
    `${labels[kind].padEnd(28)} ${String(perSecond(ms)).padStart(10)} jobs/s  ${microsPerJob(ms).padStart(8)} µs/job  ` +
      `${(ms / base).toFixed(0)}× the baseline's time, ${(((ms - base) * 1000) / jobs).toFixed(1)} µs of queue per job`,
  );
}

const analyses = Number(process.env.BENCH_ANALYSES ?? 160);
const siteDelayMs = 300;
const bin = new URL("../bin/pagegrade.js", import.meta.url).pathname;

/** Analyses per second with `workerProcesses` worker processes (each running PAGEGRADE_WORKERS=4 at once). */
async function analysesPerSecond(workerProcesses: number): Promise<number> {
  const page = html(
    `<!doctype html><html lang="en"><head><title>Bicycle repair at home, step by step</title></head><body><h1>Repair</h1></body></html>`,
  );
  const site = await startServer({
    "/": (request, response) => setTimeout(() => page(request, response), siteDelayMs),
  });
  // Every other path (robots.txt, the probes) answers after the same delay.
  const database = await freshDatabase("postgres");
  const prefix = `pagegrade-bench:${randomBytes(6).toString("hex")}:`;
  const env = {
    ...process.env,
    LOG_LEVEL: "warn",
    DATABASE_URL: `${postgresUrl}?options=-c%20search_path%3D${database.schema}%2Cpublic`,
    PAGEGRADE_QUEUE_URL: redisUrl,
    PAGEGRADE_REDIS_KEY_PREFIX: prefix,
    PAGEGRADE_ALLOW_PRIVATE_NETWORKS: "1",
    PAGEGRADE_RATE_LIMIT: "0",
    PAGEGRADE_ANALYSIS_RATE_LIMIT: "0",
    PAGEGRADE_PROBE_CACHE_SECONDS: "0",
    PAGEGRADE_WORKERS: "4",
  };
  const children: ChildProcess[] = [];
  try {
    const { key } = await new AccountService(database.store).createUser("bench@example.com", null);
    const api = await startServiceProcess({ ...env, PAGEGRADE_WORKERS: "0" } as Record<string, string>);
    children.push(api.child);
    for (let index = 0; index < workerProcesses; index++) {
      children.push(spawn(process.execPath, [bin, "worker"], { env, stdio: "ignore" }));
    }
    // Workers ready: one warm-up analysis per worker process completes.
    await submitAndWait(api.url, key, database, workerProcesses * 2, site.url);
    const started = performance.now();
    await submitAndWait(api.url, key, database, analyses, site.url);
    return analyses / ((performance.now() - started) / 1000);
  } finally {
    for (const child of children) child.kill("SIGKILL");
    await site.close();
    await database.drop();
  }
}

async function submitAndWait(
  base: string,
  key: string,
  database: Awaited<ReturnType<typeof freshDatabase>>,
  count: number,
  siteUrl: string,
): Promise<void> {
  const ids = await Promise.all(
    Array.from({ length: count }, async (_, index) => {
      const response = await fetch(`${base}/api/v1/reports`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${key}`,
          prefer: "respond-async",
          "content-type": "application/json",
        },
        body: JSON.stringify({ url: `${siteUrl}/?page=${index}-${randomBytes(3).toString("hex")}` }),
      });
      if (response.status !== 202) throw new Error(`store answered ${response.status}`);
      return ((await response.json()) as { data: { id: number } }).data.id;
    }),
  );
  for (;;) {
    const done = await database.store.db
      .selectFrom("reports")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("id", "in", ids)
      .where("status", "in", ["complete", "failed"])
      .executeTakeFirstOrThrow();
    if (Number(done.n) === ids.length) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

console.log(
  `\n${analyses} asynchronous analyses of a site answering in ${siteDelayMs} ms (PostgreSQL, BullMQ)`,
);
const one = await analysesPerSecond(1);
console.log(`${"1 worker process (baseline)".padEnd(28)} ${one.toFixed(1).padStart(10)} analyses/s`);
const two = await analysesPerSecond(2);
const ratio = two / one;
console.log(
  `${"2 worker processes".padEnd(28)} ${two.toFixed(1).padStart(10)} analyses/s  ${ratio.toFixed(2)}× one (target ≥ 1.8×: ${ratio >= 1.8 ? "ok" : "missed"})`,
);
process.exit(0);
