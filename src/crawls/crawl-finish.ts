/**
 * The end of a crawl. Once its frontier is empty, the one part that takes the finish lease (renewed while it
 * works) judges the site (`site-judgement.ts`), ends the crawl `complete`, `cancelled` or, when its start page
 * failed, `failed`, and has a complete crawl's changes against the previous one summarised for the project
 * dashboard (`crawl-change-summary.ts`). A crawl whose job failed in every run ends `failed` here too. Either
 * way the next run of a scheduled crawl is set and the end is announced (`EventSink.crawlFinished`), then
 * recorded as announced (`announced_at`; a crawl whose process died in between is announced by the maintenance
 * job's sweep, crawl-announcements.ts).
 */

import { resultOf } from "../analysis/score.js";
import { nextRunAt } from "../reports/schedules.js";
import { workspaceOf } from "../store/owned-rows.js";
import { timestamp } from "../timestamps.js";
import { finishLeaseMs, idlePollMs, pause, renewingWhile } from "./crawl-part-leases.js";
import type { CrawlRow } from "./crawl-store.js";
import type { CrawlerDependencies } from "./crawler-dependencies.js";
import { judgeCrawl } from "./site-judgement.js";

type Ending = "complete" | "failed" | "cancelled";

/**
 * Judges the site and ends the crawl, in the one part that takes the finish lease; the others leave it to
 * that part (or take over once its lease has run out, should it stop).
 */
export async function finishCrawl(
  dependencies: CrawlerDependencies,
  crawl: CrawlRow,
  status: "complete" | "cancelled",
  signal: AbortSignal,
): Promise<void> {
  const { crawls } = dependencies.stores;
  let heldUntil: string;
  for (;;) {
    if (signal.aborted) return;
    const now = Date.now();
    heldUntil = timestamp(new Date(now + finishLeaseMs));
    if (await crawls.takeLease(crawl.id, "finish_lease_until", timestamp(new Date(now)), heldUntil)) break;
    const current = await crawls.find(workspaceOf(crawl), crawl.id);
    if (current?.status !== "running") return;
    await pause(idlePollMs);
  }
  // The lease is renewed while the part judges and ends the crawl, which may take longer than the lease on a
  // large crawl: otherwise every other part would take it in turn and judge the crawl again beside it.
  await renewingWhile(
    finishLeaseMs / 4,
    async () => {
      const until = timestamp(new Date(Date.now() + finishLeaseMs));
      if (await crawls.renewLease(crawl.id, "finish_lease_until", heldUntil, until)) heldUntil = until;
    },
    () => judgeAndEnd(dependencies, crawl, status),
  );
}

/** The last run of the crawl's job failed too: the crawl ends `failed`, keeping the pages it analysed. */
export async function failCrawlAfterLastRun(
  dependencies: CrawlerDependencies,
  crawl: CrawlRow,
  attempts: number,
): Promise<void> {
  const error = {
    reason: "internal-error",
    message: `The crawl stopped on an unexpected error in each of its ${attempts} runs.`,
  };
  await endCrawl(dependencies, crawl, "failed", { error: JSON.stringify(error) }, timestamp());
}

/** The finish proper, under the finish lease: the site judged, the crawl ended, its changes summarised. */
async function judgeAndEnd(
  dependencies: CrawlerDependencies,
  crawl: CrawlRow,
  status: "complete" | "cancelled",
): Promise<void> {
  const { crawls, site } = dependencies.stores;
  // A start page that failed asked the crawl to stop with its error: the crawl fails.
  const failed = (await crawls.find(workspaceOf(crawl), crawl.id))?.error != null;
  const ending = failed ? "failed" : status;
  // A judgement reads the whole crawl: the analysis processes this crawl's pages left idle give their memory
  // back first (a worker with its process peaked at 388 MB judging 100,000 pages beside an idle one).
  dependencies.analyzer.analysisPool?.endIdle();
  await judgeCrawl(site, crawl);
  const score = await site.meanScore(crawl.id);
  const now = timestamp();
  await crawls.refreshCounters(crawl.id, now);
  const result = score === null ? null : resultOf(score, dependencies.analyzer.scoring);
  const ended = await endCrawl(dependencies, crawl, ending, { score, result }, now);
  // Compared once complete, written in one statement: a run cut off before leaves no summary, and the
  // dashboard then compares the crawls itself.
  if (ended && ending === "complete") await dependencies.changes?.record(ended);
}

/**
 * Ends the crawl if it is still running, with its next run when scheduled, tells this process's progress
 * listeners, and announces the end unless the crawl was cancelled. Returns the ended crawl.
 */
async function endCrawl(
  dependencies: CrawlerDependencies,
  crawl: CrawlRow,
  status: Ending,
  columns: Partial<Pick<CrawlRow, "error" | "score" | "result">>,
  now: string,
): Promise<CrawlRow | undefined> {
  const ended = await dependencies.stores.crawls.endRunning(crawl.id, {
    status,
    ...columns,
    finished_at: now,
    updated_at: now,
    next_run_at: nextRunAt(crawl.schedule, dependencies.scheduleIntervals, new Date()),
    // A cancelled crawl is announced to nobody.
    ...(status === "cancelled" ? { announced_at: now } : {}),
  });
  dependencies.onProgress?.(crawl.id);
  if (ended && status !== "cancelled") {
    await dependencies.events.crawlFinished({ userId: crawl.user_id, crawlId: crawl.id, status });
    // Only now: a process that dies before leaves the crawl to the sweep (crawl-announcements.ts).
    await dependencies.stores.crawls.markAnnounced(crawl.id, timestamp());
  }
  return ended;
}
