/**
 * Queries on crawl rows: creating, finding, listing, cancelling and deleting a user's crawls (each naming the
 * owner; the crawl job reaches its crawl by id), the schedule's next run, the leases a part takes on the row
 * (seeding, finishing), a failed start, and the counters on the row, recomputed from the pages (one grouped count
 * over an index) so they can never drift from what the frontier holds. The frontier and politeness are in
 * `frontier-store.ts`, what the site checks read and write in `site-store.ts`, the pages and issues lists in
 * `crawl-listing-store.ts`.
 */
import { type Kysely, type Selectable, sql } from "kysely";
import { flushingLater } from "../store/flushes-later.js";
import {
  deleteOwned,
  inWorkspace,
  type Owner,
  type WorkspaceScope,
  workspaceOf,
} from "../store/owned-rows.js";
import type {
  CrawlIssuesTable,
  CrawlPagesTable,
  CrawlStatus,
  CrawlsTable,
  Database,
} from "../store/schema.js";
import type { Store } from "../store/store.js";
import { timestamp } from "../timestamps.js";

export type CrawlRow = Selectable<CrawlsTable>;
/**
 * A crawl as lists and event streams show it: its row without what may be large or secret (a list crawl's `urls`, up to 1 MiB;
 * robots.txt; the sealed headers; the audit's password hash; the bookkeeping of its announcement), with the number of listed URLs instead (null when it follows links).
 */
export type CrawlSummaryRow = Omit<
  CrawlRow,
  "urls" | "robots_txt" | "headers" | "password_hash" | "announced_at"
> & {
  url_count: number | null;
};

/** The columns of a `CrawlSummaryRow` read as they are. */
const summaryColumns = [
  "id",
  "user_id",
  "team_id",
  "url",
  "project",
  "status",
  "max_pages",
  "max_depth",
  "sitemaps",
  "include",
  "exclude",
  "mode",
  "privacy",
  "schedule",
  "discovered",
  "analysed",
  "failed",
  "excluded",
  "score",
  "result",
  "issues_high",
  "issues_medium",
  "issues_low",
  "cancel_requested",
  "seeded",
  "started_at",
  "finished_at",
  "next_run_at",
  "parts",
  "reserved",
  "next_request_ms",
  "seed_lease_until",
  "finish_lease_until",
  "urls_offered",
  "urls_dropped",
  "links_offered",
  "links_dropped",
  "error",
  "header_names",
  "extract",
  "checks_recorded",
  "not_reached",
  "created_at",
  "updated_at",
] as const satisfies ReadonlyArray<keyof CrawlSummaryRow>;
export type CrawlPageRow = Selectable<CrawlPagesTable>;
/** A page as listed: its row and its inlinks (`crawl_page_inlinks`, 0 for a page without a row there). */
export type ListedPageRow = CrawlPageRow & { inlinks: number };
export type CrawlIssueRow = Selectable<CrawlIssuesTable>;

export type NewCrawl = Pick<
  CrawlsTable,
  | "user_id"
  | "url"
  | "project"
  | "max_pages"
  | "max_depth"
  | "sitemaps"
  | "include"
  | "exclude"
  | "mode"
  | "privacy"
  | "schedule"
  | "created_at"
  | "updated_at"
> & {
  team_id?: number | null;
  parts: number;
  headers?: string | null;
  header_names?: string;
  urls?: string | null;
  extract?: string;
  password_hash?: string | null;
};

export interface CrawlListQuery {
  project?: string;
  status?: CrawlStatus;
  direction: "asc" | "desc";
  limit: number;
  offset: number;
}

export class CrawlStore {
  private readonly db: Kysely<Database>;

  private readonly dialect: Store["dialect"];

  constructor(store: Store) {
    this.db = store.db;
    this.dialect = store.dialect;
  }

