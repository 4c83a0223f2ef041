/**
 * Queries on the reports table. Every query takes the owner's user id: there is no way to read or change a
 * report without naming its owner. Lists page with a stable order (the sort key, then id in the same direction).
 */
import {
  type Expression,
  type Kysely,
  type QueryCreator,
  type RawBuilder,
  type Selectable,
  sql,
} from "kysely";
import { timestamp } from "../timestamps.js";
import type { AnalysisMode, AnalysisTrigger } from "../vocabulary.js";
import { packResultsOffThread, unpackResults } from "./analysis-document.js";
import {
  addComplete,
  addFailed,
  applyRetention,
  type CompleteAnalysis,
  completeAnalysisRow,
  type FailedAnalysis,
  type StoredScreenshot,
} from "./analysis-store.js";
import type { Database, ReportSchedule, ReportStatus, ReportsTable } from "./schema.js";
import type { Store } from "./store.js";

/**
 * A report row with its latest complete analysis's check results as UTF-8 JSON bytes (null before the first).
 * The results are stored once, packed, on the analysis the report shows (migration 022); every read that
 * returns them unpacks that analysis's.
 */
export type ReportRow = Selectable<ReportsTable> & { results: Buffer | null };

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
const shownResults = sql<Buffer | null>`(select shown.results from analyses as shown where shown.id = reports.analysis_id)`;

/** A row read with `shownResults` as `packed_results`, its results unpacked. */
function unpacked<Row extends { packed_results: Buffer | Uint8Array | null }>(
  row: Row,
): Omit<Row, "packed_results"> & { results: Buffer | null } {
  const { packed_results: packed, ...rest } = row;
  return { ...rest, results: packed === null ? null : unpackResults(packed) };
}

/**
 * SQLite: up to this many trigram matches across all users, the FTS5 index drives a URL search; beyond it the
 * user's own index entries are scanned (see `urlContains`). Measured on 200,000 reports: driving costs about
 * 5 µs a match, a scan about 0.1 µs an entry of the user's.
 */
const trigramDrivenMatches = 2000;

const plainColumns = [
  "id",
  "user_id",
  "url",
  "final_url",
  "project",
  "result",
  "score",
  "privacy",
  "password_hash",
  "generated_at",
  "created_at",
  "updated_at",
  "analysis_id",
  "analyses",
  "score_change",
  "status",
  "error_reason",
  "error_message",
  "mode",
  "schedule",
  "next_run_at",
  "pending_analyses",
] as const;
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

/**
 * The report's status once an analysis is stored. A job's analysis ends one pending job: the report shows the
 * outcome unless another job is still queued or running. An analysis made inside an HTTP request, or by a crawl
 * (whose jobs are the crawl's, not the report's), leaves pending jobs as they are.
 */
function settled(origin: AnalysisOrigin | AnalysisTrigger, outcome: "complete" | "failed") {
  if (typeof origin !== "string" && origin.requestId !== null && origin.trigger !== "crawl") {
    return {
      pending_analyses: sql<number>`case when pending_analyses > 0 then pending_analyses - 1 else 0 end`,
      status: sql<ReportStatus>`case when pending_analyses > 1 then 'queued' else ${outcome} end`,
    };
  }
  return { status: sql<ReportStatus>`case when pending_analyses > 0 then status else ${outcome} end` };
}

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

export interface ProjectListQuery {
  search?: string;
  sortBy: "created_at" | "project";
  direction: "asc" | "desc";
  limit: number;
  offset: number;
}

export interface ProjectRow {
  project: string;
  reports: number;
  average_score: number;
  created_at: string;
  last_generated_at: string;
}

export class ReportStore {
  private readonly db: Kysely<Database>;

  constructor(
    private readonly store: Store,
    private readonly options: ReportStoreOptions = { historyLimit: 100 },
  ) {
    this.db = store.db;
  }

