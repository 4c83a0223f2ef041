/**
 * CrawlListings on SQLite and on PostgreSQL: the pages in the order found, a page at a time; the pages table
 * filtered by state or URLs (any number of them: one bound parameter), sorted by a column with nulls where the API documents them, paged with its total;
 * the issues in their order.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { crawlBounds } from "../../src/crawls/crawl-bounds.js";
import type { CrawlPageQuery } from "../../src/crawls/crawl-listing-store.js";
import type { CrawlRow, ListedPageRow } from "../../src/crawls/crawl-store.js";
import type { CrawlStores } from "../../src/crawls/crawl-stores.js";
import { databaseKinds, type TestDatabase } from "../helpers/api.js";
import { crawlStoresOn, runningCrawl, siteUrl } from "../helpers/crawl-rows.js";

const url = (path: string) => new URL(path, siteUrl).href;

/** Twelve pages: eight answered (two redirects among them), two failed, two excluded. */
const seeded: Array<[string, Partial<Omit<ListedPageRow, "id" | "crawl_id" | "url">>]> = [
  ["/", { state: "done", status_code: 200, score: 90, inlinks: 4 }],
  ["/a", { state: "done", status_code: 200, score: 40, inlinks: 2 }],
  ["/b", { state: "done", status_code: 200, score: 75, inlinks: 9 }],
  ["/c", { state: "done", status_code: 200, score: 75, inlinks: 0 }],
  ["/d", { state: "done", status_code: 200, score: 12, inlinks: 1 }],
  ["/e", { state: "done", status_code: 404, score: null, inlinks: 3 }],
  ["/r1", { state: "done", status_code: 301, redirect_to: url("/a") }],
  ["/r2", { state: "done", status_code: 308, redirect_to: url("/b") }],
  ["/f1", { state: "failed", error: "timeout" }],
  ["/f2", { state: "failed", status_code: 500 }],
  ["/x1", { state: "excluded", excluded: "robots" }],
  ["/x2", { state: "excluded", excluded: "limit" }],
];

