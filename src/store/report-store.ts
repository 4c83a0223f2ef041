/**
 * The reports table, as one store for the services: the writes of reports and their analyses here, and what
 * the modules beside it do.
 * - `report-reads.ts`: reads for display, list and search;
 * - `report-analysis-queue.ts`: the analysis-queue state (pending jobs, status);
 * - `new-report-statement.ts`: the new-report statement (on PostgreSQL one statement, also used by a crawl's
 *   page); `report-rows.ts`: the shapes of a report.
 * Every query takes the owner's user id (but `findForPage`): there is no way to read or change a report without
 * naming its owner. A user's projects are read from the same table by `projects/project-store.ts`.
 */
import { type Kysely, type RawBuilder, sql } from "kysely";
import { timestamp } from "../timestamps.js";
import type { AnalysisMode, AnalysisTrigger } from "../vocabulary.js";
import { packResultsOffThread } from "./analysis-document.js";
import {
  addComplete,
  addFailed,
  applyRetention,
  type FailedAnalysis,
  type StoredScreenshot,
} from "./analysis-store.js";
import { insertWithAnalysis, newReportRows } from "./new-report-statement.js";
import { deleteOwned, inWorkspace, type Owner } from "./owned-rows.js";
import { ReportAnalysisQueue, settled } from "./report-analysis-queue.js";
import { ReportReads } from "./report-reads.js";
import {
  type AnalysisColumns,
  type AnalysisOrigin,
  type NewReport,
  type PendingReport,
  type ReportChanges,
  type ReportRow,
  type ReportStoreOptions,
  shownDocuments,
  shownResults,
  unpacked,
} from "./report-rows.js";
import type { Database } from "./schema.js";
import type { Store } from "./store.js";

// The report's shapes and the new-report statement, where the services and handlers have always imported them.
export { type NewReportTables, withNewReport } from "./new-report-statement.js";
export type {
  AnalysisColumns,
  AnalysisOrigin,
  DisplayRow,
  NewReport,
  PendingReport,
  ReportChanges,
  ReportListQuery,
  ReportRow,
  ReportSettings,
  ReportSortKey,
  ReportStoreOptions,
  StoredAnalysisRef,
} from "./report-rows.js";

/**
 * `next_run_at` one interval after `from`, for whatever schedule the row has when the statement runs: an
 * analysis that started before its report's schedule was turned off does not turn it back on.
 */
export function nextRunFrom(
  intervals: { daily: number; weekly: number },
  from: Date,
): RawBuilder<string | null> {
  const at = (seconds: number) => timestamp(new Date(from.getTime() + seconds * 1000));
  return sql<
    string | null
  >`case schedule when 'daily' then ${at(intervals.daily)} when 'weekly' then ${at(intervals.weekly)} else null end`;
}

function triggerOf(origin: AnalysisOrigin | AnalysisTrigger): AnalysisTrigger {
  return typeof origin === "string" ? origin : origin.trigger;
}

function runOf(origin: AnalysisOrigin | AnalysisTrigger): {
  mode: AnalysisMode;
  requestId: string | null;
  screenshot?: StoredScreenshot | null;
} {
  return typeof origin === "string" ? { mode: "raw", requestId: null } : origin;
}

export class ReportStore {
  private readonly db: Kysely<Database>;

  private readonly reads: ReportReads;

  private readonly queue: ReportAnalysisQueue;

  constructor(
    private readonly store: Store,
    private readonly options: ReportStoreOptions = { historyLimit: 100 },
  ) {
    this.db = store.db;
    this.reads = new ReportReads(store);
    this.queue = new ReportAnalysisQueue(store, this.reads);
  }

  /** Stores a new report and, in the same transaction, its analysis as the first of its history. */
  async insert(report: NewReport, trigger: AnalysisTrigger = "create"): Promise<ReportRow> {
    const packedResults = await packResultsOffThread(report.results);
    return this.db.transaction().execute(async (trx) => {
      const id = await this.insertWithin(trx, report, trigger, packedResults);
      const row = await trx
        .selectFrom("reports")
        .selectAll()
        .select([...shownDocuments, shownResults.as("packed_results")])
        .where("id", "=", id)
        .executeTakeFirstOrThrow();
      return unpacked(row);
    });
  }

