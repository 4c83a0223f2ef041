/**
 * The frontier's admission of URLs within the crawl's bounds (`crawl-bounds.ts`): which of a page's links and of
 * the URLs it adds may be stored, the room taken with one atomic increment of the crawl's offered counts (on
 * PostgreSQL one statement of its own, on SQLite inside the page's transaction), and the upsert that adds URLs
 * to the frontier. Used by `FrontierStore.discover` and by a page's completion (`page-completion-store.ts`).
 */
import { type Expression, type InsertQueryBuilder, type Kysely, type RawBuilder, sql } from "kysely";
import { flushingLater } from "../store/flushes-later.js";
import type { Database } from "../store/schema.js";
import type { Dialect } from "../store/store.js";
import { type CrawlBounds, roomFor } from "./crawl-bounds.js";

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

/** What a page may store of its links and of the URLs it adds (see `FrontierAdmission.admit`). */
export interface Admitted {
  links: PageLink[];
  discovered: FrontierEntry[];
}

export class FrontierAdmission {
  /** The store's database and its dialect (see `FrontierStore`, which builds this part of it). */
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
  ) {}

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
  async admit(
    db: Kysely<Database>,
    crawlId: number,
    bounds: CrawlBounds,
    links: PageLink[],
    given: FrontierEntry[],
    newAtMost = Number.POSITIVE_INFINITY,
    linksLeftOut = 0,
  ): Promise<Admitted> {
    if (this.dialect === "postgres")
      return this.admitInOneStatement(crawlId, bounds, links, given, newAtMost, linksLeftOut);
    const known = await this.knownUrls(db, crawlId, mergedByUrl(given));
    const { entries, allFresh, fresh, pageLinks } = admissionOf(known, bounds, links, given, newAtMost);
    if (allFresh.length === 0 && links.length === 0) return { links, discovered: entries };
    const counted = await db
      .updateTable("crawls")
      .set({
        urls_offered: sql<number>`urls_offered + ${fresh.length}`,
        urls_dropped: sql<number>`urls_dropped + ${allFresh.length - fresh.length} + ${droppedBeyond(
          this.dialect,
          "urls_offered",
          fresh.length,
          bounds.urls,
        )}`,
        links_offered: sql<number>`links_offered + ${pageLinks.length}`,
        links_dropped: sql<number>`links_dropped + ${links.length - pageLinks.length + linksLeftOut} + ${droppedBeyond(
          this.dialect,
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
  ): Promise<Admitted> {
    const urls = mergedByUrl(given).map((entry) => entry.url);
    const freshAtMost = Math.min(newAtMost, 2 ** 31 - 1);
    const pageLinkCount = Math.min(links.length, bounds.linksPerPage);
    const pageLinks = sql<number>`${pageLinkCount}::integer`;
    const asked = sql<number>`least(fresh.n, ${freshAtMost}::integer)`;
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
            + ${droppedBeyond("postgres", "urls_offered", asked, sql`${bounds.urls}::integer`)},
          links_offered = links_offered + ${pageLinks},
          links_dropped = links_dropped + ${links.length - pageLinkCount + linksLeftOut}::integer
            + ${droppedBeyond("postgres", "links_offered", pageLinks, sql`${bounds.links}::integer`)}
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
  async addToFrontier(
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
}

/**
 * How many of the `asked` new URLs or links the crawl's bound drops: what this page asked beyond the bound,
 * read from the crawl's offered count as the row was (a set expression reads the row before the update). The
 * one counter expression of both dialects' admissions (`asked` and `bound` typed by the caller on PostgreSQL).
 */
function droppedBeyond(
  dialect: Dialect,
  column: "urls_offered" | "links_offered",
  asked: number | Expression<number>,
  bound: number | Expression<number>,
): RawBuilder<number> {
  const [larger, smaller] = dialect === "postgres" ? [sql`greatest`, sql`least`] : [sql`max`, sql`min`];
  return sql<number>`${larger}(0, ${smaller}(${asked}, ${sql.ref(column)} + ${asked} - ${bound}))`;
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

/**
 * The frontier's upsert of URLs (`insert`, rows of crawl_pages): a URL already there keeps its row, its depth
 * lowered to the smaller one and its sitemap mark kept; a row excluded for the depth limit is queued again when
 * the URL is found within it.
 */
export function frontierUpsert<DB extends Database, O>(
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
export function frontierRows(crawlId: number, entries: FrontierEntry[]): RawBuilder<unknown> {
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

/**
 * One entry per URL: the smallest known depth, in the sitemap when any entry is; beyond the depth limit only
 * when every entry is.
 */
export function mergedByUrl(entries: FrontierEntry[]): FrontierEntry[] {
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
