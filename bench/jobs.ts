/**
 * `npm run bench:jobs`: the queue's own cost per job on each adapter — no-op jobs per second through the
 * embedded queue on SQLite and on PostgreSQL and through BullMQ on Redis (the machine's local servers), each
 * from the first enqueue to the last completion, 16 producers enqueueing and 8 workers running. The baseline,
 * measured in the same run, is a plain in-process loop running the same no-op with the same concurrency: the
 * difference is what the queue costs (claims, leases, round trips), the ratio how many times slower it is.
 */
import { gate, type QueueKind, queueKinds, testQueues } from "../test/helpers/job-queues.js";

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
process.exit(0);
