/**
 * The change summaries the project dashboard shows, on both databases, over real crawls of a local site that
 * changes between them: a crawl that completes stores its summary against the previous complete crawl (none for
 * the first crawl), equal to the one the live comparison gives; deleting a crawl deletes the summaries of both of
 * its pairs, and the latest crawl is then compared with the crawl now before it (and that summary stored).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CrawlChangeSummaries, summaryOf } from "../../src/crawls/crawl-change-summary.js";
import { CrawlComparison, type CrawlDiff } from "../../src/crawls/crawl-diff.js";
import type { CrawlRow } from "../../src/crawls/crawl-store.js";
import { type CrawlStores, openCrawlStores } from "../../src/crawls/crawl-stores.js";
import { call, databaseKinds, startApi, type TestApi } from "../helpers/api.js";
import { type ChangingSite, startChangingSite } from "../helpers/changing-site.js";
import { eventually } from "../helpers/job-queues.js";

describe.each(databaseKinds)("crawl change summaries on %s", (kind) => {
  let api: TestApi;
  let site: ChangingSite;
  let key: string;
  let stores: CrawlStores;
  let summaries: CrawlChangeSummaries;

  beforeAll(async () => {
    site = await startChangingSite();
    api = await startApi(kind, { PAGEGRADE_CRAWL_DELAY_MS: "0" });
    key = await api.newUser();
    stores = openCrawlStores(api.database.store);
    // A comparison of its own, with nothing remembered: each diff here is computed from the database.
    summaries = new CrawlChangeSummaries(
      new CrawlComparison(stores.crawls, stores.diffs),
      stores.summaries,
      stores.diffs,
    );
  });
  afterAll(async () => {
    await api.close();
    await site.close();
  });

  const storedRows = () =>
    api.database.store.db
      .selectFrom("crawl_change_summaries")
      .select(["to_crawl_id", "from_crawl_id"])
      .orderBy("to_crawl_id")
      .execute();

  /** A crawl of the site as it is now, once complete (and its summary, if it has one, stored). */
  const crawl = async (version: 1 | 2): Promise<CrawlRow> => {
    site.version = version;
    const created = await call(api, "POST", "/api/v1/crawls", {
      key,
      json: { url: site.url("/"), sitemaps: 0 },
    });
    expect(created.statusCode).toBe(202);
    const id = created.json().data.id as number;
    await eventually(
      async () => (await call(api, "GET", `/api/v1/crawls/${id}`, { key })).json().data.status === "complete",
      "the crawl to complete",
      60_000,
    );
    const row = await api.database.store.db
      .selectFrom("crawls")
      .selectAll()
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    return row as CrawlRow;
  };
  const live = async (crawl: CrawlRow) =>
    summaryOf(
      (await new CrawlComparison(stores.crawls, stores.diffs).diff(crawl.user_id, crawl.id)) as CrawlDiff,
    );

  it("stores each complete crawl's summary, equal to the live comparison's, and drops it with a crawl", async () => {
    const first = await crawl(1);
    const second = await crawl(2);
    await eventually(
      async () => (await storedRows()).some((row) => row.to_crawl_id === second.id),
      "the second crawl's summary",
      20_000,
    );
    // The first crawl had nothing to be compared with.
    expect(await storedRows()).toEqual([{ to_crawl_id: second.id, from_crawl_id: first.id }]);
    const stored = await stores.summaries.stored(second.id);
    expect(stored).toEqual(await live(second));
    // What the changing site changes: one broken link new, one resolved with the duplicate title, /a regressed
    // and /fixme fixed.
    expect(stored).toMatchObject({
      from: { id: first.id, finished_at: first.finished_at, score: first.score },
      to: { id: second.id, score: second.score },
      new_findings: 1,
      resolved_findings: 2,
      pages_regressed: 1,
      pages_fixed: 1,
    });
    expect(stored?.first_new).toEqual([
      {
        check: "broken-links",
        importance: "high",
        item: expect.objectContaining({ url: site.url("/gone2") }),
      },
    ]);
    expect(await summaries.latest(second)).toEqual(stored);

    const third = await crawl(1);
    await eventually(
      async () => (await storedRows()).some((row) => row.to_crawl_id === third.id),
      "the third crawl's summary",
      20_000,
    );
    const againstSecond = await stores.summaries.stored(third.id);
    expect(againstSecond).toEqual(await live(third));
    expect(againstSecond).toMatchObject({ from: { id: second.id }, new_findings: 2, resolved_findings: 1 });

    // Deleting the second crawl deletes its summary and the third's, which was against it.
    expect((await call(api, "DELETE", `/api/v1/crawls/${second.id}`, { key })).statusCode).toBe(200);
    expect(await storedRows()).toEqual([]);
    // The third crawl is now compared with the first (the same site: nothing changed), and that is stored.
    const againstFirst = await summaries.latest(third);
    expect(againstFirst).toEqual(await live(third));
    expect(againstFirst).toMatchObject({
      from: { id: first.id },
      new_findings: 0,
      resolved_findings: 0,
      pages_regressed: 0,
      pages_fixed: 0,
      first_new: [],
    });
    expect(await storedRows()).toEqual([{ to_crawl_id: third.id, from_crawl_id: first.id }]);
    expect(await stores.summaries.stored(third.id)).toEqual(againstFirst);
  }, 240_000);
});
