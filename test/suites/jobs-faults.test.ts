/**
 * The job queue under faults, on every adapter (embedded on SQLite and PostgreSQL, BullMQ on Redis), with real
 * worker processes (test/helpers/job-process.ts) and real signals: a worker SIGKILLed mid-job has its jobs
 * completed exactly once by another; SIGTERM finishes short jobs and hands back long ones within the grace
 * period, then exits 0; several processes declaring one recurring job run it once per period; a BullMQ worker
 * whose Redis restarts resumes taking jobs. npm run test:jobs.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { BullMqJobQueue } from "../../src/jobs/bullmq-job-queue.js";
import { eventually, queueKinds, type TestQueues, testQueues } from "../helpers/job-queues.js";
import { startOwnRedis } from "../helpers/redis.js";

const root = new URL("../..", import.meta.url).pathname;

describe.each(queueKinds)("jobs under faults on %s", (kind) => {
  let queues: TestQueues;
  let dir: string;
  let logFile: string;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    queues = await testQueues(kind);
    dir = mkdtempSync(join(tmpdir(), "pagegrade-jobs-"));
  });
  afterEach(() => {
    for (const child of children.splice(0)) {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    }
  });
  afterAll(async () => {
    await queues.close();
    rmSync(dir, { recursive: true, force: true });
  });

  let logs = 0;
  function freshLog() {
    logFile = join(dir, `log-${++logs}.txt`);
  }
  const lines = (): string[] => {
    try {
      return readFileSync(logFile, "utf8").trim().split("\n").filter(Boolean);
    } catch {
      return [];
    }
  };
  const count = (prefix: string) => lines().filter((line) => line.startsWith(prefix)).length;

  async function startWorker(env: Record<string, string> = {}) {
    const child = spawn(process.execPath, ["--import", "tsx", "test/helpers/job-process.ts"], {
      cwd: root,
      env: { ...process.env, ...queues.env, JOB_TEST_LOG: logFile, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.push(child);
    let errors = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      errors += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    await new Promise<void>((resolve, reject) => {
      child.stdout?.on("data", (chunk: Buffer) => {
        if (chunk.toString().includes("ready")) resolve();
      });
      child.once("exit", (code) => reject(new Error(`the worker exited (${code}): ${errors}`)));
    });
    return { child, exited, errors: () => errors };
  }

  it("completes every job of a SIGKILLed worker exactly once, in another worker", async () => {
    freshLog();
    const producer = queues.open({ workers: 0 });
    const doomed = await startWorker();
    for (let n = 0; n < 6; n++) await producer.enqueue("record", { tag: `job${n}`, ms: 400 });
    await eventually(() => count("start ") >= 2, "the first jobs to start");
    doomed.child.kill("SIGKILL");
    await doomed.exited;
    const interrupted = lines()
      .filter((line) => line.startsWith("start "))
      .map((line) => line.split(" ")[1])
      .filter((tag) => !lines().includes(`done ${tag} ${doomed.child.pid}`));
    expect(interrupted.length).toBeGreaterThan(0);

    await startWorker();
    await eventually(() => count("done ") >= 6, "every job to complete", 30_000);
    // Longer than a lease: nothing runs a second time.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    for (let n = 0; n < 6; n++) {
      expect(lines().filter((line) => line.startsWith(`done job${n} `))).toHaveLength(1);
    }
    for (const tag of interrupted) {
      expect(lines().filter((line) => line.startsWith(`start ${tag} `)).length).toBeGreaterThanOrEqual(2);
    }
  });

  it("on SIGTERM finishes short jobs, hands back long ones within the grace period, and exits 0", async () => {
    freshLog();
    const producer = queues.open({ workers: 0 });
    const stopping = await startWorker({ JOB_TEST_GRACE_MS: "500" });
    await producer.enqueue("record", { tag: "short", ms: 200 });
    await producer.enqueue("record", { tag: "long", ms: 4_000 }, { attempts: 1 });
    await eventually(() => count("start ") === 2, "both jobs to start");
    stopping.child.kill("SIGTERM");
    expect(await stopping.exited).toBe(0);
    expect(lines().filter((line) => line.startsWith("done "))).toEqual([`done short ${stopping.child.pid}`]);

    // The long job was handed back without using its only attempt: the next worker runs it to the end.
    const next = await startWorker();
    await eventually(() => count("done long ") === 1, "the handed-back job to complete", 30_000);
    expect(lines()).toContain(`done long ${next.child.pid}`);
    expect(count("done short ")).toBe(1);
  });

  it("runs a recurring job once per period with three worker processes", async () => {
    freshLog();
    const env = { JOB_TEST_SCHEDULE_MS: "500" };
    const workers = [await startWorker(env), await startWorker(env), await startWorker(env)];
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    for (const worker of workers) worker.child.kill("SIGTERM");
    for (const worker of workers) expect(await worker.exited).toBe(0);
    const ticks = lines()
      .filter((line) => line.startsWith("tick "))
      .map((line) => Number(line.split(" ")[1]))
      .sort((a, b) => a - b);
    // The processes start one after another (seconds each), so count periods over the span the ticks cover.
    expect(ticks.length).toBeGreaterThanOrEqual(4);
    const span = (ticks.at(-1) ?? 0) - (ticks[0] ?? 0);
    expect(ticks.length).toBeLessThanOrEqual(Math.floor(span / 500) + 2);
    for (let index = 1; index < ticks.length; index++) {
      expect((ticks[index] ?? 0) - (ticks[index - 1] ?? 0)).toBeGreaterThan(250);
    }
  });
});

describe("jobs on BullMQ when Redis restarts", () => {
  it("a running worker process resumes taking jobs once Redis is back", async () => {
    const queues = await testQueues("bullmq");
    const dir = mkdtempSync(join(tmpdir(), "pagegrade-jobs-"));
    const logFile = join(dir, "log.txt");
    let redis = await startOwnRedis();
    const port = Number(new URL(redis.url).port);
    const env = { ...queues.env, JOB_TEST_REDIS_URL: redis.url, JOB_TEST_LOG: logFile };
    const child = spawn(process.execPath, ["--import", "tsx", "test/helpers/job-process.ts"], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "ignore"],
    });
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    const producer = () => new BullMqJobQueue({ url: redis.url, keyPrefix: queues.keyPrefix, workers: 0 });
    const done = (tag: string) => {
      try {
        return readFileSync(logFile, "utf8").includes(`done ${tag} ${child.pid}`);
      } catch {
        return false;
      }
    };
    try {
      await new Promise<void>((resolve) => {
        child.stdout?.on("data", (chunk: Buffer) => {
          if (chunk.toString().includes("ready")) resolve();
        });
      });
      const before = producer();
      await before.enqueue("record", { tag: "before", ms: 10 });
      await eventually(() => done("before"), "the job before the restart");
      await before.close();

      await redis.kill();
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      redis = await startOwnRedis(port);

      const after = producer();
      await after.enqueue("record", { tag: "after", ms: 10 });
      await eventually(() => done("after"), "the same worker to run a job after the restart", 30_000);
      await after.close();
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
      await redis.kill();
      await queues.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
