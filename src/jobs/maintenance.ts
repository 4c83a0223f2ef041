/**
 * The maintenance job: housekeeping that must happen somewhere but not in every process — expired web sessions
 * and finished rows of the embedded queue past their retention. Runs as a recurring job, so with several
 * processes it runs once per period, in whichever worker takes it.
 */
import { SessionService } from "../accounts/session-service.js";
import type { Store } from "../store/store.js";
import { timestamp } from "../timestamps.js";
import type { JobContext } from "./job-queue.js";

export const maintenanceJob = "maintenance";
export const maintenanceEveryMs = 10 * 60_000;
/** Finished jobs stay this long for inspection. */
export const finishedJobRetentionMs = 7 * 24 * 3600_000;

export function maintenanceHandler(store: Store, now: () => number = Date.now) {
  const sessions = new SessionService(store);
  return async (_job: JobContext<unknown>): Promise<void> => {
    await sessions.sweep();
    await store.db
      .deleteFrom("jobs")
      .where("state", "in", ["completed", "failed", "cancelled"])
      .where("finished_at", "<", timestamp(new Date(now() - finishedJobRetentionMs)))
      .execute();
  };
}