  /**
   * `insert` inside the caller's transaction (a crawl stores a page's report with what the page taught it), the
   * results packed beforehand with `packResultsOffThread`; returns the new report's id only (reading the row
   * back would read its documents too). On PostgreSQL the report and its analysis are one statement
   * (`insertWithAnalysis`).
   */
  async insertWithin(
    trx: Kysely<Database>,
    report: NewReport,
    trigger: AnalysisTrigger,
    packedResults: Buffer,
  ): Promise<number> {
    if (this.store.dialect === "postgres") return insertWithAnalysis(trx, report, trigger, packedResults);
    const { columns, analysis } = newReportRows(report, packedResults);
    const created = await trx
      .insertInto("reports")
      .values({ ...columns, status: "complete" })
      .returning("id")
      .executeTakeFirstOrThrow();
    const analysisId = await addComplete(
      trx,
      { userId: report.user_id, reportId: created.id },
      trigger,
      analysis,
    );
    await trx
      .updateTable("reports")
      .set({ analysis_id: analysisId, analyses: 1 })
      .where("id", "=", created.id)
      .execute();
    return created.id;
  }

  /** Stores a report whose first analysis will run in the background (status `queued`, no analysis yet). */
  async insertPending(report: PendingReport): Promise<ReportRow> {
    const row = await this.db
      .insertInto("reports")
      .values({ ...report, status: "queued" })
      .returningAll()
      .executeTakeFirstOrThrow();
    return { ...row, summary: null, categories: null, results: null };
  }

  /**
   * Sets the report's columns to a new complete analysis and adds it to history, in one transaction, with any
   * other changes (privacy, password, next_run_at); the report's status becomes `complete`. Undefined when the
   * user has no such report.
   */
  async reanalysed(
    userId: number,
    id: number,
    analysis: AnalysisColumns,
    origin: AnalysisOrigin | AnalysisTrigger,
    changes: ReportChanges = {},
  ): Promise<ReportRow | undefined> {
    const packedResults = await packResultsOffThread(analysis.results);
    return this.db.transaction().execute(async (trx) => {
      if (!(await this.reanalysedWithin(trx, userId, id, analysis, origin, changes, packedResults))) return;
      return this.reads.findWithin(trx, userId, id);
    });
  }

  /**
   * `reanalysed` inside the caller's transaction, the results packed beforehand (see `insertWithin`); false when
   * the user has no such report.
   */
  async reanalysedWithin(
    trx: Kysely<Database>,
    userId: number,
    id: number,
    analysis: AnalysisColumns,
    origin: AnalysisOrigin | AnalysisTrigger,
    changes: ReportChanges,
    packedResults: Buffer,
  ): Promise<boolean> {
    const existing = await trx
      .selectFrom("reports")
      .select(["id", "score", "analysis_id"])
      .where("user_id", "=", userId)
      .where("id", "=", id)
      .executeTakeFirst();
    if (!existing) return false;
    const owner = { userId, reportId: id };
    const analysisId = await addComplete(trx, owner, triggerOf(origin), {
      ...analysis,
      ...runOf(origin),
      packedResults,
    });
    const analyses = await applyRetention(trx, owner, this.options.historyLimit, analysisId);
    // The documents are the analysis's own (migration 041): the report takes the rest of its columns.
    const { results: _results, summary: _summary, categories: _categories, ...columns } = analysis;
    await trx
      .updateTable("reports")
      .set({
        ...changes,
        ...columns,
        ...settled(origin, "complete"),
        error_reason: null,
        error_message: null,
        analysis_id: analysisId,
        analyses,
        // The score change is against the previous complete analysis; with none there is nothing to compare.
        score_change:
          existing.analysis_id === null || existing.score === null ? null : analysis.score - existing.score,
      })
      .where("user_id", "=", userId)
      .where("id", "=", id)
      .execute();
    return true;
  }

