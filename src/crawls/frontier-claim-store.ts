/**
 * Claims, leases and politeness of a crawl's frontier, shared by every part through the database: the claim of
 * the next page (a fetch from the budget and a lease), its renewal, hand-back and requeueing, what became of a
 * claimed page that was not analysed (`settlePage`), and the start of the next request to the site (starts
 * `delay` apart across parts, a pause after a 429 or 503). Each write that PostgreSQL runs as one statement of
 * its own stands beside the SQLite transaction that does the same.
 */
import {
  type Kysely,
  type QueryCreator,
  type RawBuilder,
  sql,
  type UpdateQueryBuilder,
  type UpdateResult,
} from "kysely";
import { flushingLater } from "../store/flushes-later.js";
import type { Database } from "../store/schema.js";
import type { Dialect } from "../store/store.js";
import type { CrawlPageRow } from "./crawl-store.js";
import { claimReleased, type PageFacts } from "./page-completion-store.js";
import { pageState } from "./page-state.js";

/** What a part's claim got: a page to fetch, or why there is none (see `FrontierStore.claim`). */
export type Claim = CrawlPageRow | "stopped" | "cancelled" | "spent" | undefined;

export class FrontierClaims {
  /** The store's database and its dialect (see `FrontierStore`, which builds this part of it). */
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
  ) {}

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
        .where("state", "=", pageState("fetching"))
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
    const claimed = await this.claimSome(crawlId, part, leaseUntil, unknownDepth, 1);
    return Array.isArray(claimed) ? claimed[0] : claimed;
  }

  /**
   * `claim` of up to `atMost` pages at once, in the order they are to be crawled, each a fetch from the budget
   * (never more than the budget has left), and no more than this part's share of the queue (`parts` parts
   * sharing it; one page at least). On PostgreSQL, where each claim is a statement and a round trip, a part
   * claims a few pages ahead (`claimAhead` in part-claims.ts); on SQLite one page, whatever is asked. Several
   * pages come only with a known depth: pages known only from a sitemap are claimed one at a time, as they wait
   * for every page with a depth.
   */
  async claimSome(
    crawlId: number,
    part: number,
    leaseUntil: string,
    unknownDepth: boolean,
    atMost: number,
    parts = 1,
  ): Promise<CrawlPageRow[] | Exclude<Claim, CrawlPageRow>> {
    if (this.dialect === "postgres") {
      const share = { atMost, parts };
      const known = await this.claimInOneStatement(crawlId, part, leaseUntil, "known", share);
      if (known.length > 0) return known;
      const unknown = unknownDepth
        ? await this.claimInOneStatement(crawlId, part, leaseUntil, "unknown", { atMost: 1, parts })
        : [];
      return unknown.length > 0 ? unknown : this.whyNoClaim(this.db, crawlId);
    }
    return this.db.transaction().execute(async (trx) => {
      const queued = trx
        .selectFrom("crawl_pages")
        .selectAll()
        .where("crawl_id", "=", crawlId)
        .where("state", "=", pageState("queued"));
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
        ? Number((await takingFetches(trx, crawlId, 1).executeTakeFirst()).numUpdatedRows)
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
      return [{ ...page, ...claimed }];
    });
  }

  /**
   * PostgreSQL: a claim in one statement, run on its own (no transaction), its commit not waiting for the WAL's
   * flush (`flushingLater`). The crawl's row, which every part's claim and every analysed page's room writes,
   * is then locked from the budget's update to the statement's commit only, with no round trip to the client
   * in between. In the statement, the page's row is locked first (`for update skip locked`: a queued row that
   * another transaction holds, a page's transaction lowering its depth, is passed over rather than waited for),
   * and the budget is taken only if there is one (the update of the crawl's row reads the chosen page); then the
   * page is marked. Never the other order, so no claim waits for a page while holding the crawl's row. Pages
   * with a depth (`known`), or one known only from a sitemap while no part fetches a page with a depth
   * (`unknown`). Up to `share.atMost` pages, no more than a `share.parts`th of the queued pages (an estimate)
   * but one at least, and no more than the budget had left when the statement began; the budget takes one fetch
   * per page chosen or, should another part have taken some of what was left meanwhile, none (nothing claimed,
   * at the budget's very end only: the part looks again shortly). Empty when nothing was claimed (`whyNoClaim`
   * says why).
   */
  private async claimInOneStatement(
    crawlId: number,
    part: number,
    leaseUntil: string,
    depth: "known" | "unknown",
    share: { atMost: number; parts: number },
  ): Promise<CrawlPageRow[]> {
    // What the budget has left and, claiming ahead, this part's share of the queue: estimated from the crawl's
    // own counts (URLs admitted to the frontier less the fetches taken; pages excluded once claimed are counted
    // as queued), one read of the crawl's row by its key where counting queued pages would scan the frontier.
    const parts = Math.max(1, share.parts);
    const limit =
      share.atMost > 1
        ? sql<number>`(select greatest(0, least(max_pages - reserved, ${share.atMost}::integer,
            greatest(1, (urls_offered - urls_dropped - reserved) / ${parts}::integer)))
            from crawls where id = ${crawlId})`
        : sql<number>`(select greatest(0, least(max_pages - reserved, 1)) from crawls where id = ${crawlId})`;
    const rows = await this.db
      .with("next", (db) =>
        db
          .selectFrom("crawl_pages")
          .select("id")
          .where("crawl_id", "=", crawlId)
          .where("state", "=", pageState("queued"))
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
                      .where("fetching.state", "=", pageState("fetching"))
                      .where("fetching.depth", "is not", null),
                  ),
                ),
              )
              .orderBy("id"),
          )
          .limit(limit)
          .forUpdate()
          .skipLocked(),
      )
      .with("budget", (db) =>
        takingFetches(db, crawlId, sql<number>`(select count(*) from "next")::integer`)
          .where(sql<boolean>`exists (select "next"."id" from "next")`)
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
      // `= any(array(…))`, not `in (select …)`: the planner, expecting many rows from a limit it cannot read,
      // joined `in` by hashing the whole crawl's pages (a sequential scan per claim); an array is looked up by key.
      .where(sql<boolean>`"id" = any(array(select "next"."id" from "next"))`)
      .where(({ exists, selectFrom }) => exists(selectFrom("budget").select("budget.id")))
      .returningAll()
      .execute();
    return rows.sort(inClaimOrder);
  }

  /** Why a claim got no page: the crawl stopped, was asked to stop or spent its budget, or nothing is queued. */
  private async whyNoClaim(db: Kysely<Database>, crawlId: number): Promise<Exclude<Claim, CrawlPageRow>> {
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

  /**
   * Extends this part's claim on pages it is still working on or holds to crawl next; returns the ids of those
   * it still had (a page whose lease ran out may have been put back and claimed by another part).
   */
  async renewClaim(pageIds: readonly number[], part: number, until: string): Promise<number[]> {
    if (pageIds.length === 0) return [];
    const rows = await this.db
      .updateTable("crawl_pages")
      .set({ lease_until: until })
      .where("id", "in", pageIds)
      .where("state", "=", pageState("fetching"))
      .where("claimed_by", "=", part)
      .returning("id")
      .execute();
    return rows.map((row) => row.id);
  }

  /** Pages queued or being fetched by some part. */
  async unfinishedCount(crawlId: number): Promise<number> {
    const row = await this.db
      .selectFrom("crawl_pages")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("crawl_id", "=", crawlId)
      .where("state", "in", [pageState("queued"), pageState("fetching")])
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
    const row = await this.db
      .updateTable("crawls")
      .set({ next_request_ms: sql<number>`${this.larger()}(next_request_ms, ${nowMs}) + ${delayMs}` })
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
        .set({ state: "queued", attempts: sql<number>`attempts - 1`, ...claimReleased })
        .where("id", "=", pageId)
        .where("state", "=", pageState("fetching")),
    );
  }

  /** No request to the site starts before `untilMs` (the site asked for less: 429 or 503). */
  async pauseRequests(crawlId: number, untilMs: number): Promise<void> {
    await this.db
      .updateTable("crawls")
      .set({ next_request_ms: sql<number>`${this.larger()}(next_request_ms, ${untilMs})` })
      .where("id", "=", crawlId)
      .execute();
  }

  /**
   * Records what became of a claimed page; with `releaseFrom` (its crawl), its fetch goes back to the budget in
   * the same write (the page was not fetched after all, or goes back to the queue; see `givingBackFetches`).
   */
  async settlePage(id: number, facts: PageFacts, releaseFrom?: number): Promise<void> {
    if (releaseFrom === undefined) {
      await this.db
        .updateTable("crawl_pages")
        .set({ ...facts, ...claimReleased })
        .where("id", "=", id)
        .execute();
      return;
    }
    await this.givingBackFetches(releaseFrom, (db) =>
      db
        .updateTable("crawl_pages")
        .set({ ...facts, ...claimReleased })
        .where("id", "=", id),
    );
  }

  /** Every queued page left once the page budget is spent becomes `excluded: limit`. */
  async excludeQueued(crawlId: number): Promise<void> {
    await this.db
      .updateTable("crawl_pages")
      .set({ state: "excluded", excluded: "limit", ...claimReleased })
      .where("crawl_id", "=", crawlId)
      .where("state", "=", pageState("queued"))
      .execute();
  }

  /** The larger of two numbers in this dialect's SQL (`greatest` on PostgreSQL, `max` on SQLite). */
  private larger() {
    return this.dialect === "postgres" ? sql`greatest` : sql`max`;
  }
}

