/**
 * The maintenance job: housekeeping that must happen somewhere but not in every process. It runs the tasks it is
 * given (composition, job-registry.ts, names them: expired web sessions, finished queue rows past their
 * retention), one after the other, each whatever the one before did: a task that fails does not keep the others
 * from running, and the job then fails with every task's error. A recurring job, so with several processes it
 * runs once per period, in whichever worker takes it.
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
    const failures: unknown[] = [];
    for (const task of tasks) {
      try {
        await task(at);
      } catch (error) {
        failures.push(error);
      }
    }
    if (failures.length === 1) throw failures[0];
    if (failures.length > 1)
      throw new AggregateError(failures, `${failures.length} maintenance tasks failed`);
  };
}
