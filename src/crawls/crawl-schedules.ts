/**
 * Scheduled crawls. A crawl whose schedule is `daily` or `weekly` sets `next_run_at` when it ends; a recurring
 * job (`schedule-due-crawls`) starts each due one again as a new crawl with the same settings, which carries
 * the schedule on (the old crawl's `next_run_at` is cleared).
 *
 * Several processes may run the sweep at once: each due crawl is claimed with a compare-and-set that moves its
 * `next_run_at` a lease ahead, so one process starts it. A user who already has as many crawls running as
 * allowed keeps the claim until the lease ends, and the crawl is tried again then. Should a process die between
 * starting the new crawl and clearing the old one's time, the old one runs once more after the lease.
 */
import { timestamp } from "../timestamps.js";
import type { CrawlService } from "./crawl-service.js";
import type { CrawlStore } from "./crawl-store.js";

export const scheduleDueCrawlsJob = "schedule-due-crawls";

const sweepBatch = 100;
const claimLeaseMs = 10 * 60_000;

export function scheduleDueCrawlsHandler(crawls: CrawlStore, service: CrawlService): () => Promise<void> {
  return async () => {
    const now = new Date();
    const due = await crawls.dueScheduled(timestamp(now), sweepBatch);
    const leaseEnd = timestamp(new Date(now.getTime() + claimLeaseMs));
    for (const crawl of due) {
      if (crawl.next_run_at === null || !(await crawls.moveNextRun(crawl.id, crawl.next_run_at, leaseEnd))) {
        continue;
      }
      if (await service.runAgain(crawl)) await crawls.moveNextRun(crawl.id, leaseEnd, null);
    }
  };
}
