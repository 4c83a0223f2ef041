/**
 * The `crawl` job: one part of a crawl, from its frontier in the database to its site findings. The first run
 * reads robots.txt and the sitemaps (or takes the list, in list mode) and seeds the frontier; every part then
 * claims queued pages one at a time, paced by the crawl's politeness gate (`crawl-requests.ts`: request starts
 * `PAGEGRADE_CRAWL_DELAY_MS` or the Crawl-delay apart, a page whose turn is further than `waitInSlotMs` away goes
 * back to the queue as a delayed job), analyses each through the Analyzer (so through the address guard), and
 * stores the page's report, facts, links and failed checks in one transaction. A redirect's target is queued
 * before the hop is settled. A page answering 429 or 503 goes back to the queue and the crawl slows down. A run
 * cut off by a crash or shutdown leaves its pages `fetching`, and the next run puts them back: a page whose
 * analysis was already stored (its request id is the crawl and page) is not analysed again. When the frontier
 * is empty, one part judges the site (`site-judgement.ts`) and the crawl completes; a complete crawl's changes
 * against the previous one are then summarised for the project dashboard (`crawl-change-summary.ts`). A part
 * takes turns with other jobs: after a slice (`PAGEGRADE_CRAWL_SLICE_SECONDS` or `…_SLICE_PAGES`) it waits for
 * its pages' commits and throws `RunLater(0)`, so its job goes back to the queue with its attempts as they were
 * and the fair queue decides who runs next; the next run goes on from the frontier like any other.
 */
import type { Analyzer } from "../analysis/analyse.js";
import { type AnalysisFailure, analysisFailureOf } from "../analysis/analysis-failure.js";
import { crawlUrl, inScope, type PathPatterns, pathPatterns, patternsAllow } from "../analysis/crawl-url.js";
import type { ExtractionRule } from "../analysis/extract/extraction-rules.js";
import { FetchFailure } from "../analysis/fetch/fetch-failure.js";
import { crawlDelayFor, isAllowed, parseRobotsTxt, type RobotsTxt } from "../analysis/robots/robots-txt.js";
import { resultOf } from "../analysis/score.js";
import { type CrawlSettings, defaultCrawlSlice, type ScheduleIntervals } from "../config.js";
import type { EventSink } from "../events/event-sink.js";
import { type JobContext, RunLater } from "../jobs/job-queue.js";
import { nextRunAt } from "../reports/schedules.js";
import { packResultsOffThread } from "../store/analysis-document.js";
import { workspaceOf } from "../store/owned-rows.js";
import type { ReportStore } from "../store/report-store.js";
import type { SecretBox } from "../store/secret-box.js";
import { timestamp } from "../timestamps.js";
import { type CrawlBounds, crawlBounds } from "./crawl-bounds.js";
import type { CrawlChangeSummaries } from "./crawl-change-summary.js";
import { openCrawlHeaders } from "./crawl-headers.js";
import { CrawlRequests, waitInSlotMs } from "./crawl-requests.js";
import type { CrawlPageRow, CrawlRow } from "./crawl-store.js";
import type { CrawlStores } from "./crawl-stores.js";
import type { FrontierEntry } from "./frontier-store.js";
import { failedChecksOf, type PageCheck } from "./page-checks.js";
import { type PageRecord, pageRecordOf } from "./page-record.js";
import { CrawlPageReports, type PageReport } from "./page-reports.js";
import { judgeCrawl } from "./site-judgement.js";
import { type Outbound, SiteReader } from "./site-reader.js";

export const crawlJob = "crawl";

/** Runs of a crawl's job in all, the first included; after the last, the crawl is `failed`. */
export const crawlJobAttempts = 5;

export interface CrawlPayload {
  userId: number;
  crawlId: number;
  /** Which of the crawl's parts this job is; absent in jobs enqueued as one part. */
  part?: number;
}

export interface CrawlerDependencies {
  stores: CrawlStores;
  reports: ReportStore;
  analyzer: Analyzer;
  events: EventSink;
  settings: CrawlSettings;
  /** When a scheduled crawl runs again, counted from its end. */
  scheduleIntervals: ScheduleIntervals;
  outbound: Outbound;
  /** Opens the crawl's sealed request headers; needed only by crawls that have some. */
  secrets?: SecretBox;
  /** Records what changed in a crawl that completes against the one before it (the project dashboard's). */
  changes?: CrawlChangeSummaries;
  /** Progress listeners in this process (the event stream); told after each page. */
  onProgress?: (crawlId: number) => void;
}

