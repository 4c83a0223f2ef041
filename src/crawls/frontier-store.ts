/**
 * The frontier of a crawl and its politeness, shared by every part through the database: URLs added within the
 * crawl's bounds (`crawl-bounds.ts`); the claim of the next page (a fetch from the budget and a lease), its
 * renewal, hand-back and requeueing; the start of the next request to the site (starts `delay` apart across
 * parts, a pause after a 429 or 503); and what became of a claimed page, an analysed one stored in one
 * transaction with its links and the URLs it adds (on PostgreSQL one statement when its report is new; on SQLite,
 * a savepoint of a commit shared with the pages analysed at about the same time).
 */
import {
  type Expression,
  type InsertQueryBuilder,
  type Kysely,
  type QueryCreator,
  type RawBuilder,
  sql,
  type UpdateQueryBuilder,
  type UpdateResult,
} from "kysely";
import { flushingLater } from "../store/flushes-later.js";
import type { NewReportTables } from "../store/report-store.js";
import type { Database } from "../store/schema.js";
import type { Dialect, Store } from "../store/store.js";
import { type BatchingOptions, TransactionBatcher } from "../store/transaction-batcher.js";
import { type CrawlBounds, roomFor } from "./crawl-bounds.js";
import type { CrawlPageRow } from "./crawl-store.js";
import {
  insertNamedRows,
  insertPageRowsUnnested,
  PageCheckCodes,
  pageCheckRows,
} from "./page-check-code-store.js";
import { type PageCheck, urlTemplate } from "./page-checks.js";

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

/** An internal link of a page: where it leads, whether it is nofollow, and its anchor text. */
export interface PageLink {
  to: string;
  nofollow: boolean;
  anchor?: string;
}

/** What a part's claim got: a page to fetch, or why there is none (see `FrontierStore.claim`). */
export type Claim = CrawlPageRow | "stopped" | "cancelled" | "spent" | undefined;

export type PageFacts = Partial<
  Omit<CrawlPageRow, "id" | "crawl_id" | "url" | "depth" | "in_sitemap" | "inlinks" | "attempts">
>;

/**
 * How analysed pages are committed on SQLite: together, up to 32 at once, the first waiting at most 100 ms for
 * others. A part does not wait for its page's commit before it claims and fetches its next page (see the
 * crawler), so the wait costs a crawl nothing but the lag of its counts.
 */
const pageBatching: BatchingOptions = { windowMs: 100, maxWrites: 32 };

export class FrontierStore {
  private readonly db: Kysely<Database>;

  private readonly dialect: Store["dialect"];

  /** SQLite: analysed pages are committed together (see transaction-batcher.ts); absent on PostgreSQL. */
  private readonly pageCommits: TransactionBatcher | undefined;
  /** The page checks' codes this store has read (crawl_page_checks stores a check by its code). */
  private readonly checkCodes = new PageCheckCodes();
  /** How many of the pages waiting for that commit add URLs with a known depth. */
  private waitingPagesAddingDepths = 0;

