/**
 * A crawl's progress as one part sees it: the crawl's page counts refreshed at most a few times a second for
 * the whole crawl, and less often once counts grow slow (a count reads every row of the crawl's frontier); the
 * progress listeners of this process are told after each count. The interval a crawl's counts have earned is
 * kept per process across its parts' turns (a turn lasts seconds; a part that started each turn at the shortest
 * interval would count a 100,000-page crawl several times a second).
 */
import { timestamp } from "../timestamps.js";
import type { CrawlStore } from "./crawl-store.js";

/** The least time between two counts of a crawl's progress (by any of its parts). */
const countEveryMs = 250;
/**
 * A count reads every row of the crawl's frontier, so it takes longer as the crawl grows (about 3 ms at 10,000
 * pages here, read on the event loop's thread with SQLite): a part waits at least this many times its last
 * count's duration before counting again, so counting takes at most a hundredth of a crawl's time whatever its
 * size; but never more than `countAtLeastEveryMs`, so progress still moves on a huge crawl.
 */
const countCostFactor = 100;
const countAtLeastEveryMs = 5_000;

/** How long a part waits before counting again after a count that took `tookMs`. */
export function countIntervalAfter(tookMs: number): number {
  return Math.min(countAtLeastEveryMs, Math.max(countEveryMs, tookMs * countCostFactor));
}

/** The crawls this process keeps an earned interval for, at most (the oldest is forgotten first). */
const intervalsKept = 1_000;
/** Per crawl, the least time between two counts its last count earned in this process. */
const earnedIntervals = new Map<number, number>();

/** Remembers a crawl's earned interval, forgetting the oldest crawl's beyond `intervalsKept`. */
function keepInterval(crawlId: number, intervalMs: number): void {
  earnedIntervals.delete(crawlId);
  earnedIntervals.set(crawlId, intervalMs);
  if (earnedIntervals.size > intervalsKept) {
    const oldest = earnedIntervals.keys().next().value as number;
    earnedIntervals.delete(oldest);
  }
}

/** One part's counts of its crawl. */
export class CrawlProgress {
  private countedAt = 0;
  /** The least time until this part counts again: `countEveryMs`, or longer once counts have become slow. */
  private countIntervalMs: number;

  constructor(
    private readonly crawls: CrawlStore,
    private readonly crawlId: number,
    private readonly onProgress?: (crawlId: number) => void,
  ) {
    this.countIntervalMs = earnedIntervals.get(crawlId) ?? countEveryMs;
  }

  /**
   * Counts the crawl's pages again (`now`: whatever the time since the last count); otherwise this part asks at
   * most every `countIntervalMs`, and only one of the parts asking gets the turn.
   */
  async count(now = false): Promise<void> {
    if (!now && Date.now() - this.countedAt < this.countIntervalMs) return;
    this.countedAt = Date.now();
    const started = performance.now();
    if (now) await this.crawls.refreshCounters(this.crawlId, timestamp());
    else {
      const turn = await this.crawls.refreshCountersUnlessRecent(
        this.crawlId,
        this.countIntervalMs,
        new Date(),
      );
      if (!turn) return;
    }
    this.countIntervalMs = countIntervalAfter(performance.now() - started);
    keepInterval(this.crawlId, this.countIntervalMs);
    this.onProgress?.(this.crawlId);
  }
}
