/**
 * Reads of the reports table for display, list and search. A request's reads take its workspace (owned-rows.ts
 * `inWorkspace`: a report is found only through its own); the background work's `find` takes the report's
 * creator, and `findForPage` nothing (the report page's visitors). Lists page with a stable order (the sort key,
 * then id in the same direction).
 */
import { type Expression, type Kysely, type RawBuilder, type Selectable, type SqlBool, sql } from "kysely";
import { unpackResults } from "./analysis-document.js";
import { escapeLike } from "./like-pattern.js";
import { inWorkspace, type Owner, type WorkspaceScope, workspaceOf } from "./owned-rows.js";
import {
  type DisplayRow,
  type ReportListQuery,
  type ReportRow,
  type ReportSortKey,
  shownDocument,
  shownDocumentBytes,
  shownDocuments,
  shownResults,
  unpacked,
} from "./report-rows.js";
import type { Database, ReportsTable } from "./schema.js";
import type { Store } from "./store.js";

/**
 * SQLite: up to this many trigram matches across all users, the FTS5 index drives a URL search; beyond it the
 * user's own index entries are scanned (see `urlContains`). Measured on 200,000 reports: driving costs about
 * 5 µs a match, a scan about 0.1 µs an entry of the user's.
 */
const trigramDrivenMatches = 2000;

const plainColumns = [
  "id",
  "user_id",
  "team_id",
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

export class ReportReads {
  private readonly db: Kysely<Database>;

  constructor(private readonly store: Store) {
    this.db = store.db;
  }

  /** The report by its creator's id (the background work that analyses it); see `findIn` for a request's. */
  find(userId: number, id: number): Promise<ReportRow | undefined> {
    return this.findWithin(this.db, userId, id);
  }

  /** `find` inside the caller's transaction. */
  findWithin(db: Kysely<Database>, userId: number, id: number): Promise<ReportRow | undefined> {
    return this.findWhere(db, sql<SqlBool>`user_id = ${userId}`, id);
  }

  /** The workspace's report with this id. */
  findIn(owner: Owner, id: number): Promise<ReportRow | undefined> {
    return this.findWhere(this.db, inWorkspace(owner), id);
  }

  private async findWhere(
    db: Kysely<Database>,
    condition: Expression<SqlBool>,
    id: number,
  ): Promise<ReportRow | undefined> {
    const row = await db
      .selectFrom("reports")
      .selectAll()
      .select([...shownDocuments, shownResults.as("packed_results")])
      .where(condition)
      .where("id", "=", id)
      .executeTakeFirst();
    return row && unpacked(row);
  }

  /** A row an update returned, with the documents of the analysis it shows. */
  async withResults(row: Selectable<ReportsTable>): Promise<ReportRow> {
    const none = { summary: null, categories: null, results: null };
    if (row.analysis_id === null) return { ...row, ...none };
    const shown = await this.db
      .selectFrom("analyses")
      .select(["summary", "categories", "results"])
      .where("id", "=", row.analysis_id)
      .executeTakeFirst();
    if (!shown) return { ...row, ...none };
    return { ...row, ...shown, results: shown.results ? unpackResults(shown.results) : null };
  }

  /** The workspace's latest report of this URL (its id, score and result). */
  reportOfUrl(owner: Owner, url: string): Promise<Pick<ReportRow, "id" | "score" | "result"> | undefined> {
    // Run once per crawled page: its (user, URL) index is the plan only while the table's statistics are
    // current, which a fast crawl's own upkeep sees to on PostgreSQL (statistics-upkeep.ts).
    return this.db
      .selectFrom("reports")
      .select(["id", "score", "result"])
      .where(inWorkspace(owner))
      .where("url", "=", url)
      .orderBy("id", "desc")
      .limit(1)
      .executeTakeFirst();
  }

  /**
   * `reportOfUrl` of several URLs in one read (a crawl's part looks up the pages it claimed at once): the
   * workspace's latest report of each URL that has one.
   */
  async reportsOfUrls(
    owner: Owner,
    urls: readonly string[],
  ): Promise<Map<string, Pick<ReportRow, "id" | "score" | "result">>> {
    const latest = new Map<string, Pick<ReportRow, "id" | "score" | "result">>();
    if (urls.length === 0) return latest;
    const rows = await this.db
      .selectFrom("reports")
      .select(["id", "url", "score", "result"])
      .where(inWorkspace(owner))
      .where("url", "in", urls)
      .execute();
    for (const { url, ...report } of rows) {
      if ((latest.get(url)?.id ?? 0) < report.id) latest.set(url, report);
    }
    return latest;
  }

  /** The id of the workspace's newest report of exactly this URL, if any. */
  async newestIdForUrl(owner: Owner, url: string): Promise<number | undefined> {
    const found = await this.db
      .selectFrom("reports")
      .select("id")
      .where(inWorkspace(owner))
      .where("url", "=", url)
      .orderBy("id", "desc")
      .limit(1)
      .executeTakeFirst();
    return found?.id;
  }

  /** The workspace that holds a report, by its creator's id (what the background work's events name). */
  async workspaceOfReport(userId: number, id: number): Promise<WorkspaceScope | undefined> {
    const row = await this.ownersWhere(sql<SqlBool>`user_id = ${userId}`, id);
    return row && workspaceOf(row);
  }

  /** The creator of the workspace's report with this id (whose id its analyses carry); undefined with none. */
  async creatorIn(owner: Owner, id: number): Promise<number | undefined> {
    return (await this.ownersWhere(inWorkspace(owner), id))?.user_id;
  }

  private ownersWhere(condition: Expression<SqlBool>, id: number) {
    return this.db
      .selectFrom("reports")
      .select(["user_id", "team_id"])
      .where(condition)
      .where("id", "=", id)
      .executeTakeFirst();
  }

  async findForDisplay(owner: Owner, id: number): Promise<DisplayRow | undefined> {
    const row = await this.db
      .selectFrom("reports")
      .select(plainColumns)
      .select(this.documentBytes())
      .where(inWorkspace(owner))
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

  async list(owner: Owner, query: ReportListQuery): Promise<{ rows: DisplayRow[]; total: number }> {
    let filtered = this.db.selectFrom("reports").where(inWorkspace(owner));
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
    const shown = this.store.dialect === "postgres" ? shownDocument : shownDocumentBytes;
    return [shown("summary"), shown("categories"), shownResults.as("packed_results")] as const;
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
