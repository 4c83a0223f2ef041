/**
 * `pagegrade worker` (composition, beside main.ts): a process that only runs jobs, for the distributed set-up (BullMQ on Redis, PostgreSQL
 * shared by every process). It refuses the embedded queue and SQLite — both belong to one service process — and
 * says which setting is missing. SIGTERM/SIGINT: it stops taking jobs, lets running ones finish for up to
 * PAGEGRADE_JOB_GRACE_SECONDS, hands back the rest, and exits 0.
 */
import { Analyzer } from "./analysis/analyse.js";
import { ConfigError, loadAnalysisConfig, loadServiceConfig } from "./config.js";
import { UsageError } from "./errors.js";
import { registerJobs, scheduleJobs } from "./job-registry.js";
import { openJobQueue } from "./jobs/open-job-queue.js";
import { createServices } from "./services.js";
import { openStore } from "./store/database.js";

/** `pagegrade worker`'s default number of analysis processes. */
export const workerAnalysisProcesses = "1";

export async function runWorker(args: string[]): Promise<number> {
  if (args.length > 0) throw new UsageError(`pagegrade worker takes no arguments, got "${args.join(" ")}"`);
  const config = loadServiceConfig();
  if (config.queueUrl === null) {
    throw new ConfigError(
      "pagegrade worker needs PAGEGRADE_QUEUE_URL=redis://… (without it the service runs its jobs itself, in its own database)",
    );
  }
  if (!config.databaseUrl.startsWith("postgres")) {
    throw new ConfigError(
      "pagegrade worker needs a PostgreSQL DATABASE_URL (postgres://…): a SQLite file belongs to one service process",
    );
  }
  if (config.workers === 0) {
    throw new ConfigError("PAGEGRADE_WORKERS must be at least 1 for pagegrade worker");
  }
  const store = await openStore(config.databaseUrl);
  const log = (line: string) => process.stderr.write(`pagegrade worker: ${line}\n`);
  const jobs = await openJobQueue(store, config, (error, context) =>
    log(`${context.job ? `job ${context.job}: ` : ""}${(error as Error)?.message ?? String(error)}`),
  );
  // One analysis process unless PAGEGRADE_ANALYSIS_THREADS says otherwise (the service's default is 2): a worker
  // with its processes then peaks under 350 MB on a long crawl, for a few per cent of its rate (README, Memory).
  const analyzer = new Analyzer(
    loadAnalysisConfig({ PAGEGRADE_ANALYSIS_THREADS: workerAnalysisProcesses, ...process.env }),
  );
  const services = createServices({ store, analyzer, config, jobs });
  registerJobs(services);
  const stopped = new Promise<string>((resolve) => {
    process.once("SIGTERM", () => resolve("SIGTERM"));
    process.once("SIGINT", () => resolve("SIGINT"));
  });
  try {
    // The start-up check of Chromium (a process of its own and a browser, about 130–230 MB for a second or
    // two) ends before the worker takes jobs, so its memory never adds to that of the first pages' analysis
    // processes: the peak of a worker with its processes (bench:crawl) is the crawl's, not the start-up's.
    const chromium = await analyzer.chromium.probe();
    if (chromium.problem) log(`rendered analyses are unavailable: ${chromium.problem}`);
    await scheduleJobs(services);
    await jobs.start();
    log(`running up to ${config.workers} jobs at once`);
    const signal = await stopped;
    log(`${signal}: finishing running jobs (at most ${config.jobGraceSeconds} s)`);
  } finally {
    await jobs.close(config.jobGraceSeconds * 1000);
    await analyzer.close();
    await store.close();
  }
  log("stopped");
  return 0;
}
