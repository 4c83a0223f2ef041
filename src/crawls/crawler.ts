/**
 * The `crawl` job: one part of a crawl, from its frontier in the database to its site findings. The first run
 * seeds the frontier from robots.txt and the sitemaps, or the list in list mode (`crawl-seeding.ts`); every part
 * then claims queued pages (on PostgreSQL a few at once: `part-claims.ts`) and crawls them one at a time
 * (`page-crawl.ts`: paced by the crawl's politeness gate,
 * analysed through the Analyzer, so through the address guard, and stored in one transaction while the part goes
 * on). A run cut off by a crash or shutdown leaves its pages `fetching`, and the next run puts them back: a page
 * whose analysis was already stored (its request id is the crawl and page) is not analysed again. When the
 * frontier is empty, one part judges the site and ends the crawl (`crawl-finish.ts`). A part takes turns with
 * other jobs: after a slice (`PAGEGRADE_CRAWL_SLICE_SECONDS` or `…_SLICE_PAGES`) it waits for its pages' commits
 * and throws `RunLater(0)`, so its job goes back to the queue with its attempts as they were and the fair queue
 * decides who runs next; the next run goes on from the frontier like any other.
 */
import { parseRobotsTxt, type RobotsTxt } from "../analysis/robots/robots-txt.js";
import { defaultCrawlSlice } from "../config.js";
import { type JobContext, RunLater } from "../jobs/job-queue.js";
import { timestamp } from "../timestamps.js";
import { type CrawlBounds, crawlBounds } from "./crawl-bounds.js";
import { failCrawlAfterLastRun, finishCrawl } from "./crawl-finish.js";
import { openCrawlHeaders } from "./crawl-headers.js";
import { idlePollMs, pageLeaseMs, pause, renewingWhile } from "./crawl-part-leases.js";
import { CrawlProgress } from "./crawl-progress.js";
import { CrawlRequests } from "./crawl-requests.js";
import { crawlDelayAfter, seededCrawl } from "./crawl-seeding.js";
import type { CrawlRow } from "./crawl-store.js";
import type { CrawlerDependencies } from "./crawler-dependencies.js";
import { PageCommits } from "./page-commits.js";
import { PageCrawler } from "./page-crawl.js";
import { PartClaims } from "./part-claims.js";

export { countIntervalAfter } from "./crawl-progress.js";
export type { CrawlerDependencies } from "./crawler-dependencies.js";

export const crawlJob = "crawl";

/** Runs of a crawl's job in all, the first included; after the last, the crawl is `failed`. */
export const crawlJobAttempts = 5;

export interface CrawlPayload {
  userId: number;
  crawlId: number;
  /** Which of the crawl's parts this job is; absent in jobs enqueued as one part. */
  part?: number;
}

export function crawlHandler(dependencies: CrawlerDependencies) {
  return async (job: JobContext<CrawlPayload>): Promise<void> => {
    const { crawls } = dependencies.stores;
    const crawl = await crawls.findByCreator(job.payload.userId, job.payload.crawlId);
    if (!crawl || ["complete", "cancelled", "failed"].includes(crawl.status)) return;
    const run = new CrawlRun(crawl, job.payload.part ?? 0, dependencies, job.signal);
    try {
      await run.execute();
    } catch (error) {
      if (error instanceof RunLater || job.signal.aborted || job.attempt < crawlJobAttempts) throw error;
      await failCrawlAfterLastRun(dependencies, crawl, crawlJobAttempts);
    }
  };
}

/**
 * Runs every part of a crawl in this process, each failure final (the command line, benchmarks, tests); a part
 * that asks to run later waits here, with no queue to wait in.
 */
export async function crawlHere(dependencies: CrawlerDependencies, crawl: CrawlRow): Promise<void> {
  const handler = crawlHandler(dependencies);
  const signal = new AbortController().signal;
  const runPart = async (part: number): Promise<void> => {
    for (;;) {
      try {
        return await handler({
          id: `local:${crawl.id}:${part}`,
          name: crawlJob,
          payload: { userId: crawl.user_id, crawlId: crawl.id, part },
          attempt: crawlJobAttempts,
          signal,
        });
      } catch (error) {
        if (!(error instanceof RunLater)) throw error;
        await pause(error.delayMs);
      }
    }
  };
  await Promise.all(Array.from({ length: crawl.parts }, (_, part) => runPart(part)));
}

/**
 * One part of a crawl: fetches one page at a time from the shared frontier until it is empty (and no other part
 * is still fetching a page that may add to it), the budget is spent, or the crawl is cancelled; then the part
 * that gets the finish lease judges the site.
 */
class CrawlRun {
  private robots: RobotsTxt = { groups: [], sitemaps: [] };
  private delayMs = 0;
  private cancelled = false;
  /** When this run (this turn of the part) ends: its slice counts from its start. */
  private readonly turnEndsAt: number;
  /** Pages per turn at most. */
  private readonly turnPages: number;
  private readonly commits = new PageCommits();
  private readonly progress: CrawlProgress;
  private readonly bounds: CrawlBounds;
  /** Every request this part makes to the site: one at a time, politely, with the crawl's headers where due. */
  private readonly requests: CrawlRequests;
  /** List mode: only the listed URLs are analysed (no links followed, no sitemaps, no redirect targets). */
  private readonly listed: boolean;

