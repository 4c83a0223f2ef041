/**
 * The lists of a crawl's results for the API, the pages and the command line: its pages (in the order found, or
 * as a table filtered by state or URLs and sorted by a column), its site issues, every finding of a site check
 * (a batch at a time, for the issues export), and its overview (grouped counts for the crawl page's charts).
 */
import { type Kysely, sql } from "kysely";
import { inWorkspace, type Owner } from "../store/owned-rows.js";
import type { Database } from "../store/schema.js";
import type { Dialect, Store } from "../store/store.js";
import type { CrawlIssueRow, CrawlRow, ListedPageRow } from "./crawl-store.js";
import { pageState } from "./page-state.js";

export const crawlPageSorts = ["id", "url", "status_code", "depth", "inlinks", "score"] as const;
export const crawlPageStates = ["ok", "redirect", "error", "excluded"] as const;

/** A page's inlinks: its row in `crawl_page_inlinks` (migration 026), 0 without one. */
const inlinks = sql<number>`coalesce(crawl_page_inlinks.inlinks, 0)`;

export interface CrawlPageQuery {
  status?: (typeof crawlPageStates)[number];
  /** Only these URLs (an issue's pages). */
  urls?: string[];
  sort: (typeof crawlPageSorts)[number];
  direction: "asc" | "desc";
  limit: number;
  offset: number;
}

/** A crawl at a glance: its pages counted by answer, click depth and score, and its recorded links. */
export interface CrawlOverview {
  /** Pages by state and status code (null: no answer). */
  answers: Array<{ state: string; status_code: number | null; count: number }>;
  /** Fetched pages by clicks from the start page. */
  depths: Array<{ depth: number | null; count: number }>;
  /** Analysed pages by score. */
  scores: Array<{ score: number; count: number }>;
  links: { total: number; nofollow: number };
}

export class CrawlListings {
  private readonly db: Kysely<Database>;
  private readonly dialect: Dialect;

  constructor(store: Store) {
    this.db = store.db;
    this.dialect = store.dialect;
  }

  pages(crawlId: number, page: { limit: number; offset: number }): Promise<ListedPageRow[]> {
    return this.listed()
      .where("crawl_id", "=", crawlId)
      .orderBy("id")
      .limit(page.limit)
      .offset(page.offset)
      .execute();
  }

  /** Every page of the crawl in the order found, a batch at a time (by id, so each batch is an index range). */
  async *pageBatches(crawlId: number, batchRows = 1_000): AsyncGenerator<ListedPageRow[]> {
    let after = 0;
    for (;;) {
      const rows = await this.listed()
        .where("crawl_id", "=", crawlId)
        .where("id", ">", after)
        .orderBy("id")
        .limit(batchRows)
        .execute();
      if (rows.length > 0) yield rows;
      if (rows.length < batchRows) return;
      after = (rows[rows.length - 1] as ListedPageRow).id;
    }
  }