describe.each(databaseKinds)("CrawlListings on %s", (kind) => {
  let database: TestDatabase;
  let stores: CrawlStores;
  let crawl: CrawlRow;
  let other: CrawlRow;

  beforeAll(async () => {
    let userId: number;
    ({ database, stores, userId } = await crawlStoresOn(kind));
    crawl = await runningCrawl(stores, userId, { max_pages: 100 });
    other = await runningCrawl(stores, userId);
    const bounds = crawlBounds(100);
    await stores.frontier.discover(
      crawl.id,
      seeded.map(([path], index) => ({ url: url(path), depth: index === 0 ? 0 : 1 })),
      bounds,
    );
    await stores.frontier.discover(other.id, [{ url: url("/elsewhere"), depth: 0 }], bounds);
    const rows = await stores.listings.pages(crawl.id, { limit: 100, offset: 0 });
    for (const [index, [, { inlinks, ...facts }]] of seeded.entries()) {
      const id = rows[index]?.id as number;
      await database.store.db.updateTable("crawl_pages").set(facts).where("id", "=", id).execute();
      // As the crawl's judgement counts them; a page without a row has none.
      if (inlinks !== undefined)
        await database.store.db.insertInto("crawl_page_inlinks").values({ page_id: id, inlinks }).execute();
    }
  }, 30_000);
  afterAll(async () => database.drop());

  const table = async (query: Partial<CrawlPageQuery>) => {
    const { rows, total } = await stores.listings.pageTable(crawl.id, {
      sort: "id",
      direction: "asc",
      limit: 100,
      offset: 0,
      ...query,
    });
    return { paths: rows.map((row) => new URL(row.url).pathname), total };
  };

  it("lists the crawl's pages in the order found, a page at a time, and counts them", async () => {
    const first = await stores.listings.pages(crawl.id, { limit: 5, offset: 0 });
    const rest = await stores.listings.pages(crawl.id, { limit: 100, offset: 5 });
    expect([...first, ...rest].map((row) => row.url)).toEqual(seeded.map(([path]) => url(path)));
    expect(first).toHaveLength(5);
    expect(await stores.listings.pages(crawl.id, { limit: 5, offset: 12 })).toEqual([]);
    expect(await stores.listings.pageCount(crawl.id)).toBe(12);
    expect(await stores.listings.pageCount(other.id)).toBe(1);
  });

  it.each([
    ["ok", ["/", "/a", "/b", "/c", "/d"]],
    ["redirect", ["/r1", "/r2"]],
    ["error", ["/f1", "/f2"]],
    ["excluded", ["/x1", "/x2"]],
  ] as const)("filters the pages table by state %s", async (status, paths) => {
    expect(await table({ status })).toEqual({ paths, total: paths.length });
  });

  it("limits the table to some URLs, and to none when given none", async () => {
    const urls = [url("/b"), url("/f1"), url("/nowhere")];
    expect(await table({ urls })).toEqual({ paths: ["/b", "/f1"], total: 2 });
    expect(await table({ urls, status: "ok" })).toEqual({ paths: ["/b"], total: 1 });
    expect(await table({ urls: [] })).toEqual({ paths: [], total: 0 });
  });

  it("limits the table to an issue's pages however many, past either database's bound parameters", async () => {
    // An issue of a huge crawl naming 70,000 pages: more than SQLite's 32,766 and PostgreSQL's 65,535 parameters.
    const many = Array.from({ length: 70_000 }, (_, index) => url(`/page-${index}`));
    many.splice(35_000, 0, url("/b"), url("/f1"));
    many.push(url("/x2"), url("/elsewhere"));
    expect(await table({ urls: many, limit: 2 })).toEqual({ paths: ["/b", "/f1"], total: 3 });
    expect(await table({ urls: many, status: "excluded" })).toEqual({ paths: ["/x2"], total: 1 });
    // URLs are compared exactly (no JSON or array quoting leaks into them).
    expect(await table({ urls: [url("/b").toUpperCase(), `"${url("/b")}"`, url("/b'")] })).toEqual({
      paths: [],
      total: 0,
    });
  });

  it("sorts by a column, ties in the order found, nulls first going up and last going down", async () => {
    const ok = { status: "ok" as const };
    expect((await table({ ...ok, sort: "score", direction: "asc" })).paths).toEqual([
      "/d",
      "/a",
      "/b",
      "/c",
      "/",
    ]);
    expect((await table({ ...ok, sort: "score", direction: "desc" })).paths).toEqual([
      "/",
      "/b",
      "/c",
      "/a",
      "/d",
    ]);
    expect((await table({ ...ok, sort: "inlinks", direction: "desc" })).paths).toEqual([
      "/b",
      "/",
      "/a",
      "/d",
      "/c",
    ]);
    const byScore = (await table({ sort: "score", direction: "asc" })).paths;
    expect(byScore.slice(-5)).toEqual(["/d", "/a", "/b", "/c", "/"]);
    const byScoreDown = (await table({ sort: "score", direction: "desc" })).paths;
    expect(byScoreDown.slice(0, 5)).toEqual(["/", "/b", "/c", "/a", "/d"]);
  });

  it("pages the table, its total counting every matching row", async () => {
    const pages = [];
    for (let offset = 0; offset < 12; offset += 5) {
      pages.push(await table({ sort: "url", direction: "desc", limit: 5, offset }));
    }
    expect(pages.map((page) => page.total)).toEqual([12, 12, 12]);
    expect(pages.map((page) => page.paths.length)).toEqual([5, 5, 2]);
    const all = pages.flatMap((page) => page.paths);
    expect(all).toEqual([...seeded.map(([path]) => path)].sort().reverse());
    expect(await table({ limit: 5, offset: 20 })).toEqual({ paths: [], total: 12 });
  });
});
