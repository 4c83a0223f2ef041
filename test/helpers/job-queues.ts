/**
 * Job queues for the tests, one of each adapter on the machine's real servers: the embedded queue on a fresh
 * SQLite file or PostgreSQL schema, and BullMQ on the local Redis under a random key prefix (its keys deleted
 * afterwards). `open` makes as many instances as a test needs, as separate processes would have.
 */
import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { BullMqJobQueue } from "../../src/jobs/bullmq-job-queue.js";
import { DatabaseJobQueue } from "../../src/jobs/database-job-queue.js";
import type { JobQueue } from "../../src/jobs/job-queue.js";
import { freshDatabase, type TestDatabase } from "./api.js";
import { redisUrl } from "./redis.js";

export const queueKinds = ["sqlite", "postgres", "bullmq"] as const;
export type QueueKind = (typeof queueKinds)[number];

export interface QueueOptions {
  workers: number;
  leaseMs?: number;
  pollIntervalMs?: number;
}

export interface TestQueues {
  kind: QueueKind;
  database: TestDatabase;
  /** Set for BullMQ: the key prefix of this backend's keys. */
  keyPrefix: string;
  /** A new queue instance on the shared backend; closed by `close()` unless closed before. */
  open(options: QueueOptions): JobQueue;
  /** The environment a child process needs to reach the same backend (see test/helpers/job-process.ts). */
  env: Record<string, string>;
  close(): Promise<void>;
}

export async function testQueues(kind: QueueKind): Promise<TestQueues> {
  const database = await freshDatabase(kind === "sqlite" ? "sqlite" : "postgres");
  const keyPrefix = `pagegrade-test:${randomBytes(6).toString("hex")}:`;
  const opened: JobQueue[] = [];
  const errors: unknown[] = [];
  const onError = (error: unknown) => {
    errors.push(error);
  };
  return {
    kind,
    database,
    keyPrefix,
    open(options) {
      const queue =
        kind === "bullmq"
          ? new BullMqJobQueue({
              url: redisUrl,
              keyPrefix,
              workers: options.workers,
              leaseMs: options.leaseMs ?? 1_000,
              onError,
            })
          : new DatabaseJobQueue(database.store, {
              workers: options.workers,
              leaseMs: options.leaseMs ?? 1_000,
              pollIntervalMs: options.pollIntervalMs ?? 50,
              onError,
            });
      opened.push(queue);
      return queue;
    },
    env: {
      JOB_TEST_KIND: kind,
      DATABASE_URL: database.url,
      ...(database.schema ? { JOB_TEST_SCHEMA: database.schema } : {}),
      JOB_TEST_REDIS_URL: redisUrl,
      JOB_TEST_KEY_PREFIX: keyPrefix,
    },
    async close() {
      await Promise.allSettled(opened.map((queue) => queue.close(0)));
      if (kind === "bullmq") await deleteKeys(keyPrefix);
      await database.drop();
    },
  };
}

async function deleteKeys(prefix: string): Promise<void> {
  const redis = new Redis(redisUrl);
  try {
    let cursor = "0";
    do {
      const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 500);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== "0");
  } finally {
    await redis.quit();
  }
}

/** Resolves once `condition` holds, polling every 20 ms; rejects with `what` after `timeoutMs`. */
export async function eventually(
  condition: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 10_000,
) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A promise with its resolve function outside, for handlers that wait until the test lets them go. */
export function gate(): { promise: Promise<void>; open: () => void } {
  let open = () => {};
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}
