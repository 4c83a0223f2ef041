/**
 * A crawled page's place in its owner's reports. Each page's analysis is recorded under the request id
 * `crawl:<crawl>:<page>`: in a new report of the project, or as a new analysis (trigger `crawl`) of the user's
 * report of that URL, stored inside the page's transaction; a page that fails adds a failed analysis to the history
 * of its report, if it has one. A part that resumes after a crash finds what an earlier run stored under the id
 * and records nothing twice.
 */
import type { Kysely } from "kysely";
import type { AnalysisReport } from "../analysis/analyse.js";
import type { AnalysisFailure } from "../analysis/analysis-failure.js";
import type { Screenshot } from "../analysis/render/rendered-page.js";
import { analysisColumns, storedScreenshot } from "../reports/analysis-columns.js";
import { privacyLevels } from "../reports/privacy-change.js";
import { withNewReport } from "../store/new-report-statement.js";
import { workspaceOf } from "../store/owned-rows.js";
import type { NewReport, ReportStore } from "../store/report-store.js";
import type { Database } from "../store/schema.js";
import { timestamp } from "../timestamps.js";
import type { CrawlRow } from "./crawl-store.js";
import type { NewReportStatement } from "./frontier-store.js";

/** What an earlier run left of a page: its analysis stored, its failure recorded, or nothing. */
export type EarlierOutcome =
  | { stored: "analysis"; reportId: number; score: number | null; result: string | null }
  | { stored: "failure"; reason: string | null }
  | { stored: "nothing"; reportId: number | undefined };

/** A page's analysis on its way to its report (see `storeWithin`). */
export interface PageReport {
  /** The user's report of the page's URL, when there is one: the analysis is added to its history. */
  existingId: number | undefined;
  columns: ReturnType<typeof analysisColumns>;
  requestId: string;
  screenshot: ReturnType<typeof storedScreenshot>;
}

/** The request id a crawl's analysis of one of its pages is recorded under (unique among analyses). */
export function crawlPageRequestId(crawlId: number, pageId: number): string {
  return `crawl:${crawlId}:${pageId}`;
}

export class CrawlPageReports {
  /** The reports of claimed pages' URLs, looked up together (`expect`) and each taken once (`earlierOutcome`). */
  private readonly expected = new Map<string, Awaited<ReturnType<ReportStore["reportOfUrl"]>>>();

  constructor(
    private readonly reports: ReportStore,
    private readonly crawl: Pick<CrawlRow, "id" | "user_id" | "team_id" | "mode" | "privacy">,
  ) {}

  /** The id the page's analysis, stored or failed, is recorded under. */
  requestIdOf(pageId: number): string {
    return crawlPageRequestId(this.crawl.id, pageId);
  }

  /**
   * Looks up the reports of these claimed pages' URLs in one read, for their `earlierOutcome`. A report of a
   * URL made in the moments between this read and the page's store is not seen, as one made during the page's
   * analysis is not: the page then adds a report of its own.
   */
  async expect(pages: readonly { url: string }[]): Promise<void> {
    const found = await this.reports.reportsOfUrls(
      workspaceOf(this.crawl),
      pages.map((page) => page.url),
    );
    for (const page of pages) this.expected.set(page.url, found.get(page.url));
  }

  /** What a run cut off before this one recorded of the page, and the report its analysis goes to. */
  async earlierOutcome(page: { id: number; url: string }): Promise<EarlierOutcome> {
    const userId = this.crawl.user_id;
    // The crawl's workspace's report of the URL: a team's crawl analyses the team's reports.
    const existing = this.expected.has(page.url)
      ? this.expected.get(page.url)
      : await this.reports.reportOfUrl(workspaceOf(this.crawl), page.url);
    this.expected.delete(page.url);
    if (!existing) return { stored: "nothing", reportId: undefined };
    const before = await this.reports.analysisOfRequest(userId, existing.id, this.requestIdOf(page.id));
    if (!before) return { stored: "nothing", reportId: existing.id };
    if (before.status === "failed") return { stored: "failure", reason: before.error_reason };
    return { stored: "analysis", reportId: existing.id, score: existing.score, result: existing.result };
  }

  /** What the page's report gets: its analysis columns, and how the analysis came to be. */
  reportOf(
    pageId: number,
    existingId: number | undefined,
    analysed: { report: AnalysisReport; screenshot: Screenshot | null },
  ): PageReport {
    return {
      existingId,
      columns: analysisColumns(analysed.report),
      requestId: this.requestIdOf(pageId),
      screenshot: storedScreenshot(analysed.screenshot),
    };
  }

  /**
   * Inside the page's transaction, its report: a new one in the project, or a new analysis (trigger `crawl`) of
   * the existing one.
   */
  async storeWithin(
    trx: Kysely<Database>,
    report: PageReport,
    packedResults: Buffer,
  ): Promise<{ id: number }> {
    const { user_id: userId, mode } = this.crawl;
    const { existingId, columns, requestId, screenshot } = report;
    if (existingId !== undefined) {
      const origin = { trigger: "crawl" as const, mode, requestId, screenshot };
      const changes = { updated_at: timestamp() };
      if (
        await this.reports.reanalysedWithin(trx, userId, existingId, columns, origin, changes, packedResults)
      ) {
        return { id: existingId };
      }
    }
    const id = await this.reports.insertWithin(trx, this.newReport(report), "crawl", packedResults);
    return { id };
  }

  /**
   * The page's new report as part of the page's one statement on PostgreSQL (see `FrontierStore.completePage`);
   * undefined when the analysis goes to the user's existing report of the URL (`storeWithin` adds it there).
   */
  newReportStatement(report: PageReport, packedResults: Buffer): NewReportStatement | undefined {
    if (report.existingId !== undefined) return undefined;
    const newReport = this.newReport(report);
    return (statement, owner) => withNewReport(statement, newReport, "crawl", packedResults, owner);
  }

  /** The page's report when it is a new one of the project (see `storeWithin`). */
  private newReport(report: PageReport): NewReport {
    const { user_id: userId, team_id: teamId, mode, privacy } = this.crawl;
    const { columns, requestId, screenshot } = report;
    const now = timestamp();
    return {
      ...columns,
      user_id: userId,
      team_id: teamId,
      // A password guards the crawl's audit only: the pages' reports of a password crawl are private.
      privacy: privacy === privacyLevels.password ? privacyLevels.private : privacy,
      password_hash: null,
      mode,
      created_at: now,
      updated_at: now,
      request_id: requestId,
      screenshot,
    };
  }

  /** The page failed for good: a failed analysis in the history of its report (trigger `crawl`). */
  async recordFailure(
    page: { id: number; url: string },
    reportId: number,
    failure: AnalysisFailure,
  ): Promise<void> {
    // Field by field: an Error's message is not an own enumerable property, so spreading one would drop it.
    const analysis = {
      url: page.url,
      reason: failure.reason,
      message: failure.message,
      generated_at: timestamp(),
    };
    const origin = { trigger: "crawl" as const, mode: this.crawl.mode, requestId: this.requestIdOf(page.id) };
    await this.reports.recordFailure(this.crawl.user_id, reportId, analysis, origin);
  }
}
