/**
 * The queue's health, as /healthz asks for it: the BullMQ adapter answers while its Redis does and refuses at
 * once (never hangs) once Redis is gone; the embedded adapter's jobs live in the database /healthz checks itself.
 */
import { describe, expect, it } from "vitest";
import { BullMqJobQueue } from "../../src/jobs/bullmq-job-queue.js";
import { startOwnRedis } from "../helpers/redis.js";

describe("the queue's ping", () => {
  it("BullMQ: answers while Redis does, refuses at once when it is gone", async () => {
    const redis = await startOwnRedis();
    const queue = new BullMqJobQueue({ url: redis.url, keyPrefix: "ping-test:", workers: 0 });
    try {
      await queue.ping();
      await redis.kill();
      const started = Date.now();
      await expect(queue.ping()).rejects.toThrow();
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      await queue.close(0);
      await redis.kill();
    }
  });
});
