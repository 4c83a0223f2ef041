/**
 * The job queue the configuration asks for: BullMQ on Redis when PAGEGRADE_QUEUE_URL is set, else the embedded
 * queue in the service's own database. Sized by PAGEGRADE_WORKERS, leases and grace from their settings.
 */
import type { ServiceConfig } from "../config.js";
import type { Store } from "../store/store.js";
import { DatabaseJobQueue } from "./database-job-queue.js";
import type { JobQueue } from "./job-queue.js";

export type JobErrorLogger = (error: unknown, context: { job?: string }) => void;

export async function openJobQueue(
  store: Store,
  config: Pick<ServiceConfig, "queueUrl" | "redisKeyPrefix" | "workers" | "jobLeaseSeconds">,
  onError?: JobErrorLogger,
): Promise<JobQueue> {
  const leaseMs = config.jobLeaseSeconds * 1000;
  if (config.queueUrl === null) {
    return new DatabaseJobQueue(store, { workers: config.workers, leaseMs, ...(onError ? { onError } : {}) });
  }
  // Loaded only when asked for, so the embedded set-up never loads BullMQ.
  const { BullMqJobQueue } = await import("./bullmq-job-queue.js");
  const queue = new BullMqJobQueue({
    url: config.queueUrl,
    keyPrefix: config.redisKeyPrefix,
    workers: config.workers,
    leaseMs,
    ...(onError ? { onError } : {}),
  });
  await queue.connect();
  return queue;
}
