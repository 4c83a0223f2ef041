/**
 * The jobs port's contract, run against every adapter on the real servers: the embedded queue on SQLite and on
 * PostgreSQL, and BullMQ on Redis. The crash and signal cases (SIGKILL, SIGTERM, several processes) are in
 * test/suites/jobs-faults.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type JobContext, RunLater } from "../../src/jobs/job-queue.js";
import { eventually, gate, queueKinds, type TestQueues, testQueues } from "../helpers/job-queues.js";

describe.each(queueKinds)("job queue on %s", (kind) => {
  let queues: TestQueues;
  beforeAll(async () => {
    queues = await testQueues(kind);
  });
  afterAll(async () => {
    await queues.close();
  });

  it("runs a job with its payload, once", async () => {
    const queue = queues.open({ workers: 2 });
    const seen: Array<{ payload: unknown; attempt: number; name: string }> = [];
    queue.register("greet", async (job: JobContext<{ to: string }>) => {
      seen.push({ payload: job.payload, attempt: job.attempt, name: job.name });
    });
    await queue.start();
    const result = await queue.enqueue("greet", { to: "world" });
    expect(result.enqueued).toBe(true);
    await eventually(() => seen.length === 1, "the job to run");
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(seen).toEqual([{ payload: { to: "world" }, attempt: 1, name: "greet" }]);
    await queue.close();
  });

  it("adds nothing for a key already waiting or running, and says so; the key is free again once it ends", async () => {
    const producer = queues.open({ workers: 0 });
    const first = await producer.enqueue("dedupe", { n: 1 }, { key: "report:7" });
    const second = await producer.enqueue("dedupe", { n: 2 }, { key: "report:7" });
    expect(first.enqueued).toBe(true);
    expect(second).toEqual({ id: first.id, enqueued: false });

    const release = gate();
    const runs: unknown[] = [];
    const worker = queues.open({ workers: 1 });
    worker.register("dedupe", async (job) => {
      runs.push(job.payload);
      await release.promise;
    });
    await worker.start();
    await eventually(() => runs.length === 1, "the first job to start");
    // Running now: still a no-op.
    expect((await producer.enqueue("dedupe", { n: 3 }, { key: "report:7" })).enqueued).toBe(false);
    release.open();
    await eventually(
      async () => (await producer.enqueue("dedupe", { n: 4 }, { key: "report:7" })).enqueued,
      "the key to be free again",
    );
    await eventually(() => runs.length === 2, "the second job to run");
    expect(runs).toEqual([{ n: 1 }, { n: 4 }]);
    await worker.close();
  });

  it("does not run a delayed job before its delay", async () => {
    const queue = queues.open({ workers: 1 });
    let ranAt = 0;
    queue.register("later", async () => {
      ranAt = Date.now();
    });
    await queue.start();
    const enqueuedAt = Date.now();
    await queue.enqueue("later", null, { delayMs: 600 });
    await eventually(() => ranAt > 0, "the delayed job to run");
    expect(ranAt - enqueuedAt).toBeGreaterThanOrEqual(600);
    await queue.close();
  });

  it("retries a failing job with growing, jittered waits, then gives up after its attempts", async () => {
    const queue = queues.open({ workers: 1 });
    const attempts: Array<{ attempt: number; at: number }> = [];
    queue.register("flaky", async (job: JobContext<{ succeedOn: number }>) => {
      attempts.push({ attempt: job.attempt, at: Date.now() });
      if (job.attempt < job.payload.succeedOn) throw new Error(`attempt ${job.attempt} failed`);
    });
    await queue.start();
    await queue.enqueue("flaky", { succeedOn: 3 }, { attempts: 4, backoff: { delayMs: 200 } });
    await eventually(() => attempts.length === 3, "the third attempt");
    expect(attempts.map((entry) => entry.attempt)).toEqual([1, 2, 3]);
    // Equal jitter: each wait is at least half its nominal delay (200 ms, then 400 ms).
    const [a, b, c] = attempts.map((entry) => entry.at) as [number, number, number];
    expect(b - a).toBeGreaterThanOrEqual(100);
    expect(c - b).toBeGreaterThanOrEqual(200);

    attempts.length = 0;
    await queue.enqueue("flaky", { succeedOn: 99 }, { attempts: 2, backoff: { delayMs: 50 } });
    await eventually(() => attempts.length === 2, "both attempts");
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(attempts.map((entry) => entry.attempt)).toEqual([1, 2]);
    await queue.close();
  });

  it("runs no more jobs of a name at once than its concurrency, nor more in all than the process's workers", async () => {
    const queue = queues.open({ workers: 3 });
    let running = 0;
    let most = 0;
    let done = 0;
    const slow = async () => {
      running++;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 150));
      running--;
      done++;
    };
    queue.register("narrow", slow, { concurrency: 2 });
    queue.register("wide", slow, { concurrency: 10 });
    await queue.start();
    for (let n = 0; n < 6; n++) await queue.enqueue("narrow", { n });
    await eventually(() => done === 6, "six narrow jobs", 15_000);
    expect(most).toBe(2);
    most = 0;
    for (let n = 0; n < 8; n++) await queue.enqueue("wide", { n });
    await eventually(() => done === 14, "eight wide jobs", 15_000);
    expect(most).toBe(3);
    await queue.close();
  });

  it("takes turns between users: one user's backlog delays another's job by one job at most", async () => {
    const producer = queues.open({ workers: 0 });
    // User 1's five jobs are older than user 2's two, and the worker has one slot.
    for (let n = 1; n <= 5; n++) await producer.enqueue("turns", { who: `a${n}` }, { userId: 1 });
    for (let n = 1; n <= 2; n++) await producer.enqueue("turns", { who: `b${n}` }, { userId: 2 });
    const order: string[] = [];
    const queue = queues.open({ workers: 1 });
    queue.register("turns", async (job: JobContext<{ who: string }>) => {
      order.push(job.payload.who);
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
    await queue.start();
    await eventually(() => order.length === 7, "every job to run", 15_000);
    expect(order).toEqual(["a1", "b1", "a2", "b2", "a3", "a4", "a5"]);
    await queue.close();
  });

  it("gives a user with nothing running the next free slot before a user who holds the others", async () => {
    const queue = queues.open({ workers: 2 });
    const firstEnds = gate();
    const release = gate();
    const started: string[] = [];
    queue.register("share", async (job: JobContext<{ who: string }>) => {
      started.push(job.payload.who);
      await (job.payload.who === "a1" ? firstEnds.promise : release.promise);
    });
    await queue.start();
    // User 1 holds both slots and has a backlog when user 2's job arrives.
    await queue.enqueue("share", { who: "a1" }, { userId: 1 });
    await queue.enqueue("share", { who: "a2" }, { userId: 1 });
    await eventually(() => started.length === 2, "user 1's first two jobs");
    for (let n = 3; n <= 6; n++) await queue.enqueue("share", { who: `a${n}` }, { userId: 1 });
    await queue.enqueue("share", { who: "b1" }, { userId: 2 });
    firstEnds.open();
    await eventually(() => started.length >= 3, "the freed slot's next job");
    expect(started[2]).toBe("b1");
    release.open();
    await eventually(() => started.length === 7, "every job to run");
    await queue.close();
  });

  it("runs a name with slots of its own beside the shared ones, never in them", async () => {
    const queue = queues.open({ workers: 1 });
    const release = gate();
    let slowRunning = 0;
    let slowMost = 0;
    let quickRan = 0;
    queue.register(
      "slow-own",
      async () => {
        slowRunning++;
        slowMost = Math.max(slowMost, slowRunning);
        await release.promise;
        slowRunning--;
      },
      { concurrency: 2, ownSlots: true },
    );
    queue.register("quick", async () => {
      quickRan++;
    });
    await queue.start();
    for (let n = 0; n < 3; n++) await queue.enqueue("slow-own", { n });
    await eventually(() => slowRunning === 2, "two of the name's own slots in use");
    await queue.enqueue("quick", null);
    // The one shared slot is free although the name with its own slots has work waiting.
    await eventually(() => quickRan === 1, "a job in the shared slot");
    release.open();
    await eventually(() => slowRunning === 0 && slowMost === 2, "the slow jobs to end");
    await queue.close();
  });

  it("puts a job that asks to run later back to the queue, its slot free, its key held and no attempt used", async () => {
    const queue = queues.open({ workers: 1 });
    const runs: Array<{ attempt: number; at: number }> = [];
    let otherRanAt = 0;
    queue.register("later-again", async (job) => {
      runs.push({ attempt: job.attempt, at: Date.now() });
      if (runs.length < 3) throw new RunLater(500);
    });
    queue.register("meanwhile", async () => {
      otherRanAt = Date.now();
    });
    await queue.start();
    await queue.enqueue("later-again", null, { key: "later:1", attempts: 1 });
    await eventually(() => runs.length === 1, "the first run");
    expect((await queue.enqueue("later-again", null, { key: "later:1" })).enqueued).toBe(false);
    await queue.enqueue("meanwhile", null);
    await eventually(() => runs.length === 3, "the runs after the waits", 15_000);
    expect(otherRanAt).toBeGreaterThan(0);
    expect(otherRanAt).toBeLessThan(runs[1]?.at ?? 0);
    expect(runs.map((run) => run.attempt)).toEqual([1, 1, 1]);
    expect((runs[1]?.at ?? 0) - (runs[0]?.at ?? 0)).toBeGreaterThanOrEqual(500);
    expect((runs[2]?.at ?? 0) - (runs[1]?.at ?? 0)).toBeGreaterThanOrEqual(500);
    await queue.close();
  });

  it("cancels a waiting job before it runs and aborts a running one without retrying it", async () => {
    const producer = queues.open({ workers: 0 });
    expect(await producer.cancel("cancellable", "nothing-here")).toBe(false);
    await producer.enqueue("cancellable", { which: "delayed" }, { key: "delayed", delayMs: 300 });
    expect(await producer.cancel("cancellable", "delayed")).toBe(true);
    expect(await producer.cancel("cancellable", "delayed")).toBe(false);

    const runs: unknown[] = [];
    let aborted = false;
    const worker = queues.open({ workers: 1 });
    worker.register("cancellable", async (job) => {
      runs.push(job.payload);
      await new Promise<void>((resolve) => {
        job.signal.addEventListener("abort", () => {
          aborted = true;
          resolve();
        });
      });
    });
    await worker.start();
    await producer.enqueue("cancellable", { which: "running" }, { key: "running", attempts: 3 });
    await eventually(() => runs.length === 1, "the job to start");
    // From another instance, as from another process.
    expect(await producer.cancel("cancellable", "running")).toBe(true);
    await eventually(() => aborted, "the handler's signal to abort", 5_000);
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(runs).toEqual([{ which: "running" }]);
    // The key is free: a new job with it runs.
    expect((await producer.enqueue("cancellable", { which: "again" }, { key: "running" })).enqueued).toBe(
      true,
    );
    await eventually(() => runs.length === 2, "the new job to start");
    // The cancelled delayed job never ran, and its key is free too.
    expect(runs).toEqual([{ which: "running" }, { which: "again" }]);
    expect(await producer.cancel("cancellable", "running")).toBe(true);
    expect(
      (await producer.enqueue("cancellable", { which: "re-delayed" }, { key: "delayed" })).enqueued,
    ).toBe(true);
    await eventually(() => runs.length === 3, "the job with the freed key to run");
    await worker.close(0);
  });

  it("lets running jobs finish at close, and hands back those past the grace period for another worker", async () => {
    const first = queues.open({ workers: 2 });
    const finished: string[] = [];
    const started: string[] = [];
    const handler = async (job: JobContext<{ ms: number; tag: string }>) => {
      started.push(job.payload.tag);
      await new Promise((resolve) => setTimeout(resolve, job.payload.ms));
      if (!job.signal.aborted) finished.push(job.payload.tag);
    };
    first.register("graceful", handler);
    await first.start();
    await first.enqueue("graceful", { ms: 100, tag: "short" });
    await first.enqueue("graceful", { ms: 60_000, tag: "long" }, { attempts: 1 });
    await eventually(() => started.length === 2, "both jobs to start");
    await first.close(400);
    expect(finished).toEqual(["short"]);

    const second = queues.open({ workers: 2 });
    const resumed: Array<{ tag: string; attempt: number }> = [];
    second.register("graceful", async (job: JobContext<{ tag: string }>) => {
      resumed.push({ tag: job.payload.tag, attempt: job.attempt });
    });
    await second.start();
    // Handed back without using its only attempt.
    await eventually(() => resumed.length === 1, "the handed-back job to run elsewhere");
    expect(resumed[0]?.tag).toBe("long");
    await second.close();
  });

  it("shares jobs between instances, each job run exactly once", async () => {
    const runs: number[] = [];
    const instances = [queues.open({ workers: 3 }), queues.open({ workers: 3 }), queues.open({ workers: 3 })];
    for (const instance of instances) {
      instance.register("shared", async (job: JobContext<{ n: number }>) => {
        runs.push(job.payload.n);
        await new Promise((resolve) => setTimeout(resolve, 10));
      });
      await instance.start();
    }
    const producer = queues.open({ workers: 0 });
    for (let n = 0; n < 60; n++) await producer.enqueue("shared", { n });
    await eventually(() => runs.length >= 60, "every job to run", 20_000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    for (const instance of instances) await instance.close();
    expect([...runs].sort((a, b) => a - b)).toEqual(Array.from({ length: 60 }, (_, n) => n));
  });

  it("enqueues a recurring job once per period, however many instances declare it", async () => {
    const runs: number[] = [];
    const instances = [queues.open({ workers: 1 }), queues.open({ workers: 1 }), queues.open({ workers: 1 })];
    for (const instance of instances) {
      instance.register("tick", async () => {
        runs.push(Date.now());
      });
    }
    for (const instance of instances) {
      await instance.schedule({ id: "tick-every-400", name: "tick", payload: null, everyMs: 400 });
      await instance.start();
    }
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    for (const instance of instances) await instance.close();
    // About five periods; never two runs in one period.
    expect(runs.length).toBeGreaterThanOrEqual(3);
    expect(runs.length).toBeLessThanOrEqual(7);
    const sorted = [...runs].sort((x, y) => x - y);
    for (let index = 1; index < sorted.length; index++) {
      expect((sorted[index] ?? 0) - (sorted[index - 1] ?? 0)).toBeGreaterThan(200);
    }
  });
});
