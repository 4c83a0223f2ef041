/**
 * The maintenance job: housekeeping that must happen somewhere but not in every process. It runs the tasks it is
 * given (composition, job-registry.ts, names them: expired web sessions, finished queue rows past their
 * retention), one after the other. A recurring job, so with several processes it runs once per period, in
 * whichever worker takes it.
 */
import type { JobContext } from "./job-queue.js";

export const maintenanceJob = "maintenance";
export const maintenanceEveryMs = 10 * 60_000;
/** Finished jobs stay this long for inspection. */
export const finishedJobRetentionMs = 7 * 24 * 3600_000;

/** One piece of housekeeping; `now` is the run's clock. */
export type MaintenanceTask = (now: number) => Promise<void>;

export function maintenanceHandler(tasks: readonly MaintenanceTask[], now: () => number = Date.now) {
  return async (_job: JobContext<unknown>): Promise<void> => {
    const at = now();
    for (const task of tasks) await task(at);
  };
}
