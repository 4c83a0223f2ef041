/**
 * Queries on crawls, their pages (the frontier and the results), links and issues. Reads and changes made for a
 * user name the owner; the crawl job reaches its crawl by id. Counters on the crawl row are recomputed from the
 * pages (one grouped count over an index), so they can never drift from what the frontier holds.
 */
import { type Kysely, type Selectable, sql } from "kysely";
import type { SiteFacts, SiteIssue } from "../analysis/site-checks/site-facts.js";
import type {
  CrawlIssuesTable,
  CrawlPagesTable,
  CrawlStatus,
  CrawlsTable,
  Database,
} from "../store/schema.js";
import type { Store } from "../store/store.js";
import { type BatchingOptions, TransactionBatcher } from "../store/transaction-batcher.js";
import { timestamp } from "../timestamps.js";
import { type CrawlBounds, roomFor } from "./crawl-bounds.js";

/** How many pages' links `siteFacts` reads at once. */
const linkBatchPages = 500;

export type CrawlRow = Selectable<CrawlsTable>;
export type CrawlPageRow = Selectable<CrawlPagesTable>;
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
> & { parts: number };

export interface FrontierEntry {
  url: string;
  depth: number | null;
  inSitemap?: boolean;
  /**
   * Linked from a page at `max_depth`: listed as `excluded: limit` (at `depth`, one past the limit) and never
   * fetched, unless the URL is also found within the limit.
   */
  beyondDepth?: boolean;
}

/** What a part's claim got: a page to fetch, or why there is none (see `CrawlStore.claim`). */
export type Claim = CrawlPageRow | "stopped" | "cancelled" | "spent" | undefined;

export type PageFacts = Partial<
  Omit<CrawlPageRow, "id" | "crawl_id" | "url" | "depth" | "in_sitemap" | "inlinks" | "attempts">
>;

export interface CrawlListQuery {
  project?: string;
  status?: CrawlStatus;
  direction: "asc" | "desc";
  limit: number;
  offset: number;
}

export const crawlPageSorts = ["id", "url", "status_code", "depth", "inlinks", "score"] as const;
export const crawlPageStates = ["ok", "redirect", "error", "excluded"] as const;

export interface CrawlPageQuery {
  status?: (typeof crawlPageStates)[number];
  /** Only these URLs (an issue's pages). */
  urls?: string[];
  sort: (typeof crawlPageSorts)[number];
  direction: "asc" | "desc";
  limit: number;
  offset: number;
}

/**
 * How analysed pages are committed on SQLite: together, up to 32 at once, the first waiting at most 100 ms for
 * others. A part does not wait for its page's commit before it claims and fetches its next page (see the
 * crawler), so the wait costs a crawl nothing but the lag of its counts.
 */
const pageBatching: BatchingOptions = { windowMs: 100, maxWrites: 32 };

export class CrawlStore {
  private readonly db: Kysely<Database>;

  private readonly dialect: Store["dialect"];

  /** SQLite: analysed pages are committed together (see transaction-batcher.ts); absent on PostgreSQL. */
  private readonly pageCommits: TransactionBatcher | undefined;
  /** How many of the pages waiting for that commit add URLs with a known depth. */
  private waitingPagesAddingDepths = 0;

  constructor(store: Store) {
    this.db = store.db;
    this.dialect = store.dialect;
    this.pageCommits =
      store.dialect === "sqlite" ? new TransactionBatcher(store.db, pageBatching) : undefined;
  }

