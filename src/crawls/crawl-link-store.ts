/**
 * The internal links a crawl recorded, with the status of their target (its status code, `error` when it could
 * not be fetched, null when it was not fetched), filtered by target, source or target status, ordered by source
 * then target: a page of them, a count, or every one in batches for the CSV export (keyset over the
 * (source, target) pairs, which are unique in a crawl). A link's source is the URL of its `crawl_pages` row
 * (`from_page`, migration 042).
 */
import type { ExpressionBuilder, Kysely } from "kysely";
import type { Database } from "../store/schema.js";
import type { Store } from "../store/store.js";

export interface LinkFilter {
  to?: string;
  from?: string;
  /** A status code, or "error" (the target could not be fetched). */
  status?: number | "error";
}

export interface LinkRow {
  from_url: string;
  to_url: string;
  anchor: string | null;
  nofollow: number;
  status_code: number | null;
  target_state: string | null;
}

const batchRows = 1_000;

export class CrawlLinkStore {
  private readonly db: Kysely<Database>;

  constructor(store: Store) {
    this.db = store.db;
  }

  list(crawlId: number, filter: LinkFilter, page: { limit: number; offset: number }): Promise<LinkRow[]> {
    return this.ordered(crawlId, filter, { ...page, after: null });
  }

  async count(crawlId: number, filter: LinkFilter): Promise<number> {
    const row = await this.joined(crawlId, filter)
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async *batches(crawlId: number, filter: LinkFilter): AsyncGenerator<LinkRow[]> {
    let after: { from: string; to: string } | null = null;
    for (;;) {
      const rows = await this.ordered(crawlId, filter, { limit: batchRows, offset: 0, after });
      if (rows.length > 0) yield rows;
      if (rows.length < batchRows) return;
      const last = rows[rows.length - 1] as LinkRow;
      after = { from: last.from_url, to: last.to_url };
    }
  }

  /**
   * For each of these URLs, every page linking to it (other than itself), in order; only nofollow links when
   * asked. One query per 500 URLs.
   */
  async sourcesOfEach(
    crawlId: number,
    urls: string[],
    onlyNofollow: boolean,
  ): Promise<Map<string, string[]>> {
    const sources = new Map<string, string[]>();
    const distinct = [...new Set(urls)];
    for (let start = 0; start < distinct.length; start += 500) {
      let query = this.db
        .selectFrom("crawl_links as links")
        .innerJoin("crawl_pages as source", "source.id", "links.from_page")
        .select(["links.to_url", "source.url as from_url"])
        .distinct()
        .where("links.crawl_id", "=", crawlId)
        .where("links.to_url", "in", distinct.slice(start, start + 500))
        .whereRef("source.url", "<>", "links.to_url");
      if (onlyNofollow) query = query.where("links.nofollow", "=", 1);
      for (const row of await query.orderBy("links.to_url").orderBy("source.url").execute()) {
        const list = sources.get(row.to_url) ?? [];
        list.push(row.from_url);
        sources.set(row.to_url, list);
      }
    }
    return sources;
  }

  /**
   * Links in (source, target) order from after a pair, with their targets' status; a link's source is its
   * page's URL (migration 042). Without a status filter the links are taken first and only those looked up: the
   * crawl's pages walked in URL order (the (crawl, URL) index), each page's links found by the `from_page`
   * index and sorted by target, so a batch costs the same wherever it falls in a large crawl, whatever the
   * planner knows of the tables.
   */
  private ordered(
    crawlId: number,
    filter: LinkFilter,
    page: { limit: number; offset: number; after: { from: string; to: string } | null },
  ): Promise<LinkRow[]> {
    const after = page.after;
    let links = this.db
      .selectFrom("crawl_pages as source")
      .innerJoin("crawl_links as links", "links.from_page", "source.id")
      .where("source.crawl_id", "=", crawlId);
    if (filter.to !== undefined)
      links = links.where("links.crawl_id", "=", crawlId).where("links.to_url", "=", filter.to);
    if (filter.from !== undefined) links = links.where("source.url", "=", filter.from);
    if (after) links = links.where((eb) => afterPair(eb, after));
    const status = filter.status;
    if (status !== undefined) {
      return links
        .innerJoin("crawl_pages as target", (join) =>
          join.onRef("target.crawl_id", "=", "links.crawl_id").onRef("target.url", "=", "links.to_url"),
        )
        .where((eb) =>
          status === "error"
            ? eb.and([eb("target.state", "=", "failed"), eb("target.status_code", "is", null)])
            : eb("target.status_code", "=", status),
        )
        .select(linkColumns)
        .orderBy("source.url")
        .orderBy("links.to_url")
        .limit(page.limit)
        .offset(page.offset)
        .execute();
    }
    const taken = links
      .select(["links.crawl_id", "source.url as from_url", "links.to_url", "links.anchor", "links.nofollow"])
      .orderBy("source.url")
      .orderBy("links.to_url")
      .limit(page.limit)
      .offset(page.offset);
    return this.db
      .selectFrom(taken.as("links"))
      .leftJoin("crawl_pages as target", (join) =>
        join.onRef("target.crawl_id", "=", "links.crawl_id").onRef("target.url", "=", "links.to_url"),
      )
      .select([
        "links.from_url",
        "links.to_url",
        "links.anchor",
        "links.nofollow",
        "target.status_code",
        "target.state as target_state",
      ])
      .orderBy("links.from_url")
      .orderBy("links.to_url")
      .execute();
  }

  /** The links with their targets, filtered (the status filter reads the target). */
  private joined(crawlId: number, filter: LinkFilter) {
    let query = this.db
      .selectFrom("crawl_links as links")
      .leftJoin("crawl_pages as target", (join) =>
        join.onRef("target.crawl_id", "=", "links.crawl_id").onRef("target.url", "=", "links.to_url"),
      )
      .where("links.crawl_id", "=", crawlId);
    if (filter.to !== undefined) query = query.where("links.to_url", "=", filter.to);
    const from = filter.from;
    if (from !== undefined)
      query = query.where("links.from_page", "=", (eb) =>
        eb.selectFrom("crawl_pages").select("id").where("crawl_id", "=", crawlId).where("url", "=", from),
      );
    if (filter.status === "error")
      query = query.where("target.state", "=", "failed").where("target.status_code", "is", null);
    else if (filter.status !== undefined) query = query.where("target.status_code", "=", filter.status);
    return query;
  }
}

/**
 * The links after a (source URL, target) pair: `source.url >= from` bounds the walk of the pages' index, the
 * rest of the pair is checked on the rows (a row comparison across two tables bounds no index).
 */
function afterPair(
  eb: ExpressionBuilder<
    { source: Database["crawl_pages"]; links: Database["crawl_links"] },
    "source" | "links"
  >,
  after: { from: string; to: string },
) {
  return eb.and([
    eb("source.url", ">=", after.from),
    eb.or([eb("source.url", ">", after.from), eb("links.to_url", ">", after.to)]),
  ]);
}

const linkColumns = [
  "source.url as from_url",
  "links.to_url",
  "links.anchor",
  "links.nofollow",
  "target.status_code",
  "target.state as target_state",
] as const;
