/**
 * A check's affected pages on SQLite and on PostgreSQL, in the two orders CrawlFindings reads them: the crawl's
 * (the API's documented order, by page) and failures first (the web page's), paged so that a page of the list
 * reads from the failures, from the warnings, or runs on from one into the other, with none left out or twice.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CrawlFindings } from "../../src/crawls/crawl-findings.js";
import type { CrawlStores } from "../../src/crawls/crawl-stores.js";
import { insertNamedRows, type PageCheckStatus } from "../../src/crawls/page-check-code-store.js";
import { databaseKinds, type TestDatabase } from "../helpers/api.js";
import { crawlStoresOn, runningCrawl } from "../helpers/crawl-rows.js";

/** The statuses of the check on the crawl's pages /p0, /p1, … in the order the crawl found them. */
const statuses: PageCheckStatus[] = ["warn", "fail", "warn", "warn", "fail", "warn", "fail", "warn"];
const check = "image-alt";

describe.each(databaseKinds)("a check's affected pages on %s", (kind) => {
  let database: TestDatabase;
  let stores: CrawlStores;
  let findings: CrawlFindings;
  let crawlId: number;

  beforeAll(async () => {
    let userId: number;
    ({ database, stores, userId } = await crawlStoresOn(kind));
    findings = new CrawlFindings(stores.rollups, stores.links, stores.listings);
    crawlId = (await runningCrawl(stores, userId)).id;
    const db = database.store.db;
    for (const [index] of statuses.entries()) {
      await db
        .insertInto("crawl_pages")
        .values({ crawl_id: crawlId, url: `https://site.example/p${index}`, depth: 1, state: "done" })
        .execute();
    }
    const pages = await db
      .selectFrom("crawl_pages")
      .select(["id", "url"])
      .where("crawl_id", "=", crawlId)
      .orderBy("id")
      .execute();
    await insertNamedRows(
      db,
      pages.map((page, index) => ({
        crawl_id: crawlId,
        page_id: page.id,
        check_id: check,
        status: statuses[index] as PageCheckStatus,
        template: "/*",
      })),
    );
  });
  afterAll(async () => database.drop());

  const path = (url: string) => new URL(url).pathname;
  const crawlOrder = statuses.map((status, index) => `${status} /p${index}`);
  const failuresFirst = [
    ...crawlOrder.filter((row) => row.startsWith("fail")),
    ...crawlOrder.filter((row) => row.startsWith("warn")),
  ];

  /** Every row, read `perPage` at a time, as "status /path". */
  const everyRow = async (perPage: number, options: { failuresFirst?: boolean }) => {
    const read: string[] = [];
    for (let offset = 0; offset < statuses.length + perPage; offset += perPage) {
      const { rows, total } = await findings.checkPages(crawlId, check, { limit: perPage, offset }, options);
      expect(total).toBe(statuses.length);
      expect(rows.length).toBe(Math.max(0, Math.min(perPage, statuses.length - offset)));
      read.push(...rows.map((row) => `${row.status} ${path(row.url)}`));
    }
    return read;
  };

  it("keeps the crawl's order by default (the API's)", async () => {
    for (const perPage of [1, 3, 50]) expect(await everyRow(perPage, {})).toEqual(crawlOrder);
  });

  it("lists every failure before the warnings when asked (the web page's), across any paging", async () => {
    // Three failures: pages of 2 end inside them, pages of 3 end on the boundary, pages of 4 run across it.
    for (const perPage of [1, 2, 3, 4, 50]) {
      expect(await everyRow(perPage, { failuresFirst: true })).toEqual(failuresFirst);
    }
  });
});
