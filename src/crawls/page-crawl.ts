/**
 * One page of a crawl, claimed by a part: settled at once when it is out of bounds (too deep, disallowed by
 * robots.txt, outside the path patterns) or was already stored by a run cut off before; otherwise fetched when
 * the crawl's politeness lets it (a turn further than `waitInSlotMs` away hands the page back and throws
 * `RunLater`), analysed through the Analyzer, and stored in one transaction (see `FrontierStore.completePage`)
 * while the part goes on. A redirect's target is queued before the hop is settled; a page answering 429 or 503
 * goes back to the queue and the crawl's requests pause; a start page that cannot be analysed fails the crawl.
 */
import type { Analyzer } from "../analysis/analyse.js";
import { type AnalysisFailure, analysisFailureOf } from "../analysis/analysis-failure.js";
import { crawlUrl, inScope, type PathPatterns, pathPatterns, patternsAllow } from "../analysis/crawl-url.js";
import type { ExtractionRule } from "../analysis/extract/extraction-rules.js";
import { FetchFailure } from "../analysis/fetch/fetch-failure.js";
import { isAllowed, type RobotsTxt } from "../analysis/robots/robots-txt.js";
import { RunLater } from "../jobs/job-queue.js";
import { packResultsOffThread } from "../store/analysis-document.js";
import { timestamp } from "../timestamps.js";
import type { CrawlBounds } from "./crawl-bounds.js";
import { type CrawlRequests, waitInSlotMs } from "./crawl-requests.js";
import { robotsAgent } from "./crawl-seeding.js";
import type { CrawlPageRow, CrawlRow } from "./crawl-store.js";
import type { CrawlerDependencies } from "./crawler-dependencies.js";
import { failedChecksOf, type PageCheck } from "./page-checks.js";
import type { PageCommits } from "./page-commits.js";
import { type PageRecord, pageRecordOf } from "./page-record.js";
import { CrawlPageReports, type PageReport } from "./page-reports.js";

/** Tries of a page the site answers 429 or 503 before it fails. */
const maxTries = 3;

/** What a part crawling pages brings: its seeded crawl and what it shares between its pages. */
export interface PageCrawlPart {
  crawl: CrawlRow;
  dependencies: CrawlerDependencies;
  robots: RobotsTxt;
  requests: CrawlRequests;
  bounds: CrawlBounds;
  /** List mode: only the listed URLs are analysed (no links followed, no redirect targets). */
  listed: boolean;
  commits: PageCommits;
}

export class PageCrawler {
  private readonly patterns: PathPatterns;
  private readonly pageReports: CrawlPageReports;
  private readonly extract: ExtractionRule[];

  constructor(private readonly part: PageCrawlPart) {
    this.patterns = pathPatterns(JSON.parse(this.part.crawl.include), JSON.parse(this.part.crawl.exclude));
    this.pageReports = new CrawlPageReports(this.part.dependencies.reports, this.part.crawl);
    this.extract = JSON.parse(this.part.crawl.extract) as ExtractionRule[];
  }

  /** These pages were claimed to be crawled next: their reports are looked up together (see `CrawlPageReports`). */
  expect(pages: readonly CrawlPageRow[]): Promise<void> {
    return this.pageReports.expect(pages);
  }

