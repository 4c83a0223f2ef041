/**
 * The shapes of a report as the report stores read and write it (`report-store.ts`, `report-reads.ts`,
 * `report-analysis-queue.ts`), and the column that reads the results of the analysis a report shows.
 */
import { type RawBuilder, type Selectable, sql } from "kysely";
import type { AnalysisMode, AnalysisTrigger } from "../vocabulary.js";
import { unpackResults } from "./analysis-document.js";
import type { StoredScreenshot } from "./analysis-store.js";
import type { ReportSchedule, ReportStatus, ReportsTable } from "./schema.js";

/**
 * A report row with its latest complete analysis's documents: the summary and category scores as JSON text and
 * the check results as UTF-8 JSON bytes (all null before the first). They are stored once, on the analysis the
 * report shows (migrations 022 and 041); every read that returns them takes that analysis's.
 */
export type ReportRow = Selectable<ReportsTable> & ShownDocuments & { results: Buffer | null };

/** The shown analysis's summary and category scores, as JSON text. */
export interface ShownDocuments {
  summary: string | null;
  categories: string | null;
}

/**
 * A row read for display. On SQLite the JSON documents come as UTF-8 bytes, so a response is written out
 * without decoding them into strings and encoding them again; pg would ship bytes as hex text, which costs
 * more than it saves, so PostgreSQL returns the text.
 */
export type DisplayRow = Omit<ReportRow, "summary" | "categories" | "results"> & {
  summary: string | Buffer | null;
  categories: string | Buffer | null;
  results: string | Buffer | null;
};

/** The packed results of the analysis a report shows, as a column of a query on `reports`. */
export const shownResults = sql<Buffer | null>`(select shown.results from analyses as shown where shown.id = reports.analysis_id)`;

/**
 * A JSON document of the analysis a report shows, as a column of a query on `reports` (each a primary-key lookup
 * of the row `shownResults` reads).
 */
export function shownDocument<C extends keyof ShownDocuments>(column: C) {
  return sql<
    string | null
  >`(select ${sql.ref(`shown.${column}`)} from analyses as shown where shown.id = reports.analysis_id)`.as(
    column,
  );
}

/** `shownDocument` read as UTF-8 bytes on SQLite, where that saves decoding it (see DisplayRow). */
export function shownDocumentBytes<C extends keyof ShownDocuments>(column: C) {
  return sql<
    string | Buffer | null
  >`cast((select ${sql.ref(`shown.${column}`)} from analyses as shown where shown.id = reports.analysis_id) as blob)`.as(
    column,
  );
}

/** The shown analysis's summary and category scores, as columns of a query on `reports`. */
export const shownDocuments = [shownDocument("summary"), shownDocument("categories")] as const;

/** A row read with `shownResults` as `packed_results`, its results unpacked. */
export function unpacked<Row extends { packed_results: Buffer | Uint8Array | null }>(
  row: Row,
): Omit<Row, "packed_results"> & { results: Buffer | null } {
  const { packed_results: packed, ...rest } = row;
  return { ...rest, results: packed === null ? null : unpackResults(packed) };
}

/** The columns a complete analysis sets on a report. */
export interface AnalysisColumns {
  url: string;
  final_url: string;
  project: string;
  result: string;
  score: number;
  summary: string;
  categories: string;
  results: string;
  generated_at: string;
}

/** What the owner sets on a report, apart from its analysis. */
export interface ReportSettings {
  privacy: number;
  password_hash: string | null;
  mode: AnalysisMode;
  schedule: ReportSchedule;
  next_run_at: string | null;
}

/** A report as created synchronously: its first analysis included; the history columns are the store's to keep. */
export type NewReport = AnalysisColumns &
  Partial<ReportSettings> &
  Pick<ReportSettings, "privacy" | "password_hash"> & {
    user_id: number;
    /** The team whose workspace holds it; absent or null for the creator's own. */
    team_id?: number | null;
    created_at: string;
    updated_at: string;
    /** The request that made the analysis (see AnalysesTable.request_id). */
    request_id?: string;
    /** A rendered analysis's screenshot, kept with the analysis in history. */
    screenshot?: StoredScreenshot | null;
  };

/** A report stored before its first analysis (an asynchronous store): queued, its analysis columns null. */
export type PendingReport = ReportSettings & {
  user_id: number;
  /** The team whose workspace holds it; absent or null for the creator's own. */
  team_id?: number | null;
  url: string;
  /** Until the analysis says otherwise: the submitted URL and its host. */
  final_url: string;
  project: string;
  created_at: string;
  updated_at: string;
};

/** Columns an update may change; `next_run_at` may be an expression over the row (see `nextRunFrom`). */
export type ReportChanges = Partial<
  Omit<ReportSettings, "next_run_at"> & {
    next_run_at: string | null | RawBuilder<string | null>;
    updated_at: string;
    status: ReportStatus;
    error_reason: string | null;
    error_message: string | null;
  }
>;

/** How an analysis came to be: what asked for it, the mode it ran in, the request (job) that made it. */
export interface AnalysisOrigin {
  trigger: AnalysisTrigger;
  mode: AnalysisMode;
  requestId: string | null;
  /** What the analysis left besides its results (a rendered analysis's screenshot), kept in history only. */
  screenshot?: StoredScreenshot | null;
}

export interface StoredAnalysisRef {
  id: number;
  status: "complete" | "failed";
  /** A failed analysis's reason code; null for a complete one. */
  error_reason: string | null;
}

export interface ReportStoreOptions {
  /** Analyses kept per report, oldest dropped first; 0 keeps all. */
  historyLimit: number;
}
export type ReportSortKey = "id" | "generated_at" | "url" | "score";

export interface ReportListQuery {
  search?: string;
  project?: string;
  result?: string;
  sortBy: ReportSortKey;
  direction: "asc" | "desc";
  limit: number;
  offset: number;
}