const robotsAgent = "pagegrade";
const maxTries = 3;

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
/**
 * How long a part's claim on a page holds without renewal; the part renews it every third of that while it
 * works on the page, so the pages of a part that died go back to the queue within this time.
 */
const pageLeaseMs = 30_000;
/** How long the part reading robots.txt and the sitemaps holds that right (their reads have deadlines). */
const seedLeaseMs = 5 * 60_000;
/** How long the part judging the finished crawl holds that right before another may take it. */
const finishLeaseMs = 60_000;
/** How often an idle part looks again while others still fetch pages that may add more. */
const idlePollMs = 200;

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
      // The last run failed too: the crawl ends `failed`, keeping the pages it analysed.
      const now = timestamp();
      const failed = await crawls.endRunning(crawl.id, {
        status: "failed",
        error: JSON.stringify({
          reason: "internal-error",
          message: `The crawl stopped on an unexpected error in each of its ${crawlJobAttempts} runs.`,
        }),
        finished_at: now,
        updated_at: now,
        next_run_at: nextRunAt(crawl.schedule, dependencies.scheduleIntervals, new Date()),
      });
      dependencies.onProgress?.(crawl.id);
      if (failed) {
        await dependencies.events.crawlFinished({
          userId: crawl.user_id,
          crawlId: crawl.id,
          status: "failed",
        });
      }
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
        await new Promise((resolve) => setTimeout(resolve, error.delayMs));
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
  private countedAt = 0;
  /** When this run (this turn of the part) began: its slice counts from here. */
  private readonly startedAt = Date.now();
  /** The least time until this part counts again: `countEveryMs`, or longer once counts have become slow. */
  private countIntervalMs = countEveryMs;
  /**
   * Commits of this part's analysed pages still on their way (see `storePage`): the part goes on to its next
   * pages meanwhile, and waits for them all before it stops.
   */
  private readonly storing = new Set<Promise<void>>();
  /** The first of those commits that failed: the part stops with its error at its next page, as if it had waited. */
  private storeFailure: { error: unknown } | undefined;
  private readonly patterns: PathPatterns;
  private readonly bounds: CrawlBounds;
  private readonly pageReports: CrawlPageReports;
  /** Every request this part makes to the site: one at a time, politely, with the crawl's headers where due. */
  private readonly requests: CrawlRequests;
  /** List mode: only the listed URLs are analysed (no links followed, no sitemaps, no redirect targets). */
  private readonly listed: boolean;
  private readonly extract: ExtractionRule[];

  constructor(
    private crawl: CrawlRow,
    private readonly part: number,
    private readonly dependencies: CrawlerDependencies,
    private readonly signal: AbortSignal,
  ) {
    this.patterns = pathPatterns(JSON.parse(crawl.include), JSON.parse(crawl.exclude));
    this.bounds = crawlBounds(crawl.max_pages, dependencies.settings.bounds);
    this.pageReports = new CrawlPageReports(dependencies.reports, crawl);
    this.delayMs = dependencies.settings.delayMs;
    this.requests = new CrawlRequests(
      crawl,
      dependencies.stores.frontier,
      () => this.delayMs,
      openCrawlHeaders(crawl.headers, dependencies.secrets),
    );
    this.listed = crawl.urls !== null;
    this.extract = JSON.parse(crawl.extract) as ExtractionRule[];
  }

  async execute(): Promise<void> {
    const { crawls, frontier } = this.dependencies.stores;
    const running = await crawls.markRunning(this.crawl.id, timestamp());
    if (!running) return; // cancelled before it started
    this.crawl = running;
    await frontier.requeueStale(this.crawl.id, this.part, timestamp());
    if (!(await this.seeded())) return;
    this.robots = parseRobotsTxt(this.crawl.robots_txt ?? "");
    this.delayMs = this.delayAfter(this.robots);
    await this.progress(true);
    let turnEnded = false;
    try {
      turnEnded = (await this.work()) === "turn-ended";
    } finally {
      await Promise.all(this.storing);
    }
    if (this.storeFailure) throw this.storeFailure.error;
    if (this.signal.aborted) return; // handed back: the next run goes on from the frontier
    // Every page of this turn is settled and committed: the job goes back to the queue, due now, and another
    // user's job may take the slot first.
    if (turnEnded) throw new RunLater(0);
    await this.finish(this.cancelled ? "cancelled" : "complete");
  }

  /** The least time between request starts: the setting, or robots.txt's Crawl-delay when longer. */
  private delayAfter(robots: RobotsTxt): number {
    return Math.max(this.dependencies.settings.delayMs, crawlDelayFor(robots, robotsAgent) * 1000);
  }

  /**
   * robots.txt, the start URL and the sitemaps' URLs (or, in list mode, the list), once per crawl; the sitemaps are read at robots.txt's
   * Crawl-delay already.
   */
  private async seed(): Promise<void> {
    const { crawls, frontier } = this.dependencies.stores;
    const { settings } = this.dependencies;
    const reader = new SiteReader(this.dependencies.outbound, this.requests);
    try {
      const origin = new URL(this.crawl.url).origin;
      const robotsTxt = await reader.robotsTxt(origin);
      this.delayMs = this.delayAfter(parseRobotsTxt(robotsTxt ?? ""));
      if (this.listed) {
        // List mode: the listed URLs, each a start of its own (depth 0), and nothing else.
        const listed = (JSON.parse(this.crawl.urls as string) as string[]).map((url) => ({ url, depth: 0 }));
        await frontier.discover(this.crawl.id, listed, this.bounds);
      }
      const entries: FrontierEntry[] = this.listed ? [] : [{ url: this.crawl.url, depth: 0 }];
      if (this.crawl.sitemaps === 1 && !this.listed) {
        const declared = parseRobotsTxt(robotsTxt ?? "").sitemaps;
        const locations = declared.length > 0 ? declared : [new URL("/sitemap.xml", origin).href];
        const listed = await reader.sitemapUrls(locations, Math.min(50_000, settings.maxPages * 5));
        for (const href of listed) {
          const url = crawlUrl(href);
          if (url && inScope(url, this.crawl.project)) entries.push({ url, depth: null, inSitemap: true });
        }
      }
      // The sitemaps may fill at most half the URLs the crawl lists: the rest is left for the links it follows.
      await frontier.discover(this.crawl.id, entries, this.bounds, Math.ceil(this.bounds.urls / 2));
      this.crawl =
        (await crawls.update(this.crawl.id, { robots_txt: robotsTxt, seeded: 1, updated_at: timestamp() })) ??
        this.crawl;
    } finally {
      await reader.close();
    }
  }

  /**
   * Seeds the frontier unless it is; one part does while the others wait (a part that stopped seeding is
   * replaced once its lease runs out). False when the crawl ended or this part must stop first.
   */
  private async seeded(): Promise<boolean> {
    const { crawls } = this.dependencies.stores;
    for (;;) {
      if (this.crawl.seeded === 1) return true;
      const now = Date.now();
      if (
        await crawls.takeLease(
          this.crawl.id,
          "seed_lease_until",
          timestamp(new Date(now)),
          timestamp(new Date(now + seedLeaseMs)),
        )
      ) {
        await this.seed();
        return true;
      }
      await new Promise((resolve) => setTimeout(resolve, idlePollMs));
      const current = await crawls.find(workspaceOf(this.crawl), this.crawl.id);
      if (current?.status !== "running" || this.signal.aborted) return false;
      this.crawl = current;
      // Waiting for another part's sitemaps is no reason to hold a slot past a turn: back to the queue.
      const slice = this.dependencies.settings.slice ?? defaultCrawlSlice;
      if (Date.now() >= this.startedAt + slice.ms) throw new RunLater(0);
    }
  }

  /**
   * Claims and crawls pages until none is left to any part, the budget is spent or the crawl must stop (then
   * "done"), or until this part's turn is over ("turn-ended": `slice` spent, checked after each page or idle
   * wait, so a run always gets one go at the frontier).
   */
  private async work(): Promise<"done" | "turn-ended"> {
    const { frontier } = this.dependencies.stores;
    const slice = this.dependencies.settings.slice ?? defaultCrawlSlice;
    const turnEndsAt = this.startedAt + slice.ms;
    let pagesThisTurn = 0;
    const turnOver = () => Date.now() >= turnEndsAt || pagesThisTurn >= slice.pages;
    for (;;) {
      if (this.signal.aborted) return "done";
      if (this.storeFailure) throw this.storeFailure.error;
      const leaseUntil = timestamp(new Date(Date.now() + pageLeaseMs));
      // A page with a depth goes before one known only from a sitemap (it gives the pages it links to a depth).
      // While waiting commits will add pages with a depth, only those are claimed; with none queued, the
      // waiting pages are committed first.
      const addingDepths = frontier.pagesAddingDepthsWait();
      const page = await frontier.claim(this.crawl.id, this.part, leaseUntil, !addingDepths);
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
        await new Promise((resolve) => setTimeout(resolve, idlePollMs));
        if (turnOver()) return "turn-ended";
        continue;
      }
      const renewal = setInterval(() => {
        const until = timestamp(new Date(Date.now() + pageLeaseMs));
        frontier.renewClaim(page.id, this.part, until).catch(() => {}); // a missed renewal: the next one counts
      }, pageLeaseMs / 3);
      try {
        await this.crawlPage(page);
      } finally {
        clearInterval(renewal);
      }
      await this.progress();
      pagesThisTurn++;
      if (turnOver()) return "turn-ended";
    }
  }

  /**
   * Counts the crawl's pages again, at most a few times a second for the whole crawl and less often once counts
   * grow slow (the count reads every page's row): this part asks at most that often, and only one of the parts
   * asking gets the turn.
   */
  private async progress(now = false): Promise<void> {
    const { crawls } = this.dependencies.stores;
    if (!now && Date.now() - this.countedAt < this.countIntervalMs) return;
    this.countedAt = Date.now();
    const started = performance.now();
    if (now) await crawls.refreshCounters(this.crawl.id, timestamp());
    else {
      const turn = await crawls.refreshCountersUnlessRecent(this.crawl.id, this.countIntervalMs, new Date());
      if (!turn) return;
    }
    this.countIntervalMs = countIntervalAfter(performance.now() - started);
    this.dependencies.onProgress?.(this.crawl.id);
  }

  private async crawlPage(page: CrawlPageRow): Promise<void> {
    const { frontier } = this.dependencies.stores;
    const url = new URL(page.url);
    // A listed URL was asked for by name: the path patterns do not apply to it, as to a start page.
    const isStart = page.url === this.crawl.url || this.listed;
    if (page.depth !== null && page.depth > this.crawl.max_depth) {
      return frontier.settlePage(page.id, { state: "excluded", excluded: "limit" }, this.crawl.id);
    }
    if (!isAllowed(this.robots, robotsAgent, url)) {
      await this.failStartWith(page, {
        reason: "robots",
        message: `The start page ${page.url} is disallowed for pagegrade by the site's robots.txt: there is nothing to crawl.`,
      });
      return frontier.settlePage(
        page.id,
        { state: "excluded", excluded: "robots", disallowed: 1 },
        this.crawl.id,
      );
    }
    if (!isStart && !patternsAllow(page.url, this.patterns)) {
      return frontier.settlePage(page.id, { state: "excluded", excluded: "pattern" }, this.crawl.id);
    }
    const earlier = await this.pageReports.earlierOutcome(page);
    if (earlier.stored === "failure") {
      // Failed before this run was cut off, and recorded in the report's history: recorded once.
      return frontier.settlePage(page.id, { state: "failed", error: earlier.reason });
    }
    if (earlier.stored === "analysis") {
      // Analysed before this run was cut off (its facts were stored first): not analysed twice.
      return frontier.settlePage(page.id, {
        state: "done",
        report_id: earlier.reportId,
        score: earlier.score,
        result: earlier.result,
      });
    }
    await this.politely(page);
    let analysed: Awaited<ReturnType<Analyzer["analyse"]>>;
    try {
      // Raw mode stops at a redirect so that each hop is a page of its own (rendered mode: the browser follows).
      analysed = await this.dependencies.analyzer.analyse(page.url, {
        mode: this.crawl.mode,
        followRedirects: false,
        owner: `user ${this.crawl.user_id}`,
        crawlProject: this.crawl.project,
        site: this.requests,
        extract: this.extract,
      });
    } catch (error) {
      return this.failed(page, error, earlier.reportId);
    }
    const { response, crawled, report } = analysed;
    const redirect = response.redirects[0];
    if (redirect) return this.redirected(page, redirect.status, redirect.location);
    // Asked for with `crawlProject`, so always there.
    if (!crawled) throw new Error("The analysis returned no crawl facts.");
    // Only what is stored is carried on past this point, not the analysis (the page's whole parse and report):
    // what outlives the thread-pool round trip below survives young-generation collections and fills the heap.
    return this.storePage(
      page,
      pageRecordOf(page, this.crawl, { response, crawled, report }),
      this.pageReports.reportOf(page.id, earlier.reportId, analysed),
      failedChecksOf(report.results),
    );
  }

  /**
   * Stores an analysed page in one transaction (see `FrontierStore.completePage`), its results packed for history
   * on the thread pool first. Returns once the page is on its way to its commit (see `storing`).
   */
  private async storePage(
    page: CrawlPageRow,
    record: PageRecord,
    report: PageReport,
    checks: PageCheck[],
  ): Promise<void> {
    const packedResults = await packResultsOffThread(report.columns.results);
    const committed: Promise<void> = this.dependencies.stores.frontier
      .completePage(
        this.crawl.id,
        page,
        record.facts,
        {
          links: record.links,
          linksLeftOut: record.linksLeftOut,
          discovered: record.discovered,
          bounds: this.bounds,
          checks,
        },
        (trx) => this.pageReports.storeWithin(trx, report, packedResults),
        this.pageReports.newReportStatement(report, packedResults),
      )
      .catch((error: unknown) => {
        this.storeFailure ??= { error };
      })
      .finally(() => this.storing.delete(committed));
    this.storing.add(committed);
  }

  /**
   * The page failed for good. A page with a report gets the failure in its history first (see
   * `CrawlPageReports.recordFailure`).
   */
  private async settleFailed(
    page: CrawlPageRow,
    changes: { status_code?: number | null; error: string | null },
    failure: AnalysisFailure,
    reportId: number | undefined,
  ): Promise<void> {
    // Before the page is settled: a run cut off in between fetches the page again and fails it again.
    await this.failIfStart(page, failure);
    if (reportId !== undefined) await this.pageReports.recordFailure(page, reportId, failure);
    await this.dependencies.stores.frontier.settlePage(page.id, { state: "failed", ...changes });
  }

  /**
   * A crawl without its start page has nothing to go on: when the start page (depth 0; its redirects' hops have
   * its depth) fails, the crawl stops and ends `failed` with the page's reason.
   */
  private async failIfStart(page: CrawlPageRow, failure: AnalysisFailure): Promise<void> {
    await this.failStartWith(page, {
      reason: failure.reason,
      message: `The start page ${page.url} failed: ${failure.message}`,
    });
  }

  /**
   * The start page (depth 0, or a hop of its redirects) cannot be analysed: refused by robots.txt (`robots`),
   * redirected off the project (`off-site`), or failed: the crawl stops and ends `failed` with this reason.
   */
  private async failStartWith(page: CrawlPageRow, error: { reason: string; message: string }): Promise<void> {
    // In list mode every URL is a start of its own: one that fails is a failed page, not a failed crawl.
    if (page.depth !== 0 || this.listed) return;
    await this.dependencies.stores.crawls.failStart(this.crawl.id, error, timestamp());
  }

  /** This URL redirects: the crawl records the hop and queues where it goes (which is a page of its own). */
  private async redirected(page: CrawlPageRow, status: number, location: string): Promise<void> {
    const { frontier } = this.dependencies.stores;
    const target = crawlUrl(location, page.url);
    // The target is queued before the hop is settled: in between, another part must see either this page still
    // fetching or its target queued, or it may find nothing left and end the crawl without the target.
    if (target && inScope(target, this.crawl.project) && !this.listed) {
      await frontier.discover(this.crawl.id, [{ url: target, depth: page.depth }], this.bounds);
    } else if (!this.listed) {
      await this.failStartWith(page, {
        reason: "off-site",
        message: target
          ? `The start page ${page.url} redirects to ${target}, off the project ${this.crawl.project}: there is nothing to crawl.`
          : `The start page ${page.url} redirects to an invalid address: there is nothing to crawl.`,
      });
    }
    await frontier.settlePage(page.id, { state: "done", status_code: status, redirect_to: target });
  }

  private async failed(page: CrawlPageRow, error: unknown, reportId: number | undefined): Promise<void> {
    const { frontier } = this.dependencies.stores;
    const failure = analysisFailureOf(error);
    if (!failure) throw error;
    if (error instanceof FetchFailure) {
      if (error.reason === "redirect")
        return this.redirected(page, Number(error.facts.status), String(error.facts.location));
      const status = typeof error.facts.status === "number" ? error.facts.status : null;
      if (error.reason === "not-html") {
        await this.failIfStart(page, failure);
        return frontier.settlePage(page.id, {
          state: "excluded",
          excluded: "not-html",
          status_code: 200,
          content_type: typeof error.facts.media_type === "string" ? error.facts.media_type || null : null,
        });
      }
      if ((status === 429 || status === 503) && page.attempts < maxTries) {
        // The site asks for less: this page waits and every later request starts later, for as long as its
        // Retry-After says (at most a minute), else 1 s, 2 s, … per try.
        const asked = typeof error.facts.retry_after === "number" ? error.facts.retry_after * 1000 : null;
        const untilMs = Date.now() + Math.min(60_000, asked ?? 1_000 * 2 ** (page.attempts - 1));
        await frontier.pauseRequests(this.crawl.id, untilMs);
        this.requests.paused(untilMs);
        return frontier.settlePage(page.id, { state: "queued" }, this.crawl.id);
      }
      const changes = { status_code: status, error: status === null ? failure.reason : null };
      return this.settleFailed(page, changes, failure, reportId);
    }
    return this.settleFailed(page, { error: failure.reason }, failure, reportId);
  }

  /**
   * Goes on with the page when this crawl's next request to the site (shared by every part) may start soon: the
   * analysis's requests then take their starts (see crawl-requests.ts), waiting in the slot. Otherwise gives the
   * page back and throws `RunLater`, so the part's job waits in the queue instead.
   */
  private async politely(page: CrawlPageRow): Promise<void> {
    const { frontier } = this.dependencies.stores;
    // A read of the next start (with no delay, a pause's end): nothing is taken here.
    const wait = (await this.requests.nextStartMs()) - Date.now();
    if (wait > waitInSlotMs) {
      await frontier.handBack(page.id, this.crawl.id);
      throw new RunLater(wait);
    }
  }

  /**
   * Judges the site and ends the crawl, in the one part that takes the finish lease; the others leave it to
   * that part (or take over once its lease has run out, should it stop).
   */
  private async finish(status: "complete" | "cancelled"): Promise<void> {
    const { crawls } = this.dependencies.stores;
    let heldUntil: string;
    for (;;) {
      if (this.signal.aborted) return;
      const now = Date.now();
      heldUntil = timestamp(new Date(now + finishLeaseMs));
      if (await crawls.takeLease(this.crawl.id, "finish_lease_until", timestamp(new Date(now)), heldUntil))
        break;
      const current = await crawls.find(workspaceOf(this.crawl), this.crawl.id);
      if (current?.status !== "running") return;
      await new Promise((resolve) => setTimeout(resolve, idlePollMs));
    }
    // The lease is renewed while the part judges and ends the crawl, which may take longer than the lease on a
    // large crawl: otherwise every other part would take it in turn and judge the crawl again beside it.
    const renewal = setInterval(() => {
      const until = timestamp(new Date(Date.now() + finishLeaseMs));
      crawls
        .renewLease(this.crawl.id, "finish_lease_until", heldUntil, until)
        .then((renewed) => {
          if (renewed) heldUntil = until;
        })
        .catch(() => {}); // a missed renewal: the next one counts
    }, finishLeaseMs / 4);
    try {
      await this.judgeAndEnd(status);
    } finally {
      clearInterval(renewal);
    }
  }

  /** The finish proper, under the finish lease: the site judged, the crawl ended, its changes summarised. */
  private async judgeAndEnd(status: "complete" | "cancelled"): Promise<void> {
    const { crawls, site } = this.dependencies.stores;
    const { events } = this.dependencies;
    // A start page that failed asked the crawl to stop with its error: the crawl fails.
    const failed = (await crawls.find(workspaceOf(this.crawl), this.crawl.id))?.error != null;
    const ending = failed ? "failed" : status;
    await judgeCrawl(site, this.crawl);
    const score = await site.meanScore(this.crawl.id);
    const now = timestamp();
    await crawls.refreshCounters(this.crawl.id, now);
    const ended = await crawls.endRunning(this.crawl.id, {
      status: ending,
      score,
      result: score === null ? null : resultOf(score, this.dependencies.analyzer.scoring),
      finished_at: now,
      updated_at: now,
      next_run_at: nextRunAt(this.crawl.schedule, this.dependencies.scheduleIntervals, new Date()),
    });
    this.dependencies.onProgress?.(this.crawl.id);
    if (ended && ending !== "cancelled") {
      await events.crawlFinished({ userId: this.crawl.user_id, crawlId: this.crawl.id, status: ending });
    }
    // Compared once complete, written in one statement: a run cut off before leaves no summary, and the
    // dashboard then compares the crawls itself.
    if (ended && ending === "complete") await this.dependencies.changes?.record(ended);
  }
}
