/**
 * The frontier of a crawl and its politeness, shared by every part through the database: URLs added within the
 * crawl's bounds (`crawl-bounds.ts`); the claim of the next page (a fetch from the budget and a lease), its
 * renewal, hand-back and requeueing; the start of the next request to the site (starts `delay` apart across
 * parts, a pause after a 429 or 503); and what became of a claimed page, an analysed one stored in one
 * transaction with its links and the URLs it adds (on SQLite, a savepoint of a commit shared with the pages
 * analysed at about the same time).
 */
import { type Kysely, sql } from "kysely";
import type { Database } from "../store/schema.js";
import type { Store } from "../store/store.js";
import { type BatchingOptions, TransactionBatcher } from "../store/transaction-batcher.js";
import { type CrawlBounds, roomFor } from "./crawl-bounds.js";
import type { CrawlPageRow } from "./crawl-store.js";
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
   * store more than the bounds together. On PostgreSQL that increment runs before the page's transaction, in a
   * statement of its own: the crawl's row is never locked while the page's rows are (a claim locks them in the
   * other order); a page whose transaction then fails only leaves room unused. On SQLite it runs inside it.
   */
  private async admit(
    db: Kysely<Database>,
    crawlId: number,
    bounds: CrawlBounds,
    links: Array<{ to: string; nofollow: boolean; anchor?: string }>,
    given: FrontierEntry[],
    newAtMost = Number.POSITIVE_INFINITY,
  ): Promise<{
    links: Array<{ to: string; nofollow: boolean; anchor?: string }>;
    discovered: FrontierEntry[];
  }> {
    const known = await this.knownUrls(db, crawlId, mergedByUrl(given));
    // A URL whose row this entry would not change is left out: its upsert would still lock the row, and pages
    // linking to the same URLs (a parent, a menu) would wait on each other's transactions for nothing.
    const entries = mergedByUrl(given).filter((entry) => {
      const row = known.get(entry.url);
      return row === undefined || changesRow(entry, row);
    });
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

  /** Which of these URLs the crawl's frontier holds already, with their depth and sitemap mark. */
  private async knownUrls(
    db: Kysely<Database>,
    crawlId: number,
    entries: FrontierEntry[],
  ): Promise<Map<string, KnownRow>> {
    const known = new Map<string, KnownRow>();
    for (let start = 0; start < entries.length; start += 500) {
      const rows = await db
        .selectFrom("crawl_pages")
        .select(["url", "depth", "in_sitemap"])
        .where("crawl_id", "=", crawlId)
        .where(
          "url",
          "in",
          entries.slice(start, start + 500).map((entry) => entry.url),
        )
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
   * that redirects would otherwise pass its missing depth on to the pages it leads to). One transaction: the page
   * is chosen first, then the budget taken from the crawl's row (only from a running crawl not asked to stop), whose
   * lock orders the parts on PostgreSQL; a page that another transaction holds is passed over there.
   */
  claim(crawlId: number, part: number, leaseUntil: string, unknownDepth: boolean): Promise<Claim> {
    return this.db.transaction().execute(async (trx) => {
      if (this.dialect === "postgres") await flushesLater(trx);
      // On PostgreSQL a queued row that another page's transaction holds (it lowers the row's depth) is passed
      // over rather than waited for: the claim then holds the crawl's row, which every part's claim takes, for
      // two statements only, never while a page's transaction commits.
      const queued = trx
        .selectFrom("crawl_pages")
        .selectAll()
        .where("crawl_id", "=", crawlId)
        .where("state", "=", "queued")
        .$if(this.dialect === "postgres", (query) => query.forUpdate().skipLocked());
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
      // The page's row first, then the crawl's: the order every transaction that writes both takes them in.
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
      if (reserved === 0) {
        const crawl = await trx
          .selectFrom("crawls")
          .select(["status", "cancel_requested", "reserved", "max_pages"])
          .where("id", "=", crawlId)
          .executeTakeFirst();
        if (crawl?.status !== "running") return "stopped";
        if (crawl.cancel_requested === 1) return "cancelled";
        if (Number(crawl.reserved) >= Number(crawl.max_pages)) return "spent";
        return undefined; // nothing queued
      }
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
   * settles once the page is committed.
   */
  async completePage(
    crawlId: number,
    page: { id: number; url: string },
    facts: PageFacts,
    found: {
      links: Array<{ to: string; nofollow: boolean; anchor?: string }>;
      discovered: FrontierEntry[];
      bounds: CrawlBounds;
      /** The page checks that failed or warned, for the crawl's roll-up. */
      checks?: PageCheck[];
    },
    storeReport: (trx: Kysely<Database>) => Promise<{ id: number }>,
  ): Promise<void> {
    const admittedBefore = this.pageCommits
      ? undefined
      : await this.db.transaction().execute(async (trx) => {
          await flushesLater(trx);
          return this.admit(trx, crawlId, found.bounds, found.links, found.discovered);
        });
    const write = async (trx: Kysely<Database>) => {
      if (!this.pageCommits) await flushesLater(trx);
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
              anchor: link.anchor ?? null,
            })),
          )
          .execute();
      }
      await this.addToFrontier(crawlId, discovered, trx);
      await storePageChecks(trx, crawlId, page, found.checks ?? []);
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
}

/**
 * PostgreSQL: this transaction's commit does not wait for its WAL to reach the disk (PostgreSQL flushes it within
 * a fraction of a second, together with the other commits of that moment: its own group commit). The crawl's
 * writes to its shared rows (a claim, the room a page takes) and an analysed page's transaction commit so: a
 * commit that waited for the disk held the crawl's row, which every part writes, for the whole flush, and the
 * parts queued behind it (measured: three quarters of the busy connections' samples were lock waits). A crash of
 * the database loses only the last commits before it, in order: a claim lost with them leaves its page queued,
 * a page's transaction lost leaves its page `fetching` until its claim runs out (then fetched again, as the page
 * of a part that died), and the request id keeps an analysis from being stored twice. Only writes a crawl can
 * make again use it.
 */
async function flushesLater(trx: Kysely<Database>): Promise<void> {
  await sql`set local synchronous_commit = off`.execute(trx);
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
async function writtenAgainOnDeadlock(write: () => Promise<void>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      if ((error as { code?: unknown }).code !== "40P01" || attempt >= deadlockTries) throw error;
    }
  }
}

/** The page's failed and warned checks, replacing any an earlier run stored. */
async function storePageChecks(
  trx: Kysely<Database>,
  crawlId: number,
  page: { id: number; url: string },
  checks: PageCheck[],
): Promise<void> {
  await trx
    .deleteFrom("crawl_page_checks")
    .where("crawl_id", "=", crawlId)
    .where("page_id", "=", page.id)
    .execute();
  if (checks.length === 0) return;
  const template = urlTemplate(page.url);
  await trx
    .insertInto("crawl_page_checks")
    .values(
      checks.map((check) => ({
        crawl_id: crawlId,
        page_id: page.id,
        check_id: check.check,
        status: check.status,
        template,
      })),
    )
    .execute();
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
