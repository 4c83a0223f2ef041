/**
 * A report's history: its analyses, one past analysis, and what changed between two complete analyses. Every
 * call names the owner; another user's report is simply not there (undefined), like a missing one. Shared by
 * the API and the web pages (which pass the owner of a report the visitor may see).
 */
import type {
  AnalysisListQuery,
  AnalysisRow,
  AnalysisStore,
  AnalysisWithResults,
  ScorePoint,
} from "../store/analysis-store.js";
import type { ReportStore } from "../store/report-store.js";

export class HistoryService {
  constructor(
    private readonly reports: ReportStore,
    private readonly analyses: AnalysisStore,
  ) {}

  /** The report's analyses (without results); undefined when the user has no such report. */
  async list(
    userId: number,
    reportId: number,
    query: AnalysisListQuery,
  ): Promise<{ rows: AnalysisRow[]; total: number } | undefined> {
    if (!(await this.reports.owns(userId, reportId))) return undefined;
    return this.analyses.list(userId, reportId, query);
  }

  /** One analysis of the report, with its results; undefined when either is not the user's. */
  show(userId: number, reportId: number, analysisId: number): Promise<AnalysisWithResults | undefined> {
    return this.analyses.find(userId, reportId, analysisId);
  }

  /** The scores of the newest `limit` complete analyses, oldest first. */
  scores(userId: number, reportId: number, limit: number): Promise<ScorePoint[]> {
    return this.analyses.scores(userId, reportId, limit);
  }
}
