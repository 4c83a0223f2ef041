/**
 * What only the embedded queue has to prove: a worker that loses its lease to another (its renewal finds the job
 * taken over) aborts its handler and records nothing, so two live workers never both record one job.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JobAborted } from "../../src/jobs/job-queue.js";
import { databaseKinds } from "../helpers/api.js";
import { eventually, type TestQueues, testQueues } from "../helpers/job-queues.js";

describe.each(databaseKinds)("the embedded queue on %s", (kind) => {
  let queues: TestQueues;
  beforeAll(async () => {
    queues = await testQueues(kind);
  });
  afterAll(async () => {
    await queues.close();
  });

  it("aborts a handler whose lease was taken over, and leaves the job to its new owner", async () => {
    const queue = queues.open({ workers: 1, leaseMs: 300 });
    let reason: unknown = null;
    let started = false;
    queue.register("contested", async (job) => {
      started = true;
      await new Promise<void>((resolve) => {
        job.signal.addEventListener("abort", () => {
          reason = job.signal.reason;
          resolve();
        });
      });
    });
    await queue.start();
    const { id } = await queue.enqueue("contested", null);
    await eventually(() => started, "the job to start");
    const { db } = queues.database.store;
    // As if this worker had stalled past its lease and another process had claimed the job.
    await db.updateTable("jobs").set({ owner: "another-worker" }).where("id", "=", Number(id)).execute();
    await eventually(() => reason !== null, "the handler's signal to abort", 5_000);
    expect(reason).toBeInstanceOf(JobAborted);
    expect((reason as JobAborted).reason).toBe("lease-lost");
    await queue.close();
    const row = await db
      .selectFrom("jobs")
      .select(["state", "owner", "finished_at"])
      .where("id", "=", Number(id))
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ state: "running", owner: "another-worker", finished_at: null });
  });
});
