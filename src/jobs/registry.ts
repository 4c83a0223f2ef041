/**
 * Every kind of job the service runs, in one place: the handler for each job name, its concurrency, and the
 * recurring schedules. The service (src/main.ts) and `pagegrade worker` both call this, so any process can run
 * any job. A new kind of job is one line here and a handler module.
 */
import type { Store } from "../store/database.js";
import type { JobQueue } from "./job-queue.js";
import { maintenanceEveryMs, maintenanceHandler, maintenanceJob } from "./maintenance.js";

export interface JobDependencies {
  store: Store;
}

/** Registers the handlers (before `start`). */
export function registerJobs(queue: JobQueue, { store }: JobDependencies): void {
  queue.register(maintenanceJob, maintenanceHandler(store), { concurrency: 1 });
}

/** Declares the recurring jobs (idempotent: every process declares them, each period enqueues one). */
export async function scheduleJobs(queue: JobQueue): Promise<void> {
  await queue.schedule({
    id: maintenanceJob,
    name: maintenanceJob,
    payload: null,
    everyMs: maintenanceEveryMs,
  });
}