  /** Stores a new report and, in the same transaction, its analysis as the first of its history. */
  async insert(report: NewReport, trigger: AnalysisTrigger = "create"): Promise<ReportRow> {
    const packedResults = await packResultsOffThread(report.results);
    return this.db.transaction().execute(async (trx) => {
      const id = await this.insertWithin(trx, report, trigger, packedResults);
      const row = await trx
        .selectFrom("reports")
        .selectAll()
        .select(shownResults.as("packed_results"))
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
    return { ...row, results: null };
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
      return this.findWithin(trx, userId, id);
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
    const { results: _results, ...columns } = analysis;
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

  /**
   * Counts one more analysis job for the report and shows it queued (unless one is running): called before the
   * job is enqueued. Undefined when the user has no such report.
   */
  async queueAnalysis(userId: number, id: number): Promise<ReportRow | undefined> {
    const row = await this.db
      .updateTable("reports")
      .set({
        pending_analyses: sql<number>`pending_analyses + 1`,
        status: sql<ReportStatus>`case when status = 'running' then 'running' else 'queued' end`,
      })
      .where("user_id", "=", userId)
      .where("id", "=", id)
      .returningAll()
      .executeTakeFirst();
    return row && this.withResults(row);
  }

  /** Takes back `queueAnalysis` when the job could not be enqueued. */
  async unqueueAnalysis(userId: number, id: number, previous: ReportStatus): Promise<void> {
    await this.db
      .updateTable("reports")
      .set({
        pending_analyses: sql<number>`case when pending_analyses > 0 then pending_analyses - 1 else 0 end`,
        status: sql<ReportStatus>`case when pending_analyses > 1 then status else ${previous} end`,
      })
      .where("user_id", "=", userId)
      .where("id", "=", id)
      .execute();
  }

  /** An analysis job of the report has started. */
  async markRunning(userId: number, id: number): Promise<void> {
    await this.db
      .updateTable("reports")
      .set({ status: "running" })
      .where("user_id", "=", userId)
      .where("id", "=", id)
      .execute();
  }

  /** The analysis a request (job) already stored for the report, if it did: what makes a job idempotent. */
  async analysisOfRequest(
    userId: number,
    id: number,
    requestId: string,
  ): Promise<StoredAnalysisRef | undefined> {
    return this.db
      .selectFrom("analyses")
      .select(["id", "status", "error_reason"])
      .where("user_id", "=", userId)
      .where("report_id", "=", id)
      .where("request_id", "=", requestId)
      .executeTakeFirst();
  }

  find(userId: number, id: number): Promise<ReportRow | undefined> {
    return this.findWithin(this.db, userId, id);
  }

  private async findWithin(db: Kysely<Database>, userId: number, id: number): Promise<ReportRow | undefined> {
    const row = await db
      .selectFrom("reports")
      .selectAll()
      .select(shownResults.as("packed_results"))
      .where("user_id", "=", userId)
      .where("id", "=", id)
      .executeTakeFirst();
    return row && unpacked(row);
  }

  /** A row an update returned, with the results of the analysis it shows. */
  private async withResults(row: Selectable<ReportsTable>): Promise<ReportRow> {
    if (row.analysis_id === null) return { ...row, results: null };
    const shown = await this.db
      .selectFrom("analyses")
      .select("results")
      .where("id", "=", row.analysis_id)
      .executeTakeFirst();
    return { ...row, results: shown?.results ? unpackResults(shown.results) : null };
  }

  /** The user's report for exactly this URL (the newest, should there be several). */
  /** The user's latest report of this URL (its id, score and result; an index-only lookup). */
  reportOfUrl(userId: number, url: string): Promise<Pick<ReportRow, "id" | "score" | "result"> | undefined> {
    return this.db
      .selectFrom("reports")
      .select(["id", "score", "result"])
      .where("user_id", "=", userId)
      .where("url", "=", url)
      .orderBy("id", "desc")
      .limit(1)
      .executeTakeFirst();
  }

  /** The id of the user's newest report of exactly this URL, if any. */
  async newestIdForUrl(userId: number, url: string): Promise<number | undefined> {
    const found = await this.db
      .selectFrom("reports")
      .select("id")
      .where("user_id", "=", userId)
      .where("url", "=", url)
      .orderBy("id", "desc")
      .limit(1)
      .executeTakeFirst();
    return found?.id;
  }

  /** Whether the user has a report with this id. */
  async owns(userId: number, id: number): Promise<boolean> {
    const found = await this.db
      .selectFrom("reports")
      .select("id")
      .where("user_id", "=", userId)
      .where("id", "=", id)
      .executeTakeFirst();
    return found !== undefined;
  }

  async findForDisplay(userId: number, id: number): Promise<DisplayRow | undefined> {
    const row = await this.db
      .selectFrom("reports")
      .select(plainColumns)
      .select(this.documentBytes())
      .where("user_id", "=", userId)
      .where("id", "=", id)
      .executeTakeFirst();
    return row && unpacked(row);
  }

  /**
   * The one read not scoped to an owner: the report page must find a report by id for visitors, and
   * ReportAccess decides what they may see.
   */
  async findForPage(id: number): Promise<DisplayRow | undefined> {
    const row = await this.db
      .selectFrom("reports")
      .select(plainColumns)
      .select(this.documentBytes())
      .where("id", "=", id)
      .executeTakeFirst();
    return row && unpacked(row);
  }

  async update(userId: number, id: number, changes: ReportChanges): Promise<ReportRow | undefined> {
    const row = await this.db
      .updateTable("reports")
      .set(changes)
      .where("user_id", "=", userId)
      .where("id", "=", id)
      .returningAll()
      .executeTakeFirst();
    return row && this.withResults(row);
  }

  async delete(userId: number, id: number): Promise<boolean> {
    const result = await this.db
      .deleteFrom("reports")
      .where("user_id", "=", userId)
      .where("id", "=", id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async list(userId: number, query: ReportListQuery): Promise<{ rows: DisplayRow[]; total: number }> {
    let filtered = this.db.selectFrom("reports").where("user_id", "=", userId);
    if (query.project !== undefined) filtered = filtered.where("project", "=", query.project);
    if (query.result !== undefined) filtered = filtered.where("result", "=", query.result);
    if (query.search !== undefined) filtered = filtered.where(await this.urlContains(query.search));
    const [counted, rows] = await Promise.all([
      filtered.select((eb) => eb.fn.countAll<number>().as("total")).executeTakeFirstOrThrow(),
      filtered
        .select(plainColumns)
        .select(this.documentBytes())
        .orderBy(this.sortKey(query.sortBy, query.direction))
        .orderBy("id", query.direction)
        .limit(query.limit)
        .offset(query.offset)
        .execute(),
    ]);
    return { rows: rows.map(unpacked), total: Number(counted.total) };
  }

  async listProjects(
    userId: number,
    query: ProjectListQuery,
  ): Promise<{ rows: ProjectRow[]; total: number }> {
    let filtered = this.db.selectFrom("reports").where("user_id", "=", userId);
    if (query.search !== undefined) {
      // Project names are short and few per user: a case-insensitive pattern match needs no index.
      const pattern = `%${escapeLike(query.search)}%`;
      filtered =
        this.store.dialect === "postgres"
          ? filtered.where(sql<boolean>`project ilike ${pattern} escape '\\'`)
          : filtered.where(sql<boolean>`project like ${pattern} escape '\\'`);
    }
    const grouped = filtered
      .select((eb) => [
        "project",
        eb.fn.countAll<number>().as("reports"),
        eb.fn.avg<number>("score").as("average_score"),
        eb.fn.min("created_at").as("created_at"),
        eb.fn.max("generated_at").as("last_generated_at"),
      ])
      .groupBy("project");
    const [counted, rows] = await Promise.all([
      filtered.select(sql<number>`count(distinct project)`.as("total")).executeTakeFirstOrThrow(),
      this.db
        .selectFrom(grouped.as("projects"))
        .selectAll()
        .orderBy(query.sortBy, query.direction)
        .orderBy("project", query.direction)
        .limit(query.limit)
        .offset(query.offset)
        .execute(),
    ]);
    return {
      rows: rows.map((row) => ({
        project: row.project,
        reports: Number(row.reports),
        average_score: Number(row.average_score),
        created_at: row.created_at as string,
        last_generated_at: row.last_generated_at as string,
      })),
      total: Number(counted.total),
    };
  }

  /** Deletes the user's reports of one project in one statement; returns how many there were. */
  async deleteProject(userId: number, project: string): Promise<number> {
    const result = await this.db
      .deleteFrom("reports")
      .where("user_id", "=", userId)
      .where("project", "=", project)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /**
   * The list's sort key. A report without a complete analysis has no score or time: it comes first in ascending
   * order and last in descending order on both databases (SQLite's rule, spelled out for PostgreSQL, whose
   * indexes are built that way by migration 011).
   */
  private sortKey(key: ReportSortKey, direction: "asc" | "desc") {
    const nullable = key === "score" || key === "generated_at";
    if (this.store.dialect !== "postgres" || !nullable) return sql`${sql.ref(key)} ${sql.raw(direction)}`;
    return sql`${sql.ref(key)} ${sql.raw(direction === "asc" ? "asc nulls first" : "desc nulls last")}`;
  }

  /**
   * The JSON document columns, as bytes where the driver hands them over cheaply (see DisplayRow), and the
   * shown analysis's packed results (one primary-key lookup per row; unpacked by `unpacked`).
   */
  private documentBytes() {
    const pg = this.store.dialect === "postgres";
    const bytes = <C extends "summary" | "categories">(column: C) =>
      (pg
        ? sql<string | Buffer>`${sql.ref(column)}`
        : sql<string | Buffer>`cast(${sql.ref(column)} as blob)`
      ).as(column);
    return [bytes("summary"), bytes("categories"), shownResults.as("packed_results")] as const;
  }

  /**
   * The condition "the URL contains `needle`", case-insensitively, with %, _ and \ taken literally.
   *
   * PostgreSQL: ILIKE, which the pg_trgm index serves whenever the planner finds it worth it.
   *
   * SQLite: the FTS5 trigram index covers every user's reports, so driving a query from it costs one lookup per
   * match across all users. It drives the query only when the needle is rare (at most `trigramDrivenMatches`
   * matches, counted cheaply with a LIMIT). A commoner needle, or one under three characters (which trigrams
   * cannot serve), is matched with LIKE while scanning the user's own index entries: every list index holds the
   * URL, so that is at most one pass over the user's (filtered) entries, and a page sorted by the index's key
   * stops as soon as it is full.
   */
  private async urlContains(needle: string): Promise<RawBuilder<boolean>> {
    const pattern = `%${escapeLike(needle)}%`;
    if (this.store.dialect === "postgres") return sql<boolean>`url ilike ${pattern} escape '\\'`;
    if ([...needle].length >= 3) {
      const phrase = `"${needle.replace(/"/g, '""')}"`;
      const counted = await sql<{
        matches: number;
      }>`select count(*) as matches from (select rowid from reports_url_search where reports_url_search match ${phrase} limit ${trigramDrivenMatches + 1})`.execute(
        this.db,
      );
      if (Number(counted.rows[0]?.matches ?? 0) <= trigramDrivenMatches) {
        return sql<boolean>`id in (select rowid from reports_url_search where reports_url_search match ${phrase})`;
      }
    }
    return sql<boolean>`url like ${pattern} escape '\\'`;
  }
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

/** A new report's own columns, and its first analysis (the results packed beforehand). */
function newReportRows(
  report: NewReport,
  packedResults: Buffer,
): { columns: Omit<NewReport, "request_id" | "screenshot" | "results">; analysis: CompleteAnalysis } {
  const { request_id: requestId, screenshot, results: _results, ...columns } = report;
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
async function insertWithAnalysis(
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