  insert(crawl: NewCrawl): Promise<CrawlRow> {
    return this.db
      .insertInto("crawls")
      .values({ ...crawl, status: "queued", score: null, result: null, robots_txt: null })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  find(userId: number, id: number): Promise<CrawlRow | undefined> {
    return this.db
      .selectFrom("crawls")
      .selectAll()
      .where("user_id", "=", userId)
      .where("id", "=", id)
      .executeTakeFirst();
  }

  async list(userId: number, query: CrawlListQuery): Promise<{ rows: CrawlRow[]; total: number }> {
    let mine = this.db.selectFrom("crawls").where("user_id", "=", userId);
    if (query.project !== undefined) mine = mine.where("project", "=", query.project);
    if (query.status !== undefined) mine = mine.where("status", "=", query.status);
    const [rows, counted] = await Promise.all([
      mine.selectAll().orderBy("id", query.direction).limit(query.limit).offset(query.offset).execute(),
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
  async requestCancel(userId: number, id: number, at: string): Promise<CrawlRow | undefined> {
    return this.db
      .updateTable("crawls")
      .set({ cancel_requested: 1, updated_at: at })
      .where("user_id", "=", userId)
      .where("id", "=", id)
      .where("status", "in", ["queued", "running"])
      .returningAll()
      .executeTakeFirst();
  }

  async delete(userId: number, id: number): Promise<boolean> {
    const result = await this.db
      .deleteFrom("crawls")
      .where("user_id", "=", userId)
      .where("id", "=", id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
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

  /** A queued crawl becomes running (a running one stays so); undefined when it has ended. */
  markRunning(id: number, now: string): Promise<CrawlRow | undefined> {
    return this.db
      .updateTable("crawls")
      .set({ status: "running", started_at: sql<string>`coalesce(started_at, ${now})`, updated_at: now })
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

  update(id: number, changes: Partial<Omit<CrawlRow, "id" | "user_id">>): Promise<CrawlRow | undefined> {
    return this.db.updateTable("crawls").set(changes).where("id", "=", id).returningAll().executeTakeFirst();
  }

  /**
   * Adds URLs to the frontier within the crawl's bounds (see `admit`): the seed, a redirect's target. At most
   * `newAtMost` new URLs are offered; the rest are dropped (and counted) at once.
   */
  async discover(
    crawlId: number,
    given: FrontierEntry[],
    bounds: CrawlBounds,
    newAtMost = Number.POSITIVE_INFINITY,
  ): Promise<void> {
    const { discovered } = await this.admit(this.db, crawlId, bounds, [], given, newAtMost);
    await this.addToFrontier(crawlId, discovered);
  }

  /**
   * What of a page's links and of the URLs it adds the crawl's bounds let it store: a URL already in the
   * frontier always (its row may only change), a new one while the crawl holds fewer than `bounds.urls`; the
   * page's first `bounds.linksPerPage` links while the crawl has recorded fewer than `bounds.links`. What is
   * left out is counted on the crawl. The room is taken with one atomic increment of the crawl's offered
   * counts (the value before is the value after less what this page asked), so parts running at once never
   * store more than the bounds together. On PostgreSQL that increment runs before the page's transaction, in a
   * statement of its own: the crawl's row is never locked while the page's rows are (a claim locks them in the
   * other order); a page whose transaction then fails only leaves room unused. On SQLite it runs inside it.
   */
  private async admit(
    db: Kysely<Database>,
    crawlId: number,
    bounds: CrawlBounds,
    links: Array<{ to: string; nofollow: boolean }>,
    given: FrontierEntry[],
    newAtMost = Number.POSITIVE_INFINITY,
  ): Promise<{ links: Array<{ to: string; nofollow: boolean }>; discovered: FrontierEntry[] }> {
    const entries = mergedByUrl(given);
    const known = await this.knownUrls(db, crawlId, entries);
    const allFresh = entries.filter((entry) => !known.has(entry.url));
    const fresh = allFresh.slice(0, newAtMost);
    const pageLinks = links.slice(0, bounds.linksPerPage);
    if (allFresh.length === 0 && links.length === 0) return { links, discovered: entries };
    const [larger, smaller] =
      this.dialect === "postgres" ? [sql`greatest`, sql`least`] : [sql`max`, sql`min`];
    // Set expressions read the row as it was: what this page asked beyond the bound is what it drops.
    const dropped = (column: "urls_offered" | "links_offered", asked: number, bound: number) =>
      sql<number>`${larger}(0, ${smaller}(${asked}, ${sql.ref(column)} + ${asked} - ${bound}))`;
    const counted = await db
      .updateTable("crawls")
      .set({
        urls_offered: sql<number>`urls_offered + ${fresh.length}`,
        urls_dropped: sql<number>`urls_dropped + ${allFresh.length - fresh.length} + ${dropped(
          "urls_offered",
          fresh.length,
          bounds.urls,
        )}`,
        links_offered: sql<number>`links_offered + ${pageLinks.length}`,
        links_dropped: sql<number>`links_dropped + ${links.length - pageLinks.length} + ${dropped(
          "links_offered",
          pageLinks.length,
          bounds.links,
        )}`,
      })
      .where("id", "=", crawlId)
      .returning(["urls_offered", "links_offered"])
      .executeTakeFirst();
    if (!counted) return { links: [], discovered: [] };
    const urlRoom = roomFor(Number(counted.urls_offered) - fresh.length, fresh.length, bounds.urls);
    const linkRoom = roomFor(
      Number(counted.links_offered) - pageLinks.length,
      pageLinks.length,
      bounds.links,
    );
    const admitted = new Set(fresh.slice(0, urlRoom).map((entry) => entry.url));
    return {
      links: pageLinks.slice(0, linkRoom),
      discovered: entries.filter((entry) => known.has(entry.url) || admitted.has(entry.url)),
    };
  }

  /** Which of these URLs the crawl's frontier holds already. */
  private async knownUrls(
    db: Kysely<Database>,
    crawlId: number,
    entries: FrontierEntry[],
  ): Promise<Set<string>> {
    const known = new Set<string>();
    for (let start = 0; start < entries.length; start += 500) {
      const rows = await db
        .selectFrom("crawl_pages")
        .select("url")
        .where("crawl_id", "=", crawlId)
        .where(
          "url",
          "in",
          entries.slice(start, start + 500).map((entry) => entry.url),
        )
        .execute();
      for (const row of rows) known.add(row.url);
    }
    return known;
  }

  /**
   * Adds URLs to the frontier (unbounded: callers admit them first); a URL already there keeps its row (its
   * depth lowered to the smaller one, its sitemap mark kept). A URL beyond the depth limit is inserted as
   * `excluded: limit` and changes no row; a URL excluded so that is queued again when found within the limit.
   * Inserted in batches, each URL once (a statement may not touch a row twice).
   */
  private async addToFrontier(
    crawlId: number,
    given: FrontierEntry[],
    db: Kysely<Database> = this.db,
  ): Promise<void> {
    const entries = mergedByUrl(given);
    // A row excluded for the depth limit (or the budget), found now at a known depth within the limit.
    const requeued = sql<boolean>`(crawl_pages.state = 'excluded' and crawl_pages.excluded = 'limit'
      and excluded.depth is not null and crawl_pages.depth is not null and excluded.depth < crawl_pages.depth)`;
    for (let start = 0; start < entries.length; start += 200) {
      const batch = entries.slice(start, start + 200);
      await db
        .insertInto("crawl_pages")
        .values(
          batch.map((entry) => ({
            crawl_id: crawlId,
            url: entry.url,
            depth: entry.depth,
            state: entry.beyondDepth ? ("excluded" as const) : ("queued" as const),
            excluded: entry.beyondDepth ? ("limit" as const) : null,
            in_sitemap: entry.inSitemap ? 1 : 0,
            // Every other column starts null or at its default: naming them would only bind more values.
          })),
        )
        .onConflict((conflict) =>
          conflict
            .columns(["crawl_id", "url"])
            .doUpdateSet({
              in_sitemap: sql<number>`case when excluded.in_sitemap = 1 then 1 else crawl_pages.in_sitemap end`,
              depth: sql<number | null>`case
                when crawl_pages.depth is null then excluded.depth
                when excluded.depth is null then crawl_pages.depth
                when excluded.depth < crawl_pages.depth then excluded.depth
                else crawl_pages.depth end`,
              state: sql<"queued">`case when ${requeued} then 'queued' else crawl_pages.state end`,
              excluded: sql<null>`case when ${requeued} then null else crawl_pages.excluded end`,
            })
            // Only where that changes something: most links lead to URLs already known at their depth, and a
            // row updated to the same values is still written (its page, and its entry in the state index).
            // A URL beyond the depth limit never changes a row it finds.
            .where(
              sql<boolean>`excluded.state = 'queued' and ((excluded.in_sitemap = 1 and crawl_pages.in_sitemap = 0)
                or (excluded.depth is not null
                  and (crawl_pages.depth is null or excluded.depth < crawl_pages.depth)))`,
            ),
        )
        .execute();
    }
  }

  /**
   * Pages left `fetching` go back to the queue, and their fetches back to the budget: those of this part (a part
   * starting again after its process stopped) and those whose claim ran out (a part that will not come back).
   */
  async requeueStale(crawlId: number, part: number, now: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const requeued = await trx
        .updateTable("crawl_pages")
        .set({ state: "queued", claimed_by: null, lease_until: null })
        .where("crawl_id", "=", crawlId)
        .where("state", "=", "fetching")
        .where((eb) => eb.or([eb("claimed_by", "=", part), eb("lease_until", "<", now)]))
        .executeTakeFirst();
      const count = Number(requeued.numUpdatedRows);
      if (count > 0) {
        await trx
          .updateTable("crawls")
          .set({ reserved: sql<number>`reserved - ${count}` })
          .where("id", "=", crawlId)
          .execute();
      }
    });
  }

  /**
   * Takes one fetch from the crawl's budget and the next queued page (shallowest first, then in discovery
   * order), marked `fetching` by this part until `leaseUntil`. `"stopped"` when the crawl no longer runs,
   * `"cancelled"` when it was asked to stop, `"spent"` when `max_pages` fetches are taken; undefined when no page
   * is queued. Pages known only from a sitemap (no depth) come after every page with a depth, and only with
   * `unknownDepth` and while no part fetches a page with a depth (its links may give them one: a sitemap URL
   * that redirects would otherwise pass its missing depth on to the pages it leads to). One transaction: on PostgreSQL the crawl's row lock orders the parts. The budget is taken
   * only from a running crawl not asked to stop, so the usual claim reads the crawl's row no more than that.
   */
  claim(crawlId: number, part: number, leaseUntil: string, unknownDepth: boolean): Promise<Claim> {
    return this.db.transaction().execute(async (trx) => {
      const reserved = await trx
        .updateTable("crawls")
        .set({ reserved: sql<number>`reserved + 1` })
        .where("id", "=", crawlId)
        .where("status", "=", "running")
        .where("cancel_requested", "=", 0)
        .where(sql<boolean>`reserved < max_pages`)
        .executeTakeFirst();
      if (Number(reserved.numUpdatedRows) === 0) {
        const crawl = await trx
          .selectFrom("crawls")
          .select(["status", "cancel_requested"])
          .where("id", "=", crawlId)
          .executeTakeFirst();
        if (crawl?.status !== "running") return "stopped";
        return crawl.cancel_requested === 1 ? "cancelled" : "spent";
      }
      const queued = trx
        .selectFrom("crawl_pages")
        .selectAll()
        .where("crawl_id", "=", crawlId)
        .where("state", "=", "queued");
      const next =
        (await queued
          .where("depth", "is not", null)
          .orderBy("depth")
          .orderBy("id")
          .limit(1)
          .executeTakeFirst()) ??
        (unknownDepth && !(await fetchingWithDepth(trx, crawlId))
          ? await queued.where("depth", "is", null).orderBy("id").limit(1).executeTakeFirst()
          : undefined);
      if (!next) {
        await trx
          .updateTable("crawls")
          .set({ reserved: sql<number>`reserved - 1` })
          .where("id", "=", crawlId)
          .execute();
        return undefined;
      }
      const claimed = {
        state: "fetching" as const,
        attempts: next.attempts + 1,
        claimed_by: part,
        lease_until: leaseUntil,
      };
      await trx.updateTable("crawl_pages").set(claimed).where("id", "=", next.id).execute();
      return { ...next, ...claimed };
    });
  }

  /** Extends this part's claim on a page it is still working on. */
  async renewClaim(pageId: number, part: number, until: string): Promise<void> {
    await this.db
      .updateTable("crawl_pages")
      .set({ lease_until: until })
      .where("id", "=", pageId)
      .where("state", "=", "fetching")
      .where("claimed_by", "=", part)
      .execute();
  }

  /** Pages queued or being fetched by some part. */
  async unfinishedCount(crawlId: number): Promise<number> {
    const row = await this.db
      .selectFrom("crawl_pages")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("crawl_id", "=", crawlId)
      .where("state", "in", ["queued", "fetching"])
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /**
   * Politeness shared by every part: takes the next start time for a request to the site (requests start
   * `delayMs` apart, never before a pause ends) and returns it, in milliseconds since the epoch. With no delay
   * there is nothing to take, only a pause to honour: a read, not a write (and so no commit per page). A start
   * later than `waitAtMostMs` from now is not taken, only returned: the part comes back for it later.
   */
  async nextRequestAt(
    crawlId: number,
    delayMs: number,
    nowMs: number,
    waitAtMostMs = Number.MAX_SAFE_INTEGER,
  ): Promise<number> {
    const next = async () => {
      const row = await this.db
        .selectFrom("crawls")
        .select("next_request_ms")
        .where("id", "=", crawlId)
        .executeTakeFirst();
      return Math.max(Number(row?.next_request_ms ?? nowMs), nowMs);
    };
    if (delayMs === 0) return next();
    const larger = this.dialect === "postgres" ? sql`greatest` : sql`max`;
    const row = await this.db
      .updateTable("crawls")
      .set({ next_request_ms: sql<number>`${larger}(next_request_ms, ${nowMs}) + ${delayMs}` })
      .where("id", "=", crawlId)
      .where("next_request_ms", "<=", Math.min(Number.MAX_SAFE_INTEGER, nowMs + waitAtMostMs))
      .returning("next_request_ms")
      .executeTakeFirst();
    if (!row) return next();
    return Number(row.next_request_ms) - delayMs;
  }

  /**
   * Gives a claimed page back unfetched, as if never claimed: queued again, its try and its fetch from the
   * budget returned (its part waits out a delay elsewhere than in a worker's slot).
   */
  async handBack(pageId: number, crawlId: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const page = await trx
        .updateTable("crawl_pages")
        .set({ state: "queued", attempts: sql<number>`attempts - 1` })
        .where("id", "=", pageId)
        .where("state", "=", "fetching")
        .executeTakeFirst();
      if (Number(page.numUpdatedRows) !== 1) return;
      await trx
        .updateTable("crawls")
        .set({ reserved: sql<number>`reserved - 1` })
        .where("id", "=", crawlId)
        .execute();
    });
  }

  /** No request to the site starts before `untilMs` (the site asked for less: 429 or 503). */
  async pauseRequests(crawlId: number, untilMs: number): Promise<void> {
    const larger = this.dialect === "postgres" ? sql`greatest` : sql`max`;
    await this.db
      .updateTable("crawls")
      .set({ next_request_ms: sql<number>`${larger}(next_request_ms, ${untilMs})` })
      .where("id", "=", crawlId)
      .execute();
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
   * Records what became of a claimed page; with `releaseFrom` (its crawl), its fetch goes back to the budget in
   * the same transaction (the page was not fetched after all, or goes back to the queue).
   */
  async settlePage(id: number, facts: PageFacts, releaseFrom?: number): Promise<void> {
    if (releaseFrom === undefined) {
      await this.db.updateTable("crawl_pages").set(facts).where("id", "=", id).execute();
      return;
    }
    await this.db.transaction().execute(async (trx) => {
      await trx.updateTable("crawl_pages").set(facts).where("id", "=", id).execute();
      await trx
        .updateTable("crawls")
        .set({ reserved: sql<number>`reserved - 1` })
        .where("id", "=", releaseFrom)
        .execute();
    });
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

  /** Every queued page left once the page budget is spent becomes `excluded: limit`. */
  async excludeQueued(crawlId: number): Promise<void> {
    await this.db
      .updateTable("crawl_pages")
      .set({ state: "excluded", excluded: "limit" })
      .where("crawl_id", "=", crawlId)
      .where("state", "=", "queued")
      .execute();
  }

  /**
   * One analysed page, in one transaction: its report (stored by `storeReport` inside the transaction), the
   * internal links it has (replacing any recorded for it before), the URLs it adds to the frontier, and its facts
   * with state `done`. A part cut off before the commit leaves nothing of the page, so it is redone; after it,
   * the page is done, never analysed again. The report comes first: on PostgreSQL storing it locks the owner's
   * row (the reports version), so the parts of a user's crawls take their locks on the frontier one transaction
   * at a time and cannot deadlock over URLs they both discover. On SQLite the transaction is shared with the
   * pages analysed at about the same time (`pageBatching`), each page in a savepoint of its own; the promise
   * settles once the page is committed.
   */
  async completePage(
    crawlId: number,
    page: { id: number; url: string },
    facts: PageFacts,
    found: {
      links: Array<{ to: string; nofollow: boolean }>;
      discovered: FrontierEntry[];
      bounds: CrawlBounds;
    },
    storeReport: (trx: Kysely<Database>) => Promise<{ id: number }>,
  ): Promise<void> {
    const admittedBefore = this.pageCommits
      ? undefined
      : await this.admit(this.db, crawlId, found.bounds, found.links, found.discovered);
    const write = async (trx: Kysely<Database>) => {
      const { links, discovered } =
        admittedBefore ?? (await this.admit(trx, crawlId, found.bounds, found.links, found.discovered));
      const report = await storeReport(trx);
      await trx
        .deleteFrom("crawl_links")
        .where("crawl_id", "=", crawlId)
        .where("from_url", "=", page.url)
        .execute();
      for (let start = 0; start < links.length; start += 500) {
        await trx
          .insertInto("crawl_links")
          .values(
            links.slice(start, start + 500).map((link) => ({
              crawl_id: crawlId,
              from_url: page.url,
              to_url: link.to,
              nofollow: link.nofollow ? 1 : 0,
            })),
          )
          .execute();
      }
      await this.addToFrontier(crawlId, discovered, trx);
      await trx
        .updateTable("crawl_pages")
        .set({ ...facts, state: "done", report_id: report.id })
        .where("id", "=", page.id)
        .execute();
    };
    if (!this.pageCommits) return this.db.transaction().execute(write);
    const addsDepths = found.discovered.some((entry) => entry.depth !== null && !entry.beyondDepth);
    if (addsDepths) this.waitingPagesAddingDepths++;
    try {
      await this.pageCommits.run(write);
    } finally {
      if (addsDepths) this.waitingPagesAddingDepths--;
    }
  }

  /**
   * Commits the analysed pages waiting for their shared transaction now (a part with nothing to claim may be
   * waiting for the URLs they add); true when there were any.
   */
  commitWaitingPages(): Promise<boolean> {
    return this.pageCommits?.commitNow() ?? Promise.resolve(false);
  }

  /** Whether analysed pages waiting for their commit add URLs with a known depth (never on PostgreSQL). */
  pagesAddingDepthsWait(): boolean {
    return this.waitingPagesAddingDepths > 0;
  }

  /** Page URLs the crawl has fetched (answered or failed): what `max_pages` bounds. */
  async fetchedCount(crawlId: number): Promise<number> {
    const row = await this.db
      .selectFrom("crawl_pages")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("crawl_id", "=", crawlId)
      .where("state", "in", ["done", "failed"])
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /**
   * Recomputes the crawl's counters unless the crawl's row changed less than `everyMs` before `now` (every count
   * sets `updated_at`): the count reads every page's row, so however many parts in however many processes ask,
   * the crawl is counted a few times a second at most. The part that asks first takes the turn with one
   * conditional update. False when it was not its turn.
   */
  async refreshCountersUnlessRecent(crawlId: number, everyMs: number, now: Date): Promise<boolean> {
    const at = timestamp(now);
    const turn = await this.db
      .updateTable("crawls")
      .set({ updated_at: at })
      .where("id", "=", crawlId)
      .where("updated_at", "<=", timestamp(new Date(now.getTime() - everyMs)))
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
      .where("crawl_id", "=", crawlId)
      .groupBy("state")
      .execute();
    const of = (state: string) => Number(counts.find((row) => row.state === state)?.n ?? 0);
    const discovered = counts.reduce((sum, row) => sum + Number(row.n), 0);
    const analysed = Number(counts.find((row) => row.state === "done")?.reported ?? 0);
    return this.update(crawlId, {
      discovered,
      analysed,
      failed: of("failed"),
      excluded: of("excluded"),
      updated_at: at,
    });
  }

  /** The rounded mean score of the crawl's analysed pages, or null when none was analysed. */
  async meanScore(crawlId: number): Promise<number | null> {
    const row = await this.db
      .selectFrom("crawl_pages")
      .select((eb) => eb.fn.avg<number>("score").as("mean"))
      .where("crawl_id", "=", crawlId)
      .where("score", "is not", null)
      .executeTakeFirstOrThrow();
    return row.mean === null ? null : Math.round(Number(row.mean));
  }

  /**
   * Everything the site checks judge, read from the crawl's rows. A site's URLs recur in every fact about it
   * (a page's own URL, its links' ends, canonicals, redirects), so each URL is kept as one string shared by all
   * of them; and links, by far the most rows, are read for a batch of pages at a time, so they are never held
   * twice over (as database rows and as facts) all at once.
   */
  async siteFacts(crawl: CrawlRow): Promise<SiteFacts> {
    const rows = await this.db
      .selectFrom("crawl_pages")
      .select([
        "url",
        "depth",
        "status_code",
        "error",
        "redirect_to",
        "content_type",
        "in_sitemap",
        "disallowed",
        "excluded",
        "indexable",
        "noindex",
        "canonical",
        "title",
        "meta_description",
        "text_hash",
        "text_minhash",
        "hreflang",
      ])
      .where("crawl_id", "=", crawl.id)
      .orderBy("id")
      .execute();
    const urls = new Map<string, string>();
    const shared = (url: string): string => {
      const known = urls.get(url);
      if (known !== undefined) return known;
      urls.set(url, url);
      return url;
    };
    const sharedOrNull = (url: string | null) => (url === null ? null : shared(url));
    const pages = rows.map((page) => ({
      url: shared(page.url),
      depth: page.depth,
      statusCode: page.status_code,
      error: page.error,
      redirectTo: sharedOrNull(page.redirect_to),
      contentType: page.content_type,
      inSitemap: page.in_sitemap === 1,
      disallowed: page.disallowed === 1,
      excluded: page.excluded,
      indexable: page.indexable === 1,
      noindex: page.noindex === 1,
      canonical: sharedOrNull(page.canonical),
      title: page.title,
      metaDescription: page.meta_description,
      text:
        page.text_hash === null || page.text_minhash === null
          ? null
          : { hash: page.text_hash, minhash: JSON.parse(page.text_minhash) as number[] },
      hreflang:
        page.hreflang === null
          ? []
          : (JSON.parse(page.hreflang) as Array<{ lang: string; url: string }>).map((alternate) => ({
              lang: alternate.lang,
              url: shared(alternate.url),
            })),
    }));
    const links: SiteFacts["links"] = [];
    const counts = await this.db
      .selectFrom("crawls")
      .select("links_dropped")
      .where("id", "=", crawl.id)
      .executeTakeFirst();
    // Links are recorded with a page's facts (`completePage`), its status among them.
    const fetched = pages.filter((page) => page.statusCode !== null).map((page) => page.url);
    for (let start = 0; start < fetched.length; start += linkBatchPages) {
      const batch = await this.db
        .selectFrom("crawl_links")
        .select(["from_url", "to_url", "nofollow"])
        .where("crawl_id", "=", crawl.id)
        .where("from_url", "in", fetched.slice(start, start + linkBatchPages))
        .execute();
      for (const link of batch) {
        links.push({ from: shared(link.from_url), to: shared(link.to_url), nofollow: link.nofollow === 1 });
      }
    }
    return { startUrl: crawl.url, pages, links, linksLeftOut: Number(counts?.links_dropped ?? 0) };
  }

  /** Stores the site findings (replacing earlier ones) and the crawl's issue counts by importance. */
  async saveIssues(crawlId: number, issues: SiteIssue[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom("crawl_issues").where("crawl_id", "=", crawlId).execute();
      if (issues.length > 0) {
        await trx
          .insertInto("crawl_issues")
          .values(
            issues.map((issue, position) => ({
              crawl_id: crawlId,
              position,
              check_id: issue.check,
              category: issue.category,
              importance: issue.importance,
              title: issue.title,
              message: issue.message,
              count: issue.count,
              items: JSON.stringify(issue.items),
              truncated: issue.truncated,
            })),
          )
          .execute();
      }
      const sum = (importance: string) =>
        issues
          .filter((issue) => issue.importance === importance)
          .reduce((total, issue) => total + issue.count, 0);
      await trx
        .updateTable("crawls")
        .set({ issues_high: sum("high"), issues_medium: sum("medium"), issues_low: sum("low") })
        .where("id", "=", crawlId)
        .execute();
    });
  }

  /** The inlink count of every page, from the recorded links (set once the crawl is over). */
  async countInlinks(crawlId: number): Promise<void> {
    await sql`update crawl_pages set inlinks = counted.n
      from (select to_url, count(distinct from_url) as n from crawl_links
            where crawl_id = ${crawlId} and from_url <> to_url group by to_url) as counted
      where crawl_pages.crawl_id = ${crawlId} and crawl_pages.url = counted.to_url`.execute(this.db);
  }

  pages(crawlId: number, page: { limit: number; offset: number }): Promise<CrawlPageRow[]> {
    return this.db
      .selectFrom("crawl_pages")
      .selectAll()
      .where("crawl_id", "=", crawlId)
      .orderBy("id")
      .limit(page.limit)
      .offset(page.offset)
      .execute();
  }

  /**
   * A page of the crawl's pages table: by state (`ok` a 2xx, `redirect` a 3xx, `error` a failed fetch,
   * `excluded` not fetched), limited to some URLs (an issue's pages), sorted by a column.
   */
  async pageTable(crawlId: number, query: CrawlPageQuery): Promise<{ rows: CrawlPageRow[]; total: number }> {
    let pages = this.db.selectFrom("crawl_pages").where("crawl_id", "=", crawlId);
    if (query.status === "ok") pages = pages.where("status_code", ">=", 200).where("status_code", "<", 300);
    if (query.status === "redirect")
      pages = pages.where("status_code", ">=", 300).where("status_code", "<", 400);
    if (query.status === "error") pages = pages.where("state", "=", "failed");
    if (query.status === "excluded") pages = pages.where("state", "=", "excluded");
    if (query.urls !== undefined)
      pages =
        query.urls.length === 0 ? pages.where(sql<boolean>`1 = 0`) : pages.where("url", "in", query.urls);
    const [rows, counted] = await Promise.all([
      pages
        .selectAll()
        .orderBy(query.sort, query.direction === "asc" ? sql`asc nulls first` : sql`desc nulls last`)
        .orderBy("id")
        .limit(query.limit)
        .offset(query.offset)
        .execute(),
      pages.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(counted.n) };
  }

  async pageCount(crawlId: number): Promise<number> {
    const row = await this.db
      .selectFrom("crawl_pages")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("crawl_id", "=", crawlId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  issues(crawlId: number): Promise<CrawlIssueRow[]> {
    return this.db
      .selectFrom("crawl_issues")
      .selectAll()
      .where("crawl_id", "=", crawlId)
      .orderBy("position")
      .execute();
  }
}

/**
 * One entry per URL: the smallest known depth, in the sitemap when any entry is; beyond the depth limit only
 * when every entry is.
 */
function mergedByUrl(entries: FrontierEntry[]): FrontierEntry[] {
  const byUrl = new Map<string, FrontierEntry>();
  for (const entry of entries) {
    const known = byUrl.get(entry.url);
    if (!known || (known.beyondDepth && !entry.beyondDepth)) {
      byUrl.set(entry.url, { ...entry, inSitemap: entry.inSitemap || known?.inSitemap });
      continue;
    }
    if (entry.beyondDepth && !known.beyondDepth) continue;
    if (entry.depth !== null && (known.depth === null || entry.depth < known.depth))
      known.depth = entry.depth;
    if (entry.inSitemap) known.inSitemap = true;
  }
  return [...byUrl.values()];
}

/** Whether a part is fetching a page of the crawl with a known depth (its links may give queued URLs a depth). */
async function fetchingWithDepth(trx: Kysely<Database>, crawlId: number): Promise<boolean> {
  const row = await trx
    .selectFrom("crawl_pages")
    .select("id")
    .where("crawl_id", "=", crawlId)
    .where("state", "=", "fetching")
    .where("depth", "is not", null)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