  /**
   * A page of the crawl's pages table: by state (`ok` a 2xx, `redirect` a 3xx, `error` a failed fetch,
   * `excluded` not fetched), limited to some URLs (an issue's pages), sorted by a column.
   */
  async pageTable(crawlId: number, query: CrawlPageQuery): Promise<{ rows: ListedPageRow[]; total: number }> {
    let pages = this.db.selectFrom("crawl_pages").where("crawl_id", "=", crawlId);
    if (query.status === "ok") pages = pages.where("status_code", ">=", 200).where("status_code", "<", 300);
    if (query.status === "redirect")
      pages = pages.where("status_code", ">=", 300).where("status_code", "<", 400);
    if (query.status === "error") pages = pages.where("state", "=", pageState("failed"));
    if (query.status === "excluded") pages = pages.where("state", "=", pageState("excluded"));
    if (query.urls !== undefined) pages = pages.where(this.urlIn(query.urls));
    const [rows, counted] = await Promise.all([
      pages
        .leftJoin("crawl_page_inlinks", "crawl_page_inlinks.page_id", "crawl_pages.id")
        .selectAll("crawl_pages")
        .select(inlinks.as("inlinks"))
        .orderBy(query.sort === "inlinks" ? inlinks : `crawl_pages.${query.sort}`, (order) =>
          query.direction === "asc" ? order.asc().nullsFirst() : order.desc().nullsLast(),
        )
        .orderBy("crawl_pages.id")
        .limit(query.limit)
        .offset(query.offset)
        .execute(),
      pages.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(counted.n) };
  }

  /**
   * `url` is one of `urls`, however many (an issue of a huge crawl names tens of thousands of pages): the list is
   * one bound parameter, never one per URL, which SQLite (32,766) and PostgreSQL (65,535) would refuse past their
   * limit. PostgreSQL reads it as a text array; SQLite as a JSON array through `json_each`.
   */
  private urlIn(urls: string[]) {
    if (urls.length === 0) return sql<boolean>`1 = 0`;
    return this.dialect === "postgres"
      ? sql<boolean>`url = any(${urls}::text[])`
      : sql<boolean>`url in (select value from json_each(${JSON.stringify(urls)}))`;
  }

  /** The pages' rows with their inlinks. */
  private listed() {
    return this.db
      .selectFrom("crawl_pages")
      .leftJoin("crawl_page_inlinks", "crawl_page_inlinks.page_id", "crawl_pages.id")
      .selectAll("crawl_pages")
      .select(inlinks.as("inlinks"));
  }

  async pageCount(crawlId: number): Promise<number> {
    const row = await this.db
      .selectFrom("crawl_pages")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("crawl_id", "=", crawlId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** The workspace's latest complete crawls of the project, newest first. */
  completeCrawls(owner: Owner, project: string, limit: number): Promise<CrawlRow[]> {
    return this.db
      .selectFrom("crawls")
      .selectAll()
      .where(inWorkspace(owner))
      .where("project", "=", project)
      .where("status", "=", "complete")
      .orderBy("finished_at", "desc")
      .orderBy("id", "desc")
      .limit(limit)
      .execute();
  }

  /** Grouped counts over the crawl's pages and links (a few rows each, whatever the crawl's size). */
  async overview(crawlId: number): Promise<CrawlOverview> {
    const pages = this.db.selectFrom("crawl_pages").where("crawl_id", "=", crawlId);
    const count = sql<number>`count(*)`.as("count");
    const [answers, depths, scores, links] = await Promise.all([
      pages.select(["state", "status_code", count]).groupBy(["state", "status_code"]).execute(),
      pages
        .where("state", "!=", "excluded")
        .select(["depth", count])
        .groupBy("depth")
        .orderBy("depth")
        .execute(),
      pages.where("score", "is not", null).select(["score", count]).groupBy("score").execute(),
      this.db
        .selectFrom("crawl_links")
        .where("crawl_id", "=", crawlId)
        .select([count, sql<number | null>`sum(nofollow)`.as("nofollow")])
        .executeTakeFirstOrThrow(),
    ]);
    return {
      answers: answers.map((row) => ({ ...row, count: Number(row.count) })),
      depths: depths.map((row) => ({ depth: row.depth, count: Number(row.count) })),
      scores: scores.map((row) => ({ score: Number(row.score), count: Number(row.count) })),
      links: { total: Number(links.count), nofollow: Number(links.nofollow ?? 0) },
    };
  }

  issues(crawlId: number): Promise<CrawlIssueRow[]> {
    return this.db
      .selectFrom("crawl_issues")
      .selectAll()
      .where("crawl_id", "=", crawlId)
      .orderBy("position")
      .execute();
  }

  /** One finding of a site check of the crawl by its fingerprint (`crawl_findings`), as its item's JSON. */
  async finding(crawlId: number, check: string, fingerprint: string): Promise<string | null> {
    const row = await this.db
      .selectFrom("crawl_findings")
      .select("item")
      .where("crawl_id", "=", crawlId)
      .where("check_id", "=", check)
      .where("fingerprint", "=", fingerprint)
      .orderBy("position")
      .limit(1)
      .executeTakeFirst();
    return row?.item ?? null;
  }

  /**
   * Every finding of one site check of the crawl (`crawl_findings`, migration 020) in the check's order, a batch
   * at a time (by position, so each batch is a range of the primary key), as the items' JSON.
   */
  async *findingBatches(crawlId: number, check: string, batchRows = 1_000): AsyncGenerator<string[]> {
    let after = -1;
    for (;;) {
      const rows = await this.db
        .selectFrom("crawl_findings")
        .select(["position", "item"])
        .where("crawl_id", "=", crawlId)
        .where("check_id", "=", check)
        .where("position", ">", after)
        .orderBy("position")
        .limit(batchRows)
        .execute();
      if (rows.length > 0) yield rows.map((row) => row.item);
      if (rows.length < batchRows) return;
      after = (rows[rows.length - 1] as { position: number }).position;
    }
  }
}