  /** Crawls one claimed page; returns once it is settled or on its way to its commit. */
  async crawlPage(page: CrawlPageRow): Promise<void> {
    const { frontier } = this.part.dependencies.stores;
    const url = new URL(page.url);
    // A listed URL was asked for by name: the path patterns do not apply to it, as to a start page.
    const isStart = page.url === this.part.crawl.url || this.part.listed;
    if (page.depth !== null && page.depth > this.part.crawl.max_depth) {
      return frontier.settlePage(page.id, { state: "excluded", excluded: "limit" }, this.part.crawl.id);
    }
    if (!isAllowed(this.part.robots, robotsAgent, url)) {
      await this.failStartWith(page, {
        reason: "robots",
        message: `The start page ${page.url} is disallowed for pagegrade by the site's robots.txt: there is nothing to crawl.`,
      });
      return frontier.settlePage(
        page.id,
        { state: "excluded", excluded: "robots", disallowed: 1 },
        this.part.crawl.id,
      );
    }
    if (!isStart && !patternsAllow(page.url, this.patterns)) {
      return frontier.settlePage(page.id, { state: "excluded", excluded: "pattern" }, this.part.crawl.id);
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
      analysed = await this.part.dependencies.analyzer.analyse(page.url, {
        mode: this.part.crawl.mode,
        followRedirects: false,
        owner: `user ${this.part.crawl.user_id}`,
        crawlProject: this.part.crawl.project,
        site: this.part.requests,
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
      pageRecordOf(page, this.part.crawl, { response, crawled, report }),
      this.pageReports.reportOf(page.id, earlier.reportId, analysed),
      failedChecksOf(report.results),
    );
  }

  /**
   * Stores an analysed page in one transaction (see `FrontierStore.completePage`), its results packed for history
   * on the thread pool first. Returns once the page is on its way to its commit (see `PageCommits`).
   */
  private async storePage(
    page: CrawlPageRow,
    record: PageRecord,
    report: PageReport,
    checks: PageCheck[],
  ): Promise<void> {
    const packedResults = await packResultsOffThread(report.columns.results);
    this.part.commits.add(
      this.part.dependencies.stores.frontier.completePage(
        this.part.crawl.id,
        page,
        record.facts,
        {
          links: record.links,
          linksLeftOut: record.linksLeftOut,
          discovered: record.discovered,
          bounds: this.part.bounds,
          checks,
        },
        (trx) => this.pageReports.storeWithin(trx, report, packedResults),
        this.pageReports.newReportStatement(report, packedResults),
      ),
    );
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
    await this.part.dependencies.stores.frontier.settlePage(page.id, { state: "failed", ...changes });
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
    if (page.depth !== 0 || this.part.listed) return;
    await this.part.dependencies.stores.crawls.failStart(this.part.crawl.id, error, timestamp());
  }

  /** This URL redirects: the crawl records the hop and queues where it goes (which is a page of its own). */
  private async redirected(page: CrawlPageRow, status: number, location: string): Promise<void> {
    const { frontier } = this.part.dependencies.stores;
    const target = crawlUrl(location, page.url);
    // The target is queued before the hop is settled: in between, another part must see either this page still
    // fetching or its target queued, or it may find nothing left and end the crawl without the target.
    if (target && inScope(target, this.part.crawl.project) && !this.part.listed) {
      await frontier.discover(this.part.crawl.id, [{ url: target, depth: page.depth }], this.part.bounds);
    } else if (!this.part.listed) {
      await this.failStartWith(page, {
        reason: "off-site",
        message: target
          ? `The start page ${page.url} redirects to ${target}, off the project ${this.part.crawl.project}: there is nothing to crawl.`
          : `The start page ${page.url} redirects to an invalid address: there is nothing to crawl.`,
      });
    }
    await frontier.settlePage(page.id, { state: "done", status_code: status, redirect_to: target });
  }

  private async failed(page: CrawlPageRow, error: unknown, reportId: number | undefined): Promise<void> {
    const { frontier } = this.part.dependencies.stores;
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
        await frontier.pauseRequests(this.part.crawl.id, untilMs);
        this.part.requests.paused(untilMs);
        return frontier.settlePage(page.id, { state: "queued" }, this.part.crawl.id);
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
    const { frontier } = this.part.dependencies.stores;
    // A read of the next start (with no delay, a pause's end): nothing is taken here.
    const wait = (await this.part.requests.nextStartMs()) - Date.now();
    if (wait > waitInSlotMs) {
      await frontier.handBack(page.id, this.part.crawl.id);
      throw new RunLater(wait);
    }
  }
}