  /**
   * Records an analysis that failed (the page was down, timed out, …) with any other changes (next_run_at). The
   * report keeps showing its latest complete analysis; its status becomes `failed` with the reason. Returns the
   * new analysis's id, or undefined when the user has no such report.
   */
  async recordFailure(
    userId: number,
    id: number,
    failure: FailedAnalysis,
    origin: AnalysisOrigin | AnalysisTrigger,
    changes: ReportChanges = {},
  ): Promise<number | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const existing = await trx
        .selectFrom("reports")
        .select(["id", "analysis_id"])
        .where("user_id", "=", userId)
        .where("id", "=", id)
        .executeTakeFirst();
      if (!existing) return undefined;
      const owner = { userId, reportId: id };
      const analysisId = await addFailed(trx, owner, triggerOf(origin), { ...failure, ...runOf(origin) });
      const analyses = await applyRetention(trx, owner, this.options.historyLimit, existing.analysis_id);
      await trx
        .updateTable("reports")
        .set({
          ...changes,
          analyses,
          ...settled(origin, "failed"),
          error_reason: failure.reason,
          error_message: failure.message,
        })
        .where("user_id", "=", userId)
        .where("id", "=", id)
        .execute();
      return analysisId;
    });
  }

  async update(owner: Owner, id: number, changes: ReportChanges): Promise<ReportRow | undefined> {
    const row = await this.db
      .updateTable("reports")
      .set(changes)
      .where(inWorkspace(owner))
      .where("id", "=", id)
      .returningAll()
      .executeTakeFirst();
    return row && this.reads.withResults(row);
  }

  delete(owner: Owner, id: number): Promise<boolean> {
    return deleteOwned(this.db, "reports", owner, id);
  }

  /** See `ReportAnalysisQueue.queueAnalysis`. */
  queueAnalysis(...args: Parameters<ReportAnalysisQueue["queueAnalysis"]>) {
    return this.queue.queueAnalysis(...args);
  }

  /** See `ReportAnalysisQueue.unqueueAnalysis`. */
  unqueueAnalysis(...args: Parameters<ReportAnalysisQueue["unqueueAnalysis"]>) {
    return this.queue.unqueueAnalysis(...args);
  }

  /** See `ReportAnalysisQueue.markRunning`. */
  markRunning(...args: Parameters<ReportAnalysisQueue["markRunning"]>) {
    return this.queue.markRunning(...args);
  }

  /** See `ReportAnalysisQueue.analysisOfRequest`. */
  analysisOfRequest(...args: Parameters<ReportAnalysisQueue["analysisOfRequest"]>) {
    return this.queue.analysisOfRequest(...args);
  }

  /** See `ReportReads.find`. */
  find(...args: Parameters<ReportReads["find"]>) {
    return this.reads.find(...args);
  }

  /** See `ReportReads.reportOfUrl`. */
  reportOfUrl(...args: Parameters<ReportReads["reportOfUrl"]>) {
    return this.reads.reportOfUrl(...args);
  }

  /** See `ReportReads.reportsOfUrls`. */
  reportsOfUrls(...args: Parameters<ReportReads["reportsOfUrls"]>) {
    return this.reads.reportsOfUrls(...args);
  }

  /** See `ReportReads.newestIdForUrl`. */
  newestIdForUrl(...args: Parameters<ReportReads["newestIdForUrl"]>) {
    return this.reads.newestIdForUrl(...args);
  }

  /** See `ReportReads.findIn`. */
  findIn(...args: Parameters<ReportReads["findIn"]>) {
    return this.reads.findIn(...args);
  }

  /** See `ReportReads.workspaceOfReport`. */
  workspaceOfReport(...args: Parameters<ReportReads["workspaceOfReport"]>) {
    return this.reads.workspaceOfReport(...args);
  }

  /** See `ReportReads.creatorIn`. */
  creatorIn(...args: Parameters<ReportReads["creatorIn"]>) {
    return this.reads.creatorIn(...args);
  }

  /** See `ReportReads.findForDisplay`. */
  findForDisplay(...args: Parameters<ReportReads["findForDisplay"]>) {
    return this.reads.findForDisplay(...args);
  }

  /** See `ReportReads.findForPage`. */
  findForPage(...args: Parameters<ReportReads["findForPage"]>) {
    return this.reads.findForPage(...args);
  }

  /** See `ReportReads.list`. */
  list(...args: Parameters<ReportReads["list"]>) {
    return this.reads.list(...args);
  }
}
