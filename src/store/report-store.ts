/**
 * Queries on the reports table. Every query takes the owner's user id: there is no way to read or change a
 * report without naming its owner. Lists page with a stable order (the sort key, then id in the same direction).
 */
import { type Kysely, type RawBuilder, type Selectable, sql } from "kysely";
import {
  type AnalysisTrigger,
  addComplete,
  addFailed,
  applyRetention,
  type FailedAnalysis,
} from "./analysis-store.js";
import type { Store } from "./database.js";
import type { Database, ReportsTable } from "./schema.js";

export type ReportRow = Selectable<ReportsTable>;

/**
 * A row read for display. On SQLite the JSON documents come as UTF-8 bytes, so a response is written out
 * without decoding them into strings and encoding them again; pg would ship bytes as hex text, which costs
 * more than it saves, so PostgreSQL returns the text.
 */
export type DisplayRow = Omit<ReportRow, "summary" | "categories" | "results"> & {
  summary: string | Buffer;
  categories: string | Buffer;
  results: string | Buffer;
};

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
] as const;
/** A report as created: its first analysis included; the history columns are the store's to keep. */
export type NewReport = Omit<ReportsTable, "id" | "analysis_id" | "analyses" | "score_change">;
/** The columns a (re-)analysis sets on a report. */
export type AnalysisColumns = Pick<
  NewReport,
  "url" | "final_url" | "project" | "result" | "score" | "summary" | "categories" | "results" | "generated_at"
>;

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
  async insert(report: NewReport): Promise<ReportRow> {
    return this.db.transaction().execute(async (trx) => {
      const created = await trx
        .insertInto("reports")
        .values(report)
        .returning("id")
        .executeTakeFirstOrThrow();
      const owner = { userId: report.user_id, reportId: created.id };
      const analysisId = await addComplete(trx, owner, "create", report);
      return trx
        .updateTable("reports")
        .set({ analysis_id: analysisId, analyses: 1 })
        .where("id", "=", created.id)
        .returningAll()
        .executeTakeFirstOrThrow();
    });
  }

  /**
   * Sets the report's columns to a new complete analysis and adds it to history, in one transaction, with any
   * other changes (privacy, password); undefined when the user has no such report.
   */
  async reanalysed(
    userId: number,
    id: number,
    analysis: AnalysisColumns,
    trigger: AnalysisTrigger,
    changes: Partial<NewReport> = {},
  ): Promise<ReportRow | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const existing = await trx
        .selectFrom("reports")
        .select(["id", "score", "analysis_id"])
        .where("user_id", "=", userId)
        .where("id", "=", id)
        .executeTakeFirst();
      if (!existing) return undefined;
      const owner = { userId, reportId: id };
      const analysisId = await addComplete(trx, owner, trigger, analysis);
      const analyses = await applyRetention(trx, owner, this.options.historyLimit, analysisId);
      return trx
        .updateTable("reports")
        .set({
          ...changes,
          ...analysis,
          analysis_id: analysisId,
          analyses,
          // The report showed the previous complete analysis; a report without history has nothing to compare.
          score_change: existing.analysis_id === null ? null : analysis.score - existing.score,
        })
        .where("user_id", "=", userId)
        .where("id", "=", id)
        .returningAll()
        .executeTakeFirst();
    });
  }

  /**
   * Records an analysis that failed (a background run: the page was down, timed out, …). The report keeps
   * showing its latest complete analysis; only its count of analyses changes. Returns the new analysis's id,
   * or undefined when the user has no such report.
   */
  async recordFailure(
    userId: number,
    id: number,
    failure: FailedAnalysis,
    trigger: AnalysisTrigger,
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
      const analysisId = await addFailed(trx, owner, trigger, failure);
      const analyses = await applyRetention(trx, owner, this.options.historyLimit, existing.analysis_id);
      await trx
        .updateTable("reports")
        .set({ analyses })
        .where("user_id", "=", userId)
        .where("id", "=", id)
        .execute();
      return analysisId;
    });
  }

  async find(userId: number, id: number): Promise<ReportRow | undefined> {
    return this.db
      .selectFrom("reports")
      .selectAll()
      .where("user_id", "=", userId)
      .where("id", "=", id)
      .executeTakeFirst();
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
    return this.db
      .selectFrom("reports")
      .select(plainColumns)
      .select(this.documentBytes())
      .where("user_id", "=", userId)
      .where("id", "=", id)
      .executeTakeFirst();
  }

  /**
   * The one read not scoped to an owner: the report page must find a report by id for visitors, and
   * ReportAccess decides what they may see.
   */
  async findForPage(id: number): Promise<DisplayRow | undefined> {
    return this.db
      .selectFrom("reports")
      .select(plainColumns)
      .select(this.documentBytes())
      .where("id", "=", id)
      .executeTakeFirst();
  }

  async update(userId: number, id: number, changes: Partial<NewReport>): Promise<ReportRow | undefined> {
    return this.db
      .updateTable("reports")
      .set(changes)
      .where("user_id", "=", userId)
      .where("id", "=", id)
      .returningAll()
      .executeTakeFirst();
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
        .orderBy(query.sortBy, query.direction)
        .orderBy("id", query.direction)
        .limit(query.limit)
        .offset(query.offset)
        .execute(),
    ]);
    return { rows, total: Number(counted.total) };
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

  /** The JSON document columns, as bytes where the driver hands them over cheaply (see DisplayRow). */
  private documentBytes() {
    const pg = this.store.dialect === "postgres";
    const bytes = <C extends "summary" | "categories" | "results">(column: C) =>
      (pg
        ? sql<string | Buffer>`${sql.ref(column)}`
        : sql<string | Buffer>`cast(${sql.ref(column)} as blob)`
      ).as(column);
    return [bytes("summary"), bytes("categories"), bytes("results")] as const;
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