  constructor(store: Store) {
    this.db = store.db;
    this.dialect = store.dialect;
    this.pageCommits =
      store.dialect === "sqlite" ? new TransactionBatcher(store.db, pageBatching) : undefined;
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
   * store more than the bounds together. On PostgreSQL the lookup and the increment are one statement run before
   * the page's transaction, on its own (`admitInOneStatement`): the crawl's row is locked for that statement
   * only, never while the page's rows are (a claim locks them in the other order); a page whose transaction then
   * fails only leaves room unused. On SQLite they run inside it.
   */
  private async admit(
    db: Kysely<Database>,
    crawlId: number,
    bounds: CrawlBounds,
    links: PageLink[],
    given: FrontierEntry[],
    newAtMost = Number.POSITIVE_INFINITY,
    linksLeftOut = 0,
  ): Promise<{
    links: PageLink[];
    discovered: FrontierEntry[];
  }> {
    if (this.dialect === "postgres")
      return this.admitInOneStatement(crawlId, bounds, links, given, newAtMost, linksLeftOut);
    const known = await this.knownUrls(db, crawlId, mergedByUrl(given));
    const { entries, allFresh, fresh, pageLinks } = admissionOf(known, bounds, links, given, newAtMost);
    if (allFresh.length === 0 && links.length === 0) return { links, discovered: entries };
    // Set expressions read the row as it was: what this page asked beyond the bound is what it drops.
    const dropped = (column: "urls_offered" | "links_offered", asked: number, bound: number) =>
      sql<number>`max(0, min(${asked}, ${sql.ref(column)} + ${asked} - ${bound}))`;
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
        links_dropped: sql<number>`links_dropped + ${links.length - pageLinks.length + linksLeftOut} + ${dropped(
          "links_offered",
          pageLinks.length,
          bounds.links,
        )}`,
      })
      .where("id", "=", crawlId)
      .returning(["urls_offered", "links_offered"])
      .executeTakeFirst();
    if (!counted) return { links: [], discovered: [] };
    return admitted(known, { entries, fresh, pageLinks }, counted, bounds);
  }

  /**
   * PostgreSQL: `admit` as one statement run on its own, one round trip instead of two. Its first common table
   * expression reads which of the URLs the frontier holds; the next counts those it does not (the new URLs)
   * and takes their room and the links' with the crawl's offered counts, as `admit` does, unless there is
   * nothing to count; the statement returns the known rows and the counts after the increment. The crawl's row
   * is locked for that statement only, which commits without waiting for the WAL's flush (`flushingLater`).
   */
  private async admitInOneStatement(
    crawlId: number,
    bounds: CrawlBounds,
    links: PageLink[],
    given: FrontierEntry[],
    newAtMost: number,
    linksLeftOut: number,
  ): Promise<{
    links: PageLink[];
    discovered: FrontierEntry[];
  }> {
    const urls = mergedByUrl(given).map((entry) => entry.url);
    const freshAtMost = Math.min(newAtMost, 2 ** 31 - 1);
    const pageLinks = Math.min(links.length, bounds.linksPerPage);
    const asked = sql`least(fresh.n, ${freshAtMost}::integer)`;
    const { rows } = await sql<{
      url: string | null;
      depth: number | null;
      in_sitemap: number | null;
      urls_offered: number | null;
      links_offered: number | null;
    }>`
      with known as (
        select url, depth, in_sitemap from crawl_pages where crawl_id = ${crawlId} and url = any(${urls}::text[])
      ),
      fresh as (
        select count(*)::integer as n from unnest(${urls}::text[]) as given(url)
        where not exists (select 1 from known where known.url = given.url)
      ),
      counted as (
        update crawls set
          urls_offered = urls_offered + ${asked},
          urls_dropped = urls_dropped + fresh.n - ${asked}
            + greatest(0, least(${asked}, urls_offered + ${asked} - ${bounds.urls}::integer)),
          links_offered = links_offered + ${pageLinks}::integer,
          links_dropped = links_dropped + ${links.length - pageLinks + linksLeftOut}::integer
            + greatest(0, least(${pageLinks}::integer, links_offered + ${pageLinks}::integer - ${bounds.links}::integer))
        from fresh
        where crawls.id = ${crawlId} and (fresh.n > 0 or ${links.length}::integer > 0) and ${flushingLater()}
        returning crawls.urls_offered, crawls.links_offered
      )
      select url, depth, in_sitemap, null::integer as urls_offered, null::integer as links_offered from known
      union all
      select null, null, null, urls_offered, links_offered from counted`.execute(this.db);
    const known = new Map<string, KnownRow>();
    let counted: { urls_offered: number; links_offered: number } | undefined;
    for (const row of rows) {
      if (row.url !== null) known.set(row.url, { depth: row.depth, in_sitemap: Number(row.in_sitemap) });
      else counted = { urls_offered: Number(row.urls_offered), links_offered: Number(row.links_offered) };
    }
    const admission = admissionOf(known, bounds, links, given, newAtMost);
    if (admission.allFresh.length === 0 && links.length === 0)
      return { links, discovered: admission.entries };
    // Nothing counted though there was something to count: the crawl's row is gone.
    if (!counted) return { links: [], discovered: [] };
    return admitted(known, admission, counted, bounds);
  }

  /** SQLite: which of these URLs the crawl's frontier holds already, with their depth and sitemap mark. */
  private async knownUrls(
    db: Kysely<Database>,
    crawlId: number,
    entries: FrontierEntry[],
  ): Promise<Map<string, KnownRow>> {
    const known = new Map<string, KnownRow>();
    for (let start = 0; start < entries.length; start += 500) {
      const urls = entries.slice(start, start + 500).map((entry) => entry.url);
      const rows = await db
        .selectFrom("crawl_pages")
        .select(["url", "depth", "in_sitemap"])
        .where("crawl_id", "=", crawlId)
        .where("url", "in", urls)
        .execute();
      for (const row of rows) known.set(row.url, { depth: row.depth, in_sitemap: Number(row.in_sitemap) });
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
    for (let start = 0; start < entries.length; start += 200) {
      const batch = entries.slice(start, start + 200);
      await frontierUpsert(
        db.insertInto("crawl_pages").values(
          batch.map((entry) => ({
            crawl_id: crawlId,
            url: entry.url,
            depth: entry.depth,
            state: entry.beyondDepth ? ("excluded" as const) : ("queued" as const),
            excluded: entry.beyondDepth ? ("limit" as const) : null,
            in_sitemap: entry.inSitemap ? 1 : 0,
            // Every other column starts null or at its default: naming them would only bind more values.
          })),
        ),
      ).execute();
    }
  }

  /**
   * Pages left `fetching` go back to the queue, and their fetches back to the budget: those of this part (a part
   * starting again after its process stopped) and those whose claim ran out (a part that will not come back).
   */
  async requeueStale(crawlId: number, part: number, now: string): Promise<void> {
    await this.givingBackFetches(crawlId, (db) =>
      db
        .updateTable("crawl_pages")
        .set({ state: "queued", claimed_by: null, lease_until: null })
        .where("crawl_id", "=", crawlId)
        .where("state", "=", "fetching")
        .where((eb) => eb.or([eb("claimed_by", "=", part), eb("lease_until", "<", now)])),
    );
  }

  /**
   * Changes pages' rows (`pages`, an update of claimed pages) and gives their fetches back to the crawl's budget,
   * one per page changed: the pages' rows first, then the crawl's, the claim's order. On PostgreSQL one statement
   * run on its own (the update of the pages as its first part, `flushingLater`), so the crawl's row is locked
   * with no round trip to the client before the commit, and not at all when no page changed; on SQLite one
   * transaction.
   */
  private async givingBackFetches(
    crawlId: number,
    pages: (
      db: QueryCreator<Database>,
    ) => UpdateQueryBuilder<Database, "crawl_pages", "crawl_pages", UpdateResult>,
  ): Promise<void> {
    if (this.dialect === "postgres") {
      await this.db
        .with("released", (db) => pages(db).returning("crawl_pages.id"))
        .updateTable("crawls")
        .set({ reserved: sql<number>`reserved - (select count(*) from released)` })
        .where("id", "=", crawlId)
        .where(({ exists, selectFrom }) => exists(selectFrom("released").select("released.id")))
        .where(flushingLater())
        .execute();
      return;
    }
    await this.db.transaction().execute(async (trx) => {
      const count = Number((await pages(trx).executeTakeFirst()).numUpdatedRows);
      if (count === 0) return;
      await trx
        .updateTable("crawls")
        .set({ reserved: sql<number>`reserved - ${count}` })
        .where("id", "=", crawlId)
        .execute();
    });
  }

  /**
   * Takes one fetch from the crawl's budget and the next queued page (shallowest first, then in discovery
   * order), marked `fetching` by this part until `leaseUntil`. `"stopped"` when the crawl no longer runs,
   * `"cancelled"` when it was asked to stop, `"spent"` when `max_pages` fetches are taken; undefined when no page
   * is queued. Pages known only from a sitemap (no depth) come after every page with a depth, and only with
   * `unknownDepth` and while no part fetches a page with a depth (its links may give them one: a sitemap URL
   * that redirects would otherwise pass its missing depth on to the pages it leads to). The page is chosen
   * first, then the budget taken from the crawl's row (only from a running crawl not asked to stop): the order,
   * page then crawl, that every write of both follows. On PostgreSQL that is one statement of its own
   * (`claimInOneStatement`); on SQLite one transaction.
   */
  async claim(crawlId: number, part: number, leaseUntil: string, unknownDepth: boolean): Promise<Claim> {
    if (this.dialect === "postgres") {
      const claimed =
        (await this.claimInOneStatement(crawlId, part, leaseUntil, "known")) ??
        (unknownDepth ? await this.claimInOneStatement(crawlId, part, leaseUntil, "unknown") : undefined);
      return claimed ?? this.whyNoClaim(this.db, crawlId);
    }
    return this.db.transaction().execute(async (trx) => {
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
      const reserved = next
        ? Number(
            (
              await trx
                .updateTable("crawls")
                .set({ reserved: sql<number>`reserved + 1` })
                .where("id", "=", crawlId)
                .where("status", "=", "running")
                .where("cancel_requested", "=", 0)
                .where(sql<boolean>`reserved < max_pages`)
                .executeTakeFirst()
            ).numUpdatedRows,
          )
        : 0;
      if (reserved === 0) return this.whyNoClaim(trx, crawlId);
      const page = next as CrawlPageRow;
      const claimed = {
        state: "fetching" as const,
        attempts: page.attempts + 1,
        claimed_by: part,
        lease_until: leaseUntil,
      };
      await trx.updateTable("crawl_pages").set(claimed).where("id", "=", page.id).execute();
      return { ...page, ...claimed };
    });
  }

  /**
   * PostgreSQL: a claim in one statement, run on its own (no transaction), its commit not waiting for the WAL's
   * flush (`flushingLater`). The crawl's row, which every part's claim and every analysed page's room writes,
   * is then locked from the budget's update to the statement's commit only, with no round trip to the client
   * in between. In the statement, the page's row is locked first (`for update skip locked`: a queued row that
   * another transaction holds, a page's transaction lowering its depth, is passed over rather than waited for),
   * and the budget is taken only if there is one (the update of the crawl's row reads the chosen page); then the
   * page is marked. Never the other order, so no claim waits for a page while holding the crawl's row. A page
   * with a depth (`known`), or one known only from a sitemap while no part fetches a page with a depth
   * (`unknown`). Undefined when nothing was claimed (`whyNoClaim` says why).
   */
  private async claimInOneStatement(
    crawlId: number,
    part: number,
    leaseUntil: string,
    depth: "known" | "unknown",
  ): Promise<CrawlPageRow | undefined> {
    return this.db
      .with("next", (db) =>
        db
          .selectFrom("crawl_pages")
          .select("id")
          .where("crawl_id", "=", crawlId)
          .where("state", "=", "queued")
          .$if(depth === "known", (query) =>
            query.where("depth", "is not", null).orderBy("depth").orderBy("id"),
          )
          .$if(depth === "unknown", (query) =>
            query
              .where("depth", "is", null)
              .where(({ not, exists, selectFrom }) =>
                not(
                  exists(
                    selectFrom("crawl_pages as fetching")
                      .select("fetching.id")
                      .where("fetching.crawl_id", "=", crawlId)
                      .where("fetching.state", "=", "fetching")
                      .where("fetching.depth", "is not", null),
                  ),
                ),
              )
              .orderBy("id"),
          )
          .limit(1)
          .forUpdate()
          .skipLocked(),
      )
      .with("budget", (db) =>
        db
          .updateTable("crawls")
          .set({ reserved: sql<number>`reserved + 1` })
          .where("id", "=", crawlId)
          .where("status", "=", "running")
          .where("cancel_requested", "=", 0)
          .where(sql<boolean>`reserved < max_pages`)
          .where(({ exists, selectFrom }) => exists(selectFrom("next").select("next.id")))
          .where(flushingLater())
          .returning("crawls.id"),
      )
      .updateTable("crawl_pages")
      .set({
        state: "fetching",
        attempts: sql<number>`attempts + 1`,
        claimed_by: part,
        lease_until: leaseUntil,
      })
      .where("id", "=", (eb) => eb.selectFrom("next").select("next.id"))
      .where(({ exists, selectFrom }) => exists(selectFrom("budget").select("budget.id")))
      .returningAll()
      .executeTakeFirst();
  }

  /** Why a claim got no page: the crawl stopped, was asked to stop or spent its budget, or nothing is queued. */
  private async whyNoClaim(db: Kysely<Database>, crawlId: number): Promise<Claim> {
    const crawl = await db
      .selectFrom("crawls")
      .select(["status", "cancel_requested", "reserved", "max_pages"])
      .where("id", "=", crawlId)
      .executeTakeFirst();
    if (crawl?.status !== "running") return "stopped";
    if (crawl.cancel_requested === 1) return "cancelled";
    if (Number(crawl.reserved) >= Number(crawl.max_pages)) return "spent";
    return undefined; // nothing queued
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
    await this.givingBackFetches(crawlId, (db) =>
      db
        .updateTable("crawl_pages")
        .set({ state: "queued", attempts: sql<number>`attempts - 1` })
        .where("id", "=", pageId)
        .where("state", "=", "fetching"),
    );
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
   * Records what became of a claimed page; with `releaseFrom` (its crawl), its fetch goes back to the budget in
   * the same write (the page was not fetched after all, or goes back to the queue; see `givingBackFetches`).
   */
  async settlePage(id: number, facts: PageFacts, releaseFrom?: number): Promise<void> {
    if (releaseFrom === undefined) {
      await this.db.updateTable("crawl_pages").set(facts).where("id", "=", id).execute();
      return;
    }
    await this.givingBackFetches(releaseFrom, (db) =>
      db.updateTable("crawl_pages").set(facts).where("id", "=", id),
    );
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
   * the page is done, never analysed again. On PostgreSQL the pages of a crawl commit side by side (the owner's
   * row no longer orders them, see migration 017), so two of them may deadlock over URLs they both discover:
   * the one PostgreSQL ends is written again (`writtenAgainOnDeadlock`). On SQLite the transaction is shared with the
   * pages analysed at about the same time (`pageBatching`), each page in a savepoint of its own; the promise
   * settles once the page is committed. On PostgreSQL a page whose analysis makes a new report (`newReport`) is
   * written by one statement instead (`completeInOneStatement`), which is atomic as the transaction is.
   */
  async completePage(
    crawlId: number,
    page: { id: number; url: string },
    facts: PageFacts,
    found: {
      links: PageLink[];
      /** Links the analysis left out (`maxLinksPerPage`), counted as dropped. */
      linksLeftOut?: number;
      discovered: FrontierEntry[];
      bounds: CrawlBounds;
      /** The page checks that failed or warned, for the crawl's roll-up. */
      checks?: PageCheck[];
    },
    storeReport: (trx: Kysely<Database>) => Promise<{ id: number }>,
    newReport?: NewReportStatement,
  ): Promise<void> {
    // PostgreSQL: the room is taken before the page's transaction, in a statement of its own (see `admit`).
    const admittedBefore = this.pageCommits
      ? undefined
      : await this.admit(
          this.db,
          crawlId,
          found.bounds,
          found.links,
          found.discovered,
          Number.POSITIVE_INFINITY,
          found.linksLeftOut,
        );
    // The checks' codes: on PostgreSQL read (or added) before the page's transaction, so that processes adding a
    // check's name at once never wait on each other's pages; on SQLite in the shared transaction, kept once it
    // has committed (a page rolled back takes the names it added with it).
    const checkNames = (found.checks ?? []).map((check) => check.check);
    const codesBefore = this.pageCommits
      ? this.checkCodes.cached(checkNames)
      : await this.checkCodes.of(this.db, checkNames);
    if (admittedBefore && codesBefore && newReport) {
      const rows = { ...admittedBefore, checks: found.checks ?? [], codes: codesBefore };
      const oneStatement = () => this.completeInOneStatement(crawlId, page, facts, rows, newReport);
      if (await writtenAgainOnDeadlock(oneStatement)) return;
    }
    let codesRead: Map<string, number> | undefined;
    const write = async (trx: Kysely<Database>) => {
      await this.clearPageRows(trx, crawlId, page);
      const { links, discovered } =
        admittedBefore ??
        (await this.admit(
          trx,
          crawlId,
          found.bounds,
          found.links,
          found.discovered,
          Number.POSITIVE_INFINITY,
          found.linksLeftOut,
        ));
      const report = await storeReport(trx);
      await this.insertLinks(trx, crawlId, page.url, links);
      await this.addToFrontier(crawlId, discovered, trx);
      const codes = codesBefore ?? (await this.checkCodes.of(trx, checkNames, false));
      if (!codesBefore) codesRead = codes;
      await insertPageChecks(trx, this.dialect, crawlId, page, found.checks ?? [], codes);
      await trx
        .updateTable("crawl_pages")
        .set({ ...facts, state: "done", report_id: report.id })
        .where("id", "=", page.id)
        .execute();
    };
    if (!this.pageCommits) return writtenAgainOnDeadlock(() => this.db.transaction().execute(write));
    const addsDepths = found.discovered.some((entry) => entry.depth !== null && !entry.beyondDepth);
    if (addsDepths) this.waitingPagesAddingDepths++;
    try {
      await this.pageCommits.run(write);
      if (codesRead) this.checkCodes.remember(codesRead);
    } finally {
      if (addsDepths) this.waitingPagesAddingDepths--;
    }
  }

  /**
   * PostgreSQL, a page whose analysis makes a new report: everything `completePage`'s transaction writes, as one
   * statement run on its own, one round trip instead of eight. Its common table expressions lock the crawl's row
   * against its deletion (`for key share`, the statement's commit not waiting for the WAL's flush), insert the
   * report and its analysis (`newReport`; the report's owner read from the crawl's row, so that a crawl deleted
   * before the statement leaves the report without one and the statement fails whole), replace the page's links
   * and page checks (the deletes see the rows as they were before the statement, never those it inserts), and add
   * the URLs it found; the statement itself marks the page done. Every list is passed as arrays and unnested, so
   * that the statement's text is the same for every page and it runs prepared (store/prepared-statements.ts).
   * The page's own URL is left out of the URLs it adds: a statement may not write one row twice.
   *
   * False, having written nothing, when the page's checks are already stored (a completion of the page committed
   * before, and its report was deleted since): a delete and an insert of the same key in one statement conflict,
   * so the caller writes the page in its transaction instead, which clears the earlier rows first.
   */
  private async completeInOneStatement(
    crawlId: number,
    page: { id: number; url: string },
    facts: PageFacts,
    rows: {
      links: PageLink[];
      discovered: FrontierEntry[];
      checks: PageCheck[];
      codes: Map<string, number>;
    },
    newReport: NewReportStatement,
  ): Promise<boolean> {
    const { links, checks, codes } = rows;
    const discovered = mergedByUrl(rows.discovered).filter((entry) => entry.url !== page.url);
    const statement = newReport(
      this.db.with("crawl", (db) =>
        db
          .selectFrom("crawls")
          .select("user_id")
          .where("id", "=", crawlId)
          .where(flushingLater())
          .forKeyShare(),
      ),
      sql<number>`(select user_id from crawl)`,
    )
      .with("old_links", (db) =>
        db.deleteFrom("crawl_links").where("crawl_id", "=", crawlId).where("from_url", "=", page.url),
      )
      .with("old_checks", (db) =>
        db.deleteFrom("crawl_page_checks").where("crawl_id", "=", crawlId).where("page_id", "=", page.id),
      )
      .with("links", (db) =>
        db
          .insertInto("crawl_links")
          .columns(["crawl_id", "from_url", "to_url", "nofollow", "anchor"])
          .expression(linkRows(crawlId, page.url, links)),
      )
      .with("frontier", (db) =>
        frontierUpsert(
          db
            .insertInto("crawl_pages")
            .columns(["crawl_id", "url", "depth", "state", "excluded", "in_sitemap"])
            .expression(frontierRows(crawlId, discovered)),
        ),
      )
      .with("checks", (db) =>
        db
          .insertInto("crawl_page_checks")
          .columns(["crawl_id", "page_id", "check_code", "status", "template"])
          .expression(
            pageCheckRows(
              { crawl_id: crawlId, page_id: page.id, template: urlTemplate(page.url) },
              checks,
              codes,
            ),
          ),
      )
      .updateTable("crawl_pages")
      .set((eb) => ({
        ...facts,
        state: "done",
        report_id: eb.selectFrom("new_report").select("new_report.id"),
      }))
      .where("id", "=", page.id);
    try {
      await statement.execute();
      return true;
    } catch (error) {
      const { code, table, column } = error as { code?: unknown; table?: unknown; column?: unknown };
      if (code === "23505" && table === "crawl_page_checks") return false;
      if (code === "23502" && (table === "reports" || table === "analyses") && column === "user_id") {
        throw new Error(`Crawl ${crawlId} was deleted while its page ${page.id} was analysed.`);
      }
      throw error;
    }
  }

  /**
   * A page's internal links. On PostgreSQL one statement whose text is the same for any number of links (their
   * fields passed as arrays and unnested), so that it runs prepared (store/prepared-statements.ts); on SQLite
   * rows of 500 at a time.
   */
  private async insertLinks(
    trx: Kysely<Database>,
    crawlId: number,
    fromUrl: string,
    links: PageLink[],
  ): Promise<void> {
    if (links.length === 0) return;
    if (this.dialect === "postgres") {
      await trx
        .insertInto("crawl_links")
        .columns(["crawl_id", "from_url", "to_url", "nofollow", "anchor"])
        .expression(linkRows(crawlId, fromUrl, links))
        .execute();
      return;
    }
    for (let start = 0; start < links.length; start += 500) {
      await trx
        .insertInto("crawl_links")
        .values(
          links.slice(start, start + 500).map((link) => ({
            crawl_id: crawlId,
            from_url: fromUrl,
            to_url: link.to,
            nofollow: link.nofollow ? 1 : 0,
            anchor: link.anchor ?? null,
          })),
        )
        .execute();
    }
  }

  /**
   * First in a page's transaction: removes the links and page checks an earlier completion of the page stored
   * (one whose claim ran out while it worked, so that the page was claimed again), which its rows replace. On
   * PostgreSQL one statement that also lets the transaction commit without waiting for the WAL's flush (see
   * flushes-later.ts), a round trip per page fewer than a `set local` and two deletes, and that locks the crawl's
   * row against its deletion until the page commits (`for key share`, once per page: the per-page tables have no
   * foreign key to it since migration 028, whose check took that lock for every row). A crawl deleted meanwhile
   * fails the page, which then stores nothing.
   */
  private async clearPageRows(
    trx: Kysely<Database>,
    crawlId: number,
    page: { id: number; url: string },
  ): Promise<void> {
    const links = (db: QueryCreator<Database>) =>
      db.deleteFrom("crawl_links").where("crawl_id", "=", crawlId).where("from_url", "=", page.url);
    const checks = (db: QueryCreator<Database>) =>
      db.deleteFrom("crawl_page_checks").where("crawl_id", "=", crawlId).where("page_id", "=", page.id);
    if (this.dialect === "postgres") {
      const crawl = await trx
        .with("links", links)
        .with("checks", checks)
        .selectFrom("crawls")
        .select(flushingLater().as("flushes_later"))
        .where("id", "=", crawlId)
        .forKeyShare()
        .executeTakeFirst();
      if (!crawl) throw new Error(`Crawl ${crawlId} was deleted while its page ${page.id} was analysed.`);
      return;
    }
    await links(trx).execute();
    await checks(trx).execute();
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
}

/**
 * What `admit` asks room for, given which URLs the frontier holds: the entries that change a row or add one (a
 * URL whose row an entry would not change is left out: its upsert would still lock the row, and pages linking to
 * the same URLs, a parent, a menu, would wait on each other's transactions for nothing), the new URLs among
 * them (the first `newAtMost` offered, the rest dropped), and the page's first links within the bound per page.
 */
function admissionOf(
  known: Map<string, KnownRow>,
  bounds: CrawlBounds,
  links: PageLink[],
  given: FrontierEntry[],
  newAtMost: number,
) {
  const entries = mergedByUrl(given).filter((entry) => {
    const row = known.get(entry.url);
    return row === undefined || changesRow(entry, row);
  });
  const allFresh = entries.filter((entry) => !known.has(entry.url));
  return {
    entries,
    allFresh,
    fresh: allFresh.slice(0, newAtMost),
    pageLinks: links.slice(0, bounds.linksPerPage),
  };
}

/**
 * What the room taken lets a page store, from the crawl's offered counts after the increment (the value before
 * is the value after less what this page asked): the URLs already known always, the new ones and the links
 * while the bounds had room.
 */
function admitted(
  known: Map<string, KnownRow>,
  admission: {
    entries: FrontierEntry[];
    fresh: FrontierEntry[];
    pageLinks: PageLink[];
  },
  counted: { urls_offered: number; links_offered: number },
  bounds: CrawlBounds,
) {
  const { entries, fresh, pageLinks } = admission;
  const urlRoom = roomFor(Number(counted.urls_offered) - fresh.length, fresh.length, bounds.urls);
  const linkRoom = roomFor(Number(counted.links_offered) - pageLinks.length, pageLinks.length, bounds.links);
  const admittedUrls = new Set(fresh.slice(0, urlRoom).map((entry) => entry.url));
  return {
    links: pageLinks.slice(0, linkRoom),
    discovered: entries.filter((entry) => known.has(entry.url) || admittedUrls.has(entry.url)),
  };
}

/** What `admit` reads of a URL the frontier holds. */
interface KnownRow {
  depth: number | null;
  in_sitemap: number;
}

/**
 * Whether adding this entry changes the row of its URL: the condition of `addToFrontier`'s upsert, read from the
 * row beforehand. Both things it looks at only ever move one way (a depth falls, a sitemap mark is set), so an
 * entry that changes nothing when read changes nothing later either.
 */
function changesRow(entry: FrontierEntry, row: KnownRow): boolean {
  if (entry.beyondDepth) return false;
  if (entry.inSitemap && row.in_sitemap === 0) return true;
  return entry.depth !== null && (row.depth === null || entry.depth < row.depth);
}

/** Tries of a page's transaction that PostgreSQL ended to break a deadlock. */
const deadlockTries = 3;

/**
 * Runs a page's transaction again when PostgreSQL ended it to break a deadlock (SQLSTATE 40P01): two pages
 * committed at once may lock the same frontier rows in different orders (each upserts the URLs it links to, in
 * its links' order, and its own row last; the order is the crawl's discovery order, so it is kept). The
 * transaction left nothing behind, and the page is written again, whole.
 */
async function writtenAgainOnDeadlock<T>(write: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      if ((error as { code?: unknown }).code !== "40P01" || attempt >= deadlockTries) throw error;
    }
  }
}

/** The page's failed and warned checks (those an earlier completion stored are gone: `clearPageRows`). */
async function insertPageChecks(
  trx: Kysely<Database>,
  dialect: Dialect,
  crawlId: number,
  page: { id: number; url: string },
  checks: PageCheck[],
  codes: Map<string, number>,
): Promise<void> {
  if (checks.length === 0) return;
  const template = urlTemplate(page.url);
  if (dialect === "postgres") {
    await insertPageRowsUnnested(trx, { crawl_id: crawlId, page_id: page.id, template }, checks, codes);
    return;
  }
  await insertNamedRows(
    trx,
    checks.map((check) => ({
      crawl_id: crawlId,
      page_id: page.id,
      check_id: check.check,
      status: check.status,
      template,
    })),
    codes,
  );
}

/**
 * How a page's new report is written in its one statement on PostgreSQL (`FrontierStore.completePage`): the
 * report and its first analysis added to `statement` as common table expressions (`withNewReport`), owned by
 * `owner`.
 */
export type NewReportStatement = <DB extends Database>(
  statement: QueryCreator<DB>,
  owner: Expression<number>,
) => QueryCreator<DB & NewReportTables>;

/**
 * The frontier's upsert of URLs (`insert`, rows of crawl_pages): a URL already there keeps its row, its depth
 * lowered to the smaller one and its sitemap mark kept; a row excluded for the depth limit is queued again when
 * the URL is found within it.
 */
function frontierUpsert<DB extends Database, O>(
  insert: InsertQueryBuilder<DB, "crawl_pages", O>,
): InsertQueryBuilder<DB, "crawl_pages", O> {
  // A row excluded for the depth limit (or the budget), found now at a known depth within the limit.
  const requeued = sql<boolean>`(crawl_pages.state = 'excluded' and crawl_pages.excluded = 'limit'
    and excluded.depth is not null and crawl_pages.depth is not null and excluded.depth < crawl_pages.depth)`;
  const upsert = (insert as unknown as InsertQueryBuilder<Database, "crawl_pages", O>).onConflict(
    (conflict) =>
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
        // Only where that changes something: most links lead to URLs already known at their depth, and a row
        // updated to the same values is still written (its page, and its entry in the state index). A URL beyond
        // the depth limit never changes a row it finds.
        .where(
          sql<boolean>`excluded.state = 'queued' and ((excluded.in_sitemap = 1 and crawl_pages.in_sitemap = 0)
          or (excluded.depth is not null
            and (crawl_pages.depth is null or excluded.depth < crawl_pages.depth)))`,
        ),
  );
  return upsert as unknown as InsertQueryBuilder<DB, "crawl_pages", O>;
}

/** PostgreSQL: URLs for the frontier as rows of crawl_pages, from arrays (see `frontierUpsert`). */
function frontierRows(crawlId: number, entries: FrontierEntry[]): RawBuilder<unknown> {
  return sql`
    select ${crawlId}::integer, entry.url, entry.depth,
      case when entry.beyond then 'excluded' else 'queued' end,
      case when entry.beyond then 'limit' end,
      entry.in_sitemap
    from unnest(
      ${entries.map((entry) => entry.url)}::text[],
      ${entries.map((entry) => entry.depth)}::integer[],
      ${entries.map((entry) => entry.beyondDepth === true)}::boolean[],
      ${entries.map((entry) => (entry.inSitemap ? 1 : 0))}::integer[]
    ) as entry(url, depth, beyond, in_sitemap)`;
}

/** PostgreSQL: a page's internal links as rows of crawl_links, from arrays. */
function linkRows(crawlId: number, fromUrl: string, links: PageLink[]): RawBuilder<unknown> {
  return sql`
    select ${crawlId}::integer, ${fromUrl}::text, link.to_url, link.nofollow, link.anchor
    from unnest(
      ${links.map((link) => link.to)}::text[],
      ${links.map((link) => (link.nofollow ? 1 : 0))}::integer[],
      ${links.map((link) => link.anchor ?? null)}::text[]
    ) as link(to_url, nofollow, anchor)`;
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
