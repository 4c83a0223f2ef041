/**
 * The sweep that announces the end of crawls whose process died between ending them and announcing it (outbox
 * style: `announced_at` is set only after `EventSink.crawlFinished` returned, crawl-finish.ts). Run by the
 * maintenance job: crawls ended `complete` or `failed` more than `graceMs` ago and never announced are announced
 * now, oldest first, and marked. The sinks are idempotent (a webhook delivery's `event_key`, a notification
 * mail's `dedupe_key`, a stored mail never enqueued is enqueued again), so a crawl announced twice (the sweep
 * racing a slow finisher, or dying before marking) still sends each webhook and mail once.
 */
import type { EventSink } from "../events/event-sink.js";
import { timestamp } from "../timestamps.js";
import type { CrawlStore } from "./crawl-store.js";

/** A crawl ended this long ago without its announcement is taken as left by a process that died. */
export const announcementGraceMs = 5 * 60_000;
/** At most this many crawls per sweep (the next sweep takes the rest). */
const perSweep = 100;

/**
 * Announces the crawls left unannounced; returns how many. One that cannot be announced (its sinks failed) is
 * left for the next sweep and does not hold up the others; the sweep then fails naming how many.
 */
export async function announceMissedCrawls(
  dependencies: { crawls: CrawlStore; events: EventSink },
  now: number,
  graceMs = announcementGraceMs,
): Promise<number> {
  const { crawls, events } = dependencies;
  const missed = await crawls.unannounced(timestamp(new Date(now - graceMs)), perSweep);
  const failures: unknown[] = [];
  for (const crawl of missed) {
    const status = crawl.status as "complete" | "failed";
    try {
      await events.crawlFinished({ userId: crawl.user_id, crawlId: crawl.id, status });
      await crawls.markAnnounced(crawl.id, timestamp());
    } catch (error) {
      failures.push(error);
    }
  }
  if (failures.length > 0)
    throw new AggregateError(
      failures,
      `${failures.length} of ${missed.length} crawls could not be announced`,
    );
  return missed.length;
}
