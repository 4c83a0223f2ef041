/**
 * A report's history: its analyses, one past analysis, and what changed between two complete analyses. Every
 * call names the owner; another user's report is simply not there (undefined), like a missing one. Shared by
 * the API and the web pages (which pass the owner of a report the visitor may see).
 */

import { type AnalysisDiff, diffAnalyses } from "../analysis/analysis-diff.js";
import { ValidationFailed } from "../errors.js";
import type {
  AnalysisListQuery,
  AnalysisRow,
  AnalysisStore,
  AnalysisWithResults,
  ScorePoint,
  StoredScreenshot,
} from "../store/analysis-store.js";
import type { Owner } from "../store/owned-rows.js";
import type { ReportStore } from "../store/report-store.js";

/** The two ends of a diff, as ids of the report's analyses; absent ones take the contract's defaults. */
export interface DiffRequest {
  from?: number;
  to?: number;
}

export class HistoryService {
  constructor(
    private readonly reports: ReportStore,
    private readonly analyses: AnalysisStore,
  ) {}

  /** The report's analyses (without results); undefined when the workspace has no such report. */
  async list(
    owner: Owner,
    reportId: number,
    query: AnalysisListQuery,
  ): Promise<{ rows: AnalysisRow[]; total: number } | undefined> {
    const creator = await this.reports.creatorIn(owner, reportId);
    if (creator === undefined) return undefined;
    return this.analyses.list(creator, reportId, query);
  }

  /** One analysis of the report, with its results; undefined when either is not the workspace's. */
  async show(owner: Owner, reportId: number, analysisId: number): Promise<AnalysisWithResults | undefined> {
    const creator = await this.reports.creatorIn(owner, reportId);
    return creator === undefined ? undefined : this.analyses.find(creator, reportId, analysisId);
  }

  /**
   * What changed between two complete analyses of the report. Defaults: `to` is the latest complete analysis,
   * `from` the complete one before `to` (none: a diff with `from` null). An id that is not a complete analysis
   * of this report is a validation failure naming its parameter; undefined when the workspace has no such report.
   */
  async diff(owner: Owner, reportId: number, request: DiffRequest): Promise<AnalysisDiff | undefined> {
    const userId = await this.reports.creatorIn(owner, reportId);
    if (userId === undefined) return undefined;
    const to =
      request.to === undefined
        ? await this.analyses.previousComplete(userId, reportId)
        : await this.complete(userId, reportId, request.to, "to");
    if (!to) throw ValidationFailed.of("to", "The report has no complete analysis yet.");
    const from =
      request.from === undefined
        ? await this.analyses.previousComplete(userId, reportId, to.id)
        : await this.complete(userId, reportId, request.from, "from");
    return diffAnalyses(reportId, from ? diffSide(from) : null, diffSide(to));
  }

  /** What changed in the report's latest complete analysis since the one before; undefined with none. */
  async latestChanges(owner: Owner, reportId: number): Promise<AnalysisDiff | undefined> {
    try {
      return await this.diff(owner, reportId, {});
    } catch (error) {
      if (error instanceof ValidationFailed) return undefined;
      throw error;
    }
  }

  private async complete(
    userId: number,
    reportId: number,
    id: number,
    parameter: "from" | "to",
  ): Promise<AnalysisWithResults> {
    const found = await this.analyses.find(userId, reportId, id);
    if (found?.status !== "complete") {
      throw ValidationFailed.of(
        parameter,
        `The ${parameter} field must be a complete analysis of this report.`,
      );
    }
    return found;
  }

  /** The viewport screenshot of the report's latest rendered analysis; undefined when there is none. */
  async screenshot(owner: Owner, reportId: number): Promise<StoredScreenshot | undefined> {
    const creator = await this.reports.creatorIn(owner, reportId);
    return creator === undefined ? undefined : this.analyses.latestScreenshot(creator, reportId);
  }

  /** The scores of the newest `limit` complete analyses, oldest first. */
  scores(userId: number, reportId: number, limit: number): Promise<ScorePoint[]> {
    return this.analyses.scores(userId, reportId, limit);
  }
}

/** A complete analysis as the diff rules read it: documents parsed. */
function diffSide(analysis: AnalysisWithResults) {
  return {
    id: analysis.id,
    score: analysis.score as number,
    result: analysis.result as string,
    generated_at: analysis.generated_at,
    categories: JSON.parse(analysis.categories ?? "{}"),
    results: JSON.parse((analysis.results as Buffer).toString("utf8")),
  };
}
