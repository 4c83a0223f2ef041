/**
 * A worker process for the fault tests: it opens the backend a test names in its environment (see
 * test/helpers/job-queues.ts), runs "record" jobs that write `start <tag> <pid>` and `done <tag> <pid>` lines to
 * JOB_TEST_LOG around a sleep of `payload.ms`, optionally a recurring "tick" job, prints "ready", and on SIGTERM
 * closes the queue (finish or hand back within JOB_TEST_GRACE_MS) and exits 0 — as `pagegrade worker` does.
 */
import { appendFileSync } from "node:fs";
import { BullMqJobQueue } from "../../src/jobs/bullmq-job-queue.js";
import { DatabaseJobQueue } from "../../src/jobs/database-job-queue.js";
import type { JobContext, JobQueue } from "../../src/jobs/job-queue.js";
import { openStore } from "../../src/store/database.js";

const env = process.env;
const log = (line: string) => appendFileSync(env.JOB_TEST_LOG ?? "", `${line}\n`);
const workers = Number(env.JOB_TEST_WORKERS ?? 2);
const leaseMs = Number(env.JOB_TEST_LEASE_MS ?? 1000);
const store = await openStore(
  env.DATABASE_URL ?? "",
  env.JOB_TEST_SCHEMA ? { schema: env.JOB_TEST_SCHEMA } : {},
);
const onError = (error: unknown) => process.stderr.write(`job error: ${(error as Error).message}\n`);
const queue: JobQueue =
  env.JOB_TEST_KIND === "bullmq"
    ? new BullMqJobQueue({
        url: env.JOB_TEST_REDIS_URL ?? "",
        keyPrefix: env.JOB_TEST_KEY_PREFIX ?? "",
        workers,
        leaseMs,
        onError,
      })
    : new DatabaseJobQueue(store, { workers, leaseMs, pollIntervalMs: 50, onError });

queue.register("record", async (job: JobContext<{ tag: string; ms: number }>) => {
  log(`start ${job.payload.tag} ${process.pid}`);
  await new Promise((resolve) => setTimeout(resolve, job.payload.ms));
  if (!job.signal.aborted) log(`done ${job.payload.tag} ${process.pid}`);
});
queue.register("tick", async () => {
  log(`tick ${Date.now()} ${process.pid}`);
});
if (env.JOB_TEST_SCHEDULE_MS) {
  await queue.schedule({
    id: "tick",
    name: "tick",
    payload: null,
    everyMs: Number(env.JOB_TEST_SCHEDULE_MS),
  });
}
process.once("SIGTERM", () => {
  void queue
    .close(Number(env.JOB_TEST_GRACE_MS ?? 1000))
    .then(() => store.close())
    .then(() => process.exit(0));
});
await queue.start();
process.stdout.write("ready\n");