/**
 * Takes `count` fetches from the crawl's budget, only from a running crawl not asked to stop and only if the
 * budget has that many left (`max_pages` fetches at most): the one update of the budget that both dialects'
 * claims make.
 */
function takingFetches(db: QueryCreator<Database>, crawlId: number, count: number | RawBuilder<number>) {
  return db
    .updateTable("crawls")
    .set({ reserved: sql<number>`reserved + ${count}` })
    .where("id", "=", crawlId)
    .where("status", "=", "running")
    .where("cancel_requested", "=", 0)
    .where(sql<boolean>`reserved + ${count} <= max_pages`);
}

/** The order a part crawls the pages it claimed at once: shallowest first, then in discovery order. */
function inClaimOrder(a: CrawlPageRow, b: CrawlPageRow): number {
  return (a.depth ?? Number.MAX_SAFE_INTEGER) - (b.depth ?? Number.MAX_SAFE_INTEGER) || a.id - b.id;
}

/** Whether a part is fetching a page of the crawl with a known depth (its links may give queued URLs a depth). */
async function fetchingWithDepth(trx: Kysely<Database>, crawlId: number): Promise<boolean> {
  const row = await trx
    .selectFrom("crawl_pages")
    .select("id")
    .where("crawl_id", "=", crawlId)
    .where("state", "=", pageState("fetching"))
    .where("depth", "is not", null)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
