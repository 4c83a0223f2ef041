/**
 * The internal links a crawl recorded, with the status of their target (its status code, `error` when it could
 * not be fetched, null when it was not fetched), filtered by target, source or target status, ordered by source
 * then target: a page of them, a count, or every one in batches for the CSV export (keyset over the
 * (source, target) pairs, which are unique in a crawl).
 */
import type { Kysely } from "kysely";
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
        .selectFrom("crawl_links")
        .select(["to_url", "from_url"])
        .distinct()
        .where("crawl_id", "=", crawlId)
        .where("to_url", "in", distinct.slice(start, start + 500))
        .whereRef("from_url", "<>", "to_url");
      if (onlyNofollow) query = query.where("nofollow", "=", 1);
      for (const row of await query.orderBy("to_url").orderBy("from_url").execute()) {
        const list = sources.get(row.to_url) ?? [];
        list.push(row.from_url);
        sources.set(row.to_url, list);
      }
    }
    return sources;
  }

  /**
   * Links in (source, target) order from after a pair, with their targets' status. Without a status filter the
   * links are taken first (an index range) and only those looked up, so a batch costs the same wherever it
   * falls in a large crawl, whatever the planner knows of the tables.
   */
  private ordered(
    crawlId: number,
    filter: LinkFilter,
    page: { limit: number; offset: number; after: { from: string; to: string } | null },
  ): Promise<LinkRow[]> {
    const after = page.after;
    if (filter.status !== undefined) {
      let query = this.joined(crawlId, filter).select(linkColumns);
      if (after)
        query = query.where((eb) =>
          eb(eb.refTuple("links.from_url", "links.to_url"), ">", eb.tuple(after.from, after.to)),
        );
      return query
        .orderBy("links.from_url")
        .orderBy("links.to_url")
        .limit(page.limit)
        .offset(page.offset)
        .execute();
    }
    let links = this.linksOf(crawlId, filter).select([
      "crawl_id",
      "from_url",
      "to_url",
      "anchor",
      "nofollow",
    ]);
    if (after)
      links = links.where((eb) => eb(eb.refTuple("from_url", "to_url"), ">", eb.tuple(after.from, after.to)));
    const taken = links.orderBy("from_url").orderBy("to_url").limit(page.limit).offset(page.offset);
    return this.db
      .selectFrom(taken.as("links"))
      .leftJoin("crawl_pages as target", (join) =>
        join.onRef("target.crawl_id", "=", "links.crawl_id").onRef("target.url", "=", "links.to_url"),
      )
      .select(linkColumns)
      .orderBy("links.from_url")
      .orderBy("links.to_url")
      .execute();
  }

  private linksOf(crawlId: number, filter: LinkFilter) {
    let query = this.db.selectFrom("crawl_links").where("crawl_id", "=", crawlId);
    if (filter.to !== undefined) query = query.where("to_url", "=", filter.to);
    if (filter.from !== undefined) query = query.where("from_url", "=", filter.from);
    return query;
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
    if (filter.from !== undefined) query = query.where("links.from_url", "=", filter.from);
    if (filter.status === "error")
      query = query.where("target.state", "=", "failed").where("target.status_code", "is", null);
    else if (filter.status !== undefined) query = query.where("target.status_code", "=", filter.status);
    return query;
  }
}

const linkColumns = [
  "links.from_url",
  "links.to_url",
  "links.anchor",
  "links.nofollow",
  "target.status_code",
  "target.state as target_state",
] as const;
