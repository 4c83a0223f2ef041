/**
 * PartClaims on SQLite and on PostgreSQL: the pages a part claimed, the one in hand and (PostgreSQL) those
 * claimed ahead in the same statement; their reports looked up together; their leases renewed together, a held
 * page another part took since dropped; and what was not crawled handed back to the queue and the budget.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { crawlBounds } from "../../src/crawls/crawl-bounds.js";
import type { CrawlPageRow } from "../../src/crawls/crawl-store.js";
import type { CrawlStores } from "../../src/crawls/crawl-stores.js";
import { claimAhead, PartClaims } from "../../src/crawls/part-claims.js";
import { databaseKinds, type TestDatabase } from "../helpers/api.js";
import { crawlStoresOn, runningCrawl, siteUrl } from "../helpers/crawl-rows.js";

const url = (path: string) => new URL(path, siteUrl).href;

describe.each(databaseKinds)("PartClaims on %s", (kind) => {
  let database: TestDatabase;
  let stores: CrawlStores;
  let userId: number;

  beforeAll(async () => {
    ({ database, stores, userId } = await crawlStoresOn(kind));
  });
  afterAll(async () => database.drop());

  const pageRows = (crawlId: number) =>
    database.store.db
      .selectFrom("crawl_pages")
      .selectAll()
      .where("crawl_id", "=", crawlId)
      .orderBy("id")
      .execute();
  const reserved = async (crawlId: number) =>
    Number(
      (
        await database.store.db
          .selectFrom("crawls")
          .select("reserved")
          .where("id", "=", crawlId)
          .executeTakeFirstOrThrow()
      ).reserved,
    );

  it("crawls the pages claimed ahead in order, renews them together and hands back what is left", async () => {
    const crawl = await runningCrawl(stores, userId, { max_pages: 100, parts: 1 });
    await stores.frontier.discover(
      crawl.id,
      Array.from({ length: 6 }, (_, n) => ({ url: url(`/held/${n}`), depth: 1 })),
      crawlBounds(crawl.max_pages),
    );
    const expected: string[][] = [];
    const claims = new PartClaims(stores.frontier, crawl, 0, {
      expect: async (pages) => {
        expected.push(pages.map((page) => new URL(page.url).pathname));
      },
    });
    const ahead = kind === "postgres" ? claimAhead : 1;

    const first = (await claims.next(true)) as CrawlPageRow;
    expect(new URL(first.url).pathname).toBe("/held/0");
    // One claim for the pages it took, their reports looked up in one go.
    expect(expected).toEqual([Array.from({ length: ahead }, (_, n) => `/held/${n}`)]);
    expect(await reserved(crawl.id)).toBe(ahead);
    const fetching = (await pageRows(crawl.id)).filter((row) => row.state === "fetching");
    expect(fetching.map((row) => new URL(row.url).pathname)).toEqual(expected[0]);

    // Renewing extends the page in hand's lease and the held pages'.
    const before = new Map(fetching.map((row) => [row.id, row.lease_until]));
    await new Promise((resolve) => setTimeout(resolve, 5));
    await claims.renew(first);
    for (const row of (await pageRows(crawl.id)).filter((row) => row.state === "fetching")) {
      expect((row.lease_until ?? "") > (before.get(row.id) ?? "")).toBe(true);
    }

    if (kind === "postgres") {
      // A held page whose lease ran out and that another part took since is dropped at the next renewal.
      const taken = fetching[1] as CrawlPageRow;
      await database.store.db
        .updateTable("crawl_pages")
        .set({ claimed_by: 7 })
        .where("id", "=", taken.id)
        .execute();
      await claims.renew(first);
      const second = (await claims.next(true)) as CrawlPageRow;
      expect(new URL(second.url).pathname).toBe("/held/2");
      expect(expected).toHaveLength(1); // taken from those held: no new claim
    }

    // The run ends: what is still held goes back to the queue, its fetches to the budget.
    await claims.handBackHeld();
    const rows = await pageRows(crawl.id);
    const stillFetching = rows.filter((row) => row.state === "fetching").map((row) => row.url);
    const inHand = kind === "postgres" ? [first.url, url("/held/1"), url("/held/2")] : [first.url];
    expect(stillFetching.sort()).toEqual(inHand.sort());
    expect(await reserved(crawl.id)).toBe(inHand.length);
    expect(rows.filter((row) => row.state === "queued")).toHaveLength(6 - inHand.length);
    expect(rows.filter((row) => row.state === "queued").every((row) => row.attempts === 0)).toBe(true);
  });
});
