/**
 * The statement of a new complete report and its first analysis: the report's own columns and its analysis's
 * row, and on PostgreSQL both as common table expressions of one statement (`withNewReport`), which the report
 * store runs alone and a crawl's page adds to the statement that completes the page
 * (`crawls/page-completion-store.ts`).
 */
import { type Expression, type Kysely, type QueryCreator, sql } from "kysely";
import type { AnalysisTrigger } from "../vocabulary.js";
import { type CompleteAnalysis, completeAnalysisRow } from "./analysis-store.js";
import type { NewReport } from "./report-rows.js";
import type { Database } from "./schema.js";

/** A new report's own columns, and its first analysis with its documents (the results packed beforehand). */
export function newReportRows(
  report: NewReport,
  packedResults: Buffer,
): {
  columns: Omit<NewReport, "request_id" | "screenshot" | "results" | "summary" | "categories">;
  analysis: CompleteAnalysis;
} {
  // The documents are stored on the analysis only (migration 041).
  const {
    request_id: requestId,
    screenshot,
    results: _results,
    summary: _summary,
    categories: _categories,
    ...columns
  } = report;
  const analysis = {
    ...report,
    packedResults,
    mode: report.mode ?? "raw",
    requestId: requestId ?? null,
    screenshot: screenshot ?? null,
  };
  return { columns, analysis };
}

/** The common table expressions `withNewReport` adds: the new ids, the report and its analysis. */
export interface NewReportTables {
  new_report_ids: { report_id: number; analysis_id: number };
  new_report: { id: number };
  new_analysis: { report_id: number };
}

/**
 * PostgreSQL: a new complete report and its first analysis as common table expressions of one statement (the
 * caller's), both ids drawn from their sequences first, so the report is written once with the analysis it
 * shows. An insert then an update of `analysis_id` wrote the report's row twice, and the second write, finding no
 * room on the row's page, added an entry to each of its twenty indexes again. The analysis's foreign key to the
 * report is checked at the end of the statement, when both rows exist. `owner`, when given, is the owner's id as
 * an expression of the statement (a crawl's page reads it from the crawl's row, so that a crawl deleted
 * meanwhile leaves the report without one, and the statement fails whole).
 */
export function withNewReport<DB extends Database>(
  statement: QueryCreator<DB>,
  report: NewReport,
  trigger: AnalysisTrigger,
  packedResults: Buffer,
  owner: number | Expression<number> = report.user_id,
): QueryCreator<DB & NewReportTables> {
  const { columns, analysis } = newReportRows(report, packedResults);
  const creator = statement as unknown as QueryCreator<Database>;
  return creator
    .with("new_report_ids", (db) =>
      db.selectNoFrom([
        sql<number>`nextval(pg_get_serial_sequence('reports', 'id'))`.as("report_id"),
        sql<number>`nextval(pg_get_serial_sequence('analyses', 'id'))`.as("analysis_id"),
      ]),
    )
    .with("new_report", (db) =>
      db
        .insertInto("reports")
        .values((eb) => ({
          ...columns,
          user_id: owner,
          status: "complete",
          analyses: 1,
          id: eb.selectFrom("new_report_ids").select("new_report_ids.report_id"),
          analysis_id: eb.selectFrom("new_report_ids").select("new_report_ids.analysis_id"),
        }))
        .returning("reports.id"),
    )
    .with("new_analysis", (db) =>
      db
        .insertInto("analyses")
        .values((eb) => ({
          ...completeAnalysisRow(
            { userId: owner, reportId: eb.selectFrom("new_report_ids").select("new_report_ids.report_id") },
            trigger,
            analysis,
          ),
          id: eb.selectFrom("new_report_ids").select("new_report_ids.analysis_id"),
        }))
        .returning("analyses.report_id"),
    ) as unknown as QueryCreator<DB & NewReportTables>;
}

/** PostgreSQL: a new complete report and its first analysis in one statement (see `withNewReport`). */
export async function insertWithAnalysis(
  trx: Kysely<Database>,
  report: NewReport,
  trigger: AnalysisTrigger,
  packedResults: Buffer,
): Promise<number> {
  const row = await withNewReport(trx, report, trigger, packedResults)
    .selectFrom("new_analysis")
    .select("new_analysis.report_id")
    .executeTakeFirstOrThrow();
  return row.report_id;
}