  constructor(
    private crawl: CrawlRow,
    private readonly part: number,
    private readonly dependencies: CrawlerDependencies,
    private readonly signal: AbortSignal,
  ) {
    const slice = dependencies.settings.slice ?? defaultCrawlSlice;
    this.turnEndsAt = Date.now() + slice.ms;
    this.turnPages = slice.pages;
    this.progress = new CrawlProgress(dependencies.stores.crawls, crawl.id, dependencies.onProgress);
    this.bounds = crawlBounds(crawl.max_pages, dependencies.settings.bounds);
    this.delayMs = dependencies.settings.delayMs;
    this.requests = new CrawlRequests(
      crawl,
      dependencies.stores.frontier,
      () => this.delayMs,
      openCrawlHeaders(crawl.headers, dependencies.secrets),
    );
    this.listed = crawl.urls !== null;
  }

  async execute(): Promise<void> {
    const { crawls, frontier } = this.dependencies.stores;
    const running = await crawls.markRunning(this.crawl.id, timestamp());
    if (!running) return; // cancelled before it started
    this.crawl = running;
    await frontier.requeueStale(this.crawl.id, this.part, timestamp());
    const seededBefore = this.crawl.seeded === 1;
    const seeded = await seededCrawl({
      crawl: this.crawl,
      dependencies: this.dependencies,
      requests: this.requests,
      bounds: this.bounds,
      listed: this.listed,
      signal: this.signal,
      turnEndsAt: this.turnEndsAt,
      obey: (robots) => this.obey(robots),
    });
    if (!seeded) return;
    this.crawl = seeded;
    this.robots = parseRobotsTxt(this.crawl.robots_txt ?? "");
    this.obey(this.robots);
    // Counted at once after the seeding; on later turns as the pages go (at the interval the counts earned).
    if (!seededBefore) await this.progress.count(true);
    let turnEnded = false;
    try {
      turnEnded = (await this.work()) === "turn-ended";
    } finally {
      await this.commits.settled();
    }
    this.commits.throwIfFailed();
    if (this.signal.aborted) return; // handed back: the next run goes on from the frontier
    // Every page of this turn is settled and committed: the job goes back to the queue, due now, and another
    // user's job may take the slot first.
    if (turnEnded) throw new RunLater(0);
    await finishCrawl(this.dependencies, this.crawl, this.cancelled ? "cancelled" : "complete", this.signal);
  }

  /** Paces this part's requests by the setting, or robots.txt's Crawl-delay when longer. */
  private obey(robots: RobotsTxt): void {
    this.delayMs = crawlDelayAfter(this.dependencies.settings.delayMs, robots);
  }

  /**
   * Claims and crawls pages until none is left to any part, the budget is spent or the crawl must stop (then
   * "done"), or until this part's turn is over ("turn-ended": `slice` spent, checked after each page or idle
   * wait, so a run always gets one go at the frontier). Pages claimed ahead and not crawled go back to the
   * queue when the run ends (unless it was aborted: the part's next run, or the lease's end, puts them back).
   */
  private async work(): Promise<"done" | "turn-ended"> {
    const pages = new PageCrawler({
      crawl: this.crawl,
      dependencies: this.dependencies,
      robots: this.robots,
      requests: this.requests,
      bounds: this.bounds,
      listed: this.listed,
      commits: this.commits,
    });
    const claims = new PartClaims(this.dependencies.stores.frontier, this.crawl, this.part, pages);
    try {
      return await this.crawlClaimed(claims, pages);
    } finally {
      if (!this.signal.aborted) await claims.handBackHeld();
    }
  }

  private async crawlClaimed(claims: PartClaims, pages: PageCrawler): Promise<"done" | "turn-ended"> {
    const { frontier } = this.dependencies.stores;
    let pagesThisTurn = 0;
    const turnOver = () => Date.now() >= this.turnEndsAt || pagesThisTurn >= this.turnPages;
    for (;;) {
      if (this.signal.aborted) return "done";
      this.commits.throwIfFailed();
      // A page with a depth goes before one known only from a sitemap (it gives the pages it links to a depth).
      // While waiting commits will add pages with a depth, only those are claimed; with none queued, the
      // waiting pages are committed first.
      const addingDepths = frontier.pagesAddingDepthsWait();
      const page = await claims.next(!addingDepths);
      if (page === undefined && addingDepths) {
        await frontier.commitWaitingPages();
        continue;
      }
      if (page === "stopped") return "done";
      if (page === "cancelled") {
        this.cancelled = true;
        return "done";
      }
      if (page === "spent") {
        // The URLs that analysed pages waiting for their commit add are left out too: committed first.
        if (await frontier.commitWaitingPages()) continue;
        await frontier.excludeQueued(this.crawl.id);
      }
      if (page === "spent" || page === undefined) {
        // Nothing to take: done unless another part still fetches a page (it may add URLs, or hand one back).
        await frontier.requeueStale(this.crawl.id, -1, timestamp());
        if ((await frontier.unfinishedCount(this.crawl.id)) === 0) return "done";
        await pause(idlePollMs);
        if (turnOver()) return "turn-ended";
        continue;
      }
      await renewingWhile(
        pageLeaseMs / 3,
        () => claims.renew(page),
        () => pages.crawlPage(page),
      );
      await this.progress.count();
      pagesThisTurn++;
      if (turnOver()) return "turn-ended";
    }
  }
}