  insert(crawl: NewCrawl): Promise<CrawlRow> {
    return this.db
      .insertInto("crawls")
      .values({ ...crawl, status: "queued", score: null, result: null, robots_txt: null })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  find(owner: Owner, id: number): Promise<CrawlRow | undefined> {
    return this.db
      .selectFrom("crawls")
      .selectAll()
      .where(inWorkspace(owner))
      .where("id", "=", id)
      .executeTakeFirst();
  }

  /** The crawl by its creator's id, whatever its workspace (a crawl job's payload names the creator). */
  findByCreator(userId: number, id: number): Promise<CrawlRow | undefined> {
    return this.db
      .selectFrom("crawls")
      .selectAll()
      .where("user_id", "=", userId)
      .where("id", "=", id)
      .executeTakeFirst();
  }

  /** The workspace that holds a crawl, by its creator's id (what the background work's events name). */
  async workspaceOfCrawl(userId: number, id: number): Promise<WorkspaceScope | undefined> {
    const row = await this.db
      .selectFrom("crawls")
      .select(["user_id", "team_id"])
      .where("user_id", "=", userId)
      .where("id", "=", id)
      .executeTakeFirst();
    return row && workspaceOf(row);
  }

  /** The crawl as lists and event streams show it (no URL list: its count), or undefined. */
  findSummary(owner: Owner, id: number): Promise<CrawlSummaryRow | undefined> {
    return this.db
      .selectFrom("crawls")
      .select(summaryColumns)
      .select(this.urlCount())
      .where(inWorkspace(owner))
      .where("id", "=", id)
      .executeTakeFirst();
  }

  /** How many URLs a list crawl's `urls` holds (null for a crawl that follows links), counted in the database. */
  private urlCount() {
    return (
      this.dialect === "postgres"
        ? sql<number | null>`json_array_length(urls::json)`
        : sql<number | null>`json_array_length(urls)`
    ).as("url_count");
  }

  async list(owner: Owner, query: CrawlListQuery): Promise<{ rows: CrawlSummaryRow[]; total: number }> {
    let mine = this.db.selectFrom("crawls").where(inWorkspace(owner));
    if (query.project !== undefined) mine = mine.where("project", "=", query.project);
    if (query.status !== undefined) mine = mine.where("status", "=", query.status);
    const [rows, counted] = await Promise.all([
      mine
        .select(summaryColumns)
        .select(this.urlCount())
        .orderBy("id", query.direction)
        .limit(query.limit)
        .offset(query.offset)
        .execute(),
      mine.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(counted.n) };
  }

  /** Scheduled crawls due to run again, soonest first. */
  dueScheduled(now: string, limit: number) {
    return this.db
      .selectFrom("crawls")
      .selectAll()
      .where("next_run_at", "is not", null)
      .where("next_run_at", "<=", now)
      .orderBy("next_run_at")
      .orderBy("id")
      .limit(limit)
      .execute();
  }

  /** Moves a crawl's next run from what it was to `to` (null: never); false when another process did first. */
  async moveNextRun(id: number, from: string, to: string | null): Promise<boolean> {
    const moved = await this.db
      .updateTable("crawls")
      .set({ next_run_at: to })
      .where("id", "=", id)
      .where("next_run_at", "=", from)
      .executeTakeFirst();
    return Number(moved.numUpdatedRows) === 1;
  }

  async activeCount(userId: number): Promise<number> {
    const row = await this.db
      .selectFrom("crawls")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("user_id", "=", userId)
      .where("status", "in", ["queued", "running"])
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Asks a queued or running crawl to stop; undefined when it is not the user's or already finished. */
  async requestCancel(owner: Owner, id: number, at: string): Promise<CrawlRow | undefined> {
    return this.db
      .updateTable("crawls")
      .set({ cancel_requested: 1, updated_at: at })
      .where(inWorkspace(owner))
      .where("id", "=", id)
      .where("status", "in", ["queued", "running"])
      .returningAll()
      .executeTakeFirst();
  }

  delete(owner: Owner, id: number): Promise<boolean> {
    return deleteOwned(this.db, "crawls", owner, id);
  }

  /** Cancels a crawl that has not started; undefined when it has. */
  cancelQueued(id: number, now: string): Promise<CrawlRow | undefined> {
    return this.db
      .updateTable("crawls")
      .set({ status: "cancelled", cancel_requested: 1, finished_at: now, updated_at: now })
      .where("id", "=", id)
      .where("status", "=", "queued")
      .returningAll()
      .executeTakeFirst();
  }

  /**
   * A queued crawl becomes running (a running one stays so, its `updated_at` untouched: a part's new turn is
   * no change, and the counts' turns go by `updated_at`); undefined when it has ended.
   */
  markRunning(id: number, now: string): Promise<CrawlRow | undefined> {
    return this.db
      .updateTable("crawls")
      .set({
        status: "running",
        started_at: sql<string>`coalesce(started_at, ${now})`,
        updated_at: sql<string>`case when status = 'running' then updated_at else ${now} end`,
      })
      .where("id", "=", id)
      .where("status", "in", ["queued", "running"])
      .returningAll()
      .executeTakeFirst();
  }

  /** Ends a running crawl with these changes; undefined when it was not running (it ended elsewhere). */
  endRunning(id: number, changes: Partial<Omit<CrawlRow, "id" | "user_id">>): Promise<CrawlRow | undefined> {
    return this.db
      .updateTable("crawls")
      .set(changes)
      .where("id", "=", id)
      .where("status", "=", "running")
      .returningAll()
      .executeTakeFirst();
  }

  /** Records that the crawl's end was announced (migration 039). */
  async markAnnounced(id: number, now: string): Promise<void> {
    await this.db.updateTable("crawls").set({ announced_at: now }).where("id", "=", id).execute();
  }

  /**
   * Crawls that ended `complete` or `failed` before `before` and whose end was never announced (their process
   * died in between), oldest first: the partial index `crawls_unannounced` holds only these.
   */
  unannounced(before: string, limit: number): Promise<Array<Pick<CrawlRow, "id" | "user_id" | "status">>> {
    return (
      this.db
        .selectFrom("crawls")
        .select(["id", "user_id", "status"])
        .where("announced_at", "is", null)
        // Written as the index's own text: SQLite uses a partial index only when the query implies its condition,
        // which bound parameters never do (`status in (?, ?)` scanned the table).
        .where(sql<boolean>`status in ('complete', 'failed')`)
        .where("finished_at", "<", before)
        .orderBy("finished_at")
        .limit(limit)
        .execute()
    );
  }

  update(id: number, changes: Partial<Omit<CrawlRow, "id" | "user_id">>): Promise<CrawlRow | undefined> {
    return this.db.updateTable("crawls").set(changes).where("id", "=", id).returningAll().executeTakeFirst();
  }

  /**
   * The right to seed the crawl (read robots.txt and the sitemaps) or to judge it once finished, held until
   * `until`: true for one part at a time (another may take it once it has run out, should the part holding it
   * stop).
   */
  async takeLease(
    crawlId: number,
    lease: "seed_lease_until" | "finish_lease_until",
    now: string,
    until: string,
  ): Promise<boolean> {
    const taken = await this.db
      .updateTable("crawls")
      .set({ [lease]: until })
      .where("id", "=", crawlId)
      .where("status", "=", "running")
      .where((eb) => eb.or([eb(lease, "is", null), eb(lease, "<", now)]))
      .executeTakeFirst();
    return Number(taken.numUpdatedRows) === 1;
  }

  /**
   * Extends a lease this part holds (its column still reads `heldUntil`, the value it set) to `until`; false
   * when another part has taken it meanwhile or the crawl no longer runs.
   */
  async renewLease(
    crawlId: number,
    lease: "seed_lease_until" | "finish_lease_until",
    heldUntil: string,
    until: string,
  ): Promise<boolean> {
    const renewed = await this.db
      .updateTable("crawls")
      .set({ [lease]: until })
      .where("id", "=", crawlId)
      .where("status", "=", "running")
      .where(lease, "=", heldUntil)
      .executeTakeFirst();
    return Number(renewed.numUpdatedRows) === 1;
  }

  /**
   * The start page (or a hop of its redirects) failed: the crawl is asked to stop, and ends `failed` with this
   * error (see the crawler's finish). Only while it runs.
   */
  async failStart(crawlId: number, error: { reason: string; message: string }, at: string): Promise<void> {
    await this.db
      .updateTable("crawls")
      .set({ error: JSON.stringify(error), cancel_requested: 1, updated_at: at })
      .where("id", "=", crawlId)
      .where("status", "=", "running")
      .execute();
  }

  /**
   * Recomputes the crawl's counters unless the crawl's row changed less than `everyMs` before `now` (every count
   * sets `updated_at`): the count reads every page's row, so however many parts in however many processes ask,
   * the crawl is counted a few times a second at most. The part that asks first takes the turn with one
   * conditional update. False when it was not its turn. On PostgreSQL both writes of the crawl's row (the turn,
   * the counts) commit without waiting for the WAL's flush (`flushingLater`): the row, which every claim writes,
   * is locked for the statement only, and counts lost in a crash are counted again.
   */
  async refreshCountersUnlessRecent(crawlId: number, everyMs: number, now: Date): Promise<boolean> {
    const at = timestamp(now);
    const turn = await this.db
      .updateTable("crawls")
      .set({ updated_at: at })
      .where("id", "=", crawlId)
      .where("updated_at", "<=", timestamp(new Date(now.getTime() - everyMs)))
      .$if(this.dialect === "postgres", (query) => query.where(flushingLater()))
      .executeTakeFirst();
    if (Number(turn.numUpdatedRows) === 0) return false;
    await this.refreshCounters(crawlId, at);
    return true;
  }

  /** Recomputes the crawl's counters from its pages and returns the crawl. */
  async refreshCounters(crawlId: number, at: string): Promise<CrawlRow | undefined> {
    const counts = await this.db
      .selectFrom("crawl_pages")
      .select(["state", (eb) => eb.fn.countAll<number>().as("n")])
      .select(sql<number>`sum(case when report_id is not null then 1 else 0 end)`.as("reported"))
      .select(sql<number>`sum(case when excluded = 'limit' then 1 else 0 end)`.as("limited"))
      .where("crawl_id", "=", crawlId)
      .groupBy("state")
      .execute();
    const of = (state: string) => Number(counts.find((row) => row.state === state)?.n ?? 0);
    const discovered = counts.reduce((sum, row) => sum + Number(row.n), 0);
    const analysed = Number(counts.find((row) => row.state === "done")?.reported ?? 0);
    const notReached = counts.reduce((sum, row) => sum + Number(row.limited ?? 0), 0);
    return this.db
      .updateTable("crawls")
      .set({
        discovered,
        analysed,
        failed: of("failed"),
        excluded: of("excluded"),
        not_reached: notReached,
        updated_at: at,
      })
      .where("id", "=", crawlId)
      .$if(this.dialect === "postgres", (query) => query.where(flushingLater()))
      .returningAll()
      .executeTakeFirst();
  }
}
