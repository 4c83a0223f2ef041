/**
 * CrawlProgress on SQLite: a part's new turn counts at the interval its crawl's counts earned in this process
 * (a slow count earns a long one), not at the shortest; a crawl never counted here starts at the shortest.
 */
import { setTimeout as pause } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CrawlProgress } from "../../src/crawls/crawl-progress.js";
import type { CrawlStore } from "../../src/crawls/crawl-store.js";
import type { CrawlStores } from "../../src/crawls/crawl-stores.js";
import { timestamp } from "../../src/timestamps.js";
import type { TestDatabase } from "../helpers/api.js";
import { crawlStoresOn, runningCrawl } from "../helpers/crawl-rows.js";

/** The real store, its counts made 40 ms slower (as a count of a 100,000-page frontier is). */
function slowCounts(crawls: CrawlStore): CrawlStore {
  const slow = Object.create(crawls) as CrawlStore;
  slow.refreshCounters = async (crawlId, at) => {
    await pause(40);
    return crawls.refreshCounters(crawlId, at);
  };
  return slow;
}

describe("CrawlProgress", () => {
  let database: TestDatabase;
  let stores: CrawlStores;
  let userId: number;

  beforeAll(async () => {
    ({ database, stores, userId } = await crawlStoresOn("sqlite"));
  });
  afterAll(async () => database.drop());

  /** Makes the crawl's last count `agoMs` old. */
  const countedAgo = (crawlId: number, agoMs: number) =>
    stores.crawls.update(crawlId, { updated_at: timestamp(new Date(Date.now() - agoMs)) });

  it("starts a part's next turn at the interval the crawl's slow counts earned", async () => {
    const crawls = slowCounts(stores.crawls);
    const slowCrawl = await runningCrawl(stores, userId);
    const counted: number[] = [];
    const onProgress = (crawlId: number) => counted.push(crawlId);
    await countedAgo(slowCrawl.id, 10_000);
    await new CrawlProgress(crawls, slowCrawl.id, onProgress).count();
    expect(counted).toEqual([slowCrawl.id]); // took 40 ms or more: the next in 4 s or more

    // The next turn's part, a second after the count: not yet.
    await countedAgo(slowCrawl.id, 1_000);
    await new CrawlProgress(crawls, slowCrawl.id, onProgress).count();
    expect(counted).toEqual([slowCrawl.id]);

    // A crawl never counted in this process, counted as long ago: at once.
    const freshCrawl = await runningCrawl(stores, userId);
    await countedAgo(freshCrawl.id, 1_000);
    await new CrawlProgress(crawls, freshCrawl.id, onProgress).count();
    expect(counted).toEqual([slowCrawl.id, freshCrawl.id]);

    // Past the earned interval, the slow crawl is counted again.
    await countedAgo(slowCrawl.id, 6_000);
    await new CrawlProgress(crawls, slowCrawl.id, onProgress).count();
    expect(counted).toEqual([slowCrawl.id, freshCrawl.id, slowCrawl.id]);
  });

  it("counts at once when asked to, whatever the interval", async () => {
    const crawl = await runningCrawl(stores, userId);
    const counted: number[] = [];
    await new CrawlProgress(stores.crawls, crawl.id, (id) => counted.push(id)).count(true);
    await new CrawlProgress(stores.crawls, crawl.id, (id) => counted.push(id)).count(true);
    expect(counted).toEqual([crawl.id, crawl.id]);
  });
});
