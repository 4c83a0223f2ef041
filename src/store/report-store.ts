/**
 * Queries on the reports table. Every query takes the owner's user id: there is no way to read or change a
 * report without naming its owner. Lists page with a stable order (the sort key, then id in the same direction).
 */
import { type Kysely, type SelectQueryBuilder, sql } from "kysely";
import type { Store } from "./database.js";
import type { Database, ReportsTable } from "./schema.js";

export type ReportRow = Omit<ReportsTable, "id"> & { id: number };

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
] as const;
export type NewReport = Omit<ReportsTable, "id">;
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

  constructor(private readonly store: Store) {
    this.db = store.db;
  }

  async insert(report: NewReport): Promise<ReportRow> {
    return this.db.insertInto("reports").values(report).returningAll().executeTakeFirstOrThrow();
  }

  async find(userId: number, id: number): Promise<ReportRow | undefined> {
    return this.db
      .selectFrom("reports")
      .selectAll()
      .where("user_id", "=", userId)
      .where("id", "=", id)
      .executeTakeFirst();
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
    if (query.search !== undefined) filtered = this.whereUrlContains(filtered, query.search);
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
   * Case-insensitive substring match on the URL, with %, _ and \ taken literally. SQLite answers from the FTS5
   * trigram index (a phrase query of three or more characters is a substring query there); shorter needles
   * scan the user's rows. PostgreSQL's ILIKE uses the pg_trgm index.
   */
  private whereUrlContains<O>(
    query: SelectQueryBuilder<Database, "reports", O>,
    needle: string,
  ): SelectQueryBuilder<Database, "reports", O> {
    if (this.store.dialect === "postgres") {
      return query.where(sql<boolean>`url ilike ${`%${escapeLike(needle)}%`} escape '\\'`);
    }
    if ([...needle].length >= 3) {
      const phrase = `"${needle.replace(/"/g, '""')}"`;
      return query.where(
        "id",
        "in",
        sql<number>`(select rowid from reports_url_search where reports_url_search match ${phrase})`,
      );
    }
    return query.where(sql<boolean>`instr(lower(url), lower(${needle})) > 0`);
  }
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}
