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
    return this.filtered(crawlId, filter)
      .select(linkColumns)
      .orderBy("links.from_url")
      .orderBy("links.to_url")
      .limit(page.limit)
      .offset(page.offset)
      .execute();
  }

  async count(crawlId: number, filter: LinkFilter): Promise<number> {
    const row = await this.filtered(crawlId, filter)
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async *batches(crawlId: number, filter: LinkFilter): AsyncGenerator<LinkRow[]> {
    let after: { from: string; to: string } | null = null;
    for (;;) {
      let query = this.filtered(crawlId, filter).select(linkColumns);
      if (after) {
        const { from, to } = after;
        query = query.where((eb) =>
          eb.or([
            eb("links.from_url", ">", from),
            eb.and([eb("links.from_url", "=", from), eb("links.to_url", ">", to)]),
          ]),
        );
      }
      const rows = await query.orderBy("links.from_url").orderBy("links.to_url").limit(batchRows).execute();
      if (rows.length > 0) yield rows;
      if (rows.length < batchRows) return;
      const last = rows[rows.length - 1] as LinkRow;
      after = { from: last.from_url, to: last.to_url };
    }
  }

  /** Every page linking to the URL (other than itself), in order; only nofollow links when asked. */
  async sourcesOf(crawlId: number, url: string, onlyNofollow: boolean): Promise<string[]> {
    let query = this.db
      .selectFrom("crawl_links")
      .select("from_url")
      .distinct()
      .where("crawl_id", "=", crawlId)
      .where("to_url", "=", url)
      .where("from_url", "<>", url);
    if (onlyNofollow) query = query.where("nofollow", "=", 1);
    const rows = await query.orderBy("from_url").execute();
    return rows.map((row) => row.from_url);
  }

  private filtered(crawlId: number, filter: LinkFilter) {
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
