/**
 * CrawlStore on SQLite and on PostgreSQL: a crawl's row is reached for its owner only; the seed and finish leases
 * go to one part at a time until they run out; the counters are recounted from the pages, and at most once per
 * interval whoever asks (a part's new turn does not reset the interval); a failed start asks the crawl to stop.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { crawlBounds } from "../../src/crawls/crawl-bounds.js";
import type { CrawlRow } from "../../src/crawls/crawl-store.js";
import type { CrawlStores } from "../../src/crawls/crawl-stores.js";
import { timestamp } from "../../src/timestamps.js";
import { databaseKinds, type TestDatabase } from "../helpers/api.js";
import { crawlOwner, crawlStoresOn, runningCrawl, siteUrl } from "../helpers/crawl-rows.js";

const at = (ms: number) => timestamp(new Date(ms));

describe.each(databaseKinds)("CrawlStore on %s", (kind) => {
  let database: TestDatabase;
  let stores: CrawlStores;
  let userId: number;
  let stranger: number;

  beforeAll(async () => {
    ({ database, stores, userId } = await crawlStoresOn(kind));
    stranger = await crawlOwner(database.store);
  });
  afterAll(async () => database.drop());

  it("finds, cancels and deletes a crawl for its owner only", async () => {
    const crawl = await runningCrawl(stores, userId);
    expect(await stores.crawls.find(stranger, crawl.id)).toBeUndefined();
    expect(await stores.crawls.requestCancel(stranger, crawl.id, timestamp())).toBeUndefined();
    expect(await stores.crawls.delete(stranger, crawl.id)).toBe(false);
    expect((await stores.crawls.requestCancel(userId, crawl.id, timestamp()))?.cancel_requested).toBe(1);
    expect(await stores.crawls.delete(userId, crawl.id)).toBe(true);
    expect(await stores.crawls.find(userId, crawl.id)).toBeUndefined();
  });

  it.each(["seed_lease_until", "finish_lease_until"] as const)(
    "gives the %s to one part until it runs out, and never on an ended crawl",
    async (lease) => {
      const crawl = await runningCrawl(stores, userId);
      const now = Date.now();
      expect(await stores.crawls.takeLease(crawl.id, lease, at(now), at(now + 60_000))).toBe(true);
      expect(await stores.crawls.takeLease(crawl.id, lease, at(now + 1_000), at(now + 61_000))).toBe(false);
      expect(await stores.crawls.takeLease(crawl.id, lease, at(now + 60_001), at(now + 120_000))).toBe(true);
      await stores.crawls.endRunning(crawl.id, { status: "complete" });
      expect(await stores.crawls.takeLease(crawl.id, lease, at(now + 200_000), at(now + 260_000))).toBe(
        false,
      );
    },
  );

  it("renews a lease only for the part that holds it, which keeps it from the others", async () => {
    const crawl = await runningCrawl(stores, userId);
    const now = Date.now();
    expect(await stores.crawls.takeLease(crawl.id, "finish_lease_until", at(now), at(now + 60_000))).toBe(
      true,
    );
    // Renewed by its holder before it runs out: past the first term, no other part can take it.
    expect(
      await stores.crawls.renewLease(crawl.id, "finish_lease_until", at(now + 60_000), at(now + 120_000)),
    ).toBe(true);
    expect(
      await stores.crawls.takeLease(crawl.id, "finish_lease_until", at(now + 90_000), at(now + 150_000)),
    ).toBe(false);
    // A part whose lease was taken over cannot renew it.
    expect(
      await stores.crawls.takeLease(crawl.id, "finish_lease_until", at(now + 120_001), at(now + 180_000)),
    ).toBe(true);
    expect(
      await stores.crawls.renewLease(crawl.id, "finish_lease_until", at(now + 120_000), at(now + 240_000)),
    ).toBe(false);
    await stores.crawls.endRunning(crawl.id, { status: "complete" });
    expect(
      await stores.crawls.renewLease(crawl.id, "finish_lease_until", at(now + 180_000), at(now + 300_000)),
    ).toBe(false);
  });

  it("counts the crawl from its pages, and at most once per interval whoever asks", async () => {
    const crawl = await runningCrawl(stores, userId);
    await stores.frontier.discover(
      crawl.id,
      ["", "a", "b", "c", "d"].map((path, index) => ({
        url: `${siteUrl}${path}`,
        depth: index === 0 ? 0 : 1,
      })),
      crawlBounds(crawl.max_pages),
    );
    const pages = await stores.listings.pages(crawl.id, { limit: 10, offset: 0 });
    const ids = pages.map((page) => page.id);
    await stores.frontier.settlePage(ids[0] as number, { state: "done", report_id: 1 });
    await stores.frontier.settlePage(ids[1] as number, { state: "done", status_code: 301 }); // a redirect
    await stores.frontier.settlePage(ids[2] as number, { state: "failed", error: "timeout" });
    await stores.frontier.settlePage(ids[3] as number, { state: "excluded", excluded: "robots" });
    const counted = (await stores.crawls.refreshCounters(crawl.id, timestamp())) as CrawlRow;
    expect([counted.discovered, counted.analysed, counted.failed, counted.excluded]).toEqual([5, 1, 1, 1]);

    const now = new Date(Date.now() + 10_000);
    await stores.crawls.update(crawl.id, { updated_at: timestamp(new Date(now.getTime() - 1_000)) });
    expect(await stores.crawls.refreshCountersUnlessRecent(crawl.id, 250, now)).toBe(true);
    expect(
      await stores.crawls.refreshCountersUnlessRecent(crawl.id, 250, new Date(now.getTime() + 100)),
    ).toBe(false);
    await stores.frontier.settlePage(ids[4] as number, { state: "done", report_id: 2 });
    expect(
      await stores.crawls.refreshCountersUnlessRecent(crawl.id, 250, new Date(now.getTime() + 300)),
    ).toBe(true);
    expect((await stores.crawls.find(userId, crawl.id))?.analysed).toBe(2);
  });

  it("leaves a running crawl's updated_at when a part starts its turn (the counts' turns go by it)", async () => {
    const crawl = await runningCrawl(stores, userId);
    const earlier = at(Date.now() - 60_000);
    await stores.crawls.update(crawl.id, { updated_at: earlier });
    const turn = await stores.crawls.markRunning(crawl.id, timestamp());
    expect([turn?.status, turn?.updated_at]).toEqual(["running", earlier]);
    const queued = await runningCrawl(stores, userId);
    await stores.crawls.update(queued.id, { status: "queued", updated_at: earlier });
    const started = await stores.crawls.markRunning(queued.id, at(Date.now()));
    expect(started?.status).toBe("running");
    expect(started?.updated_at).not.toBe(earlier);
  });

  it("asks a running crawl to stop when its start fails, keeping the reason", async () => {
    const crawl = await runningCrawl(stores, userId);
    const error = { reason: "timeout", message: "The start page failed." };
    await stores.crawls.failStart(crawl.id, error, timestamp());
    const failed = (await stores.crawls.find(userId, crawl.id)) as CrawlRow;
    expect(failed.cancel_requested).toBe(1);
    expect(JSON.parse(failed.error ?? "null")).toEqual(error);
  });

  it("starts a queued crawl once, and cancels only one not started", async () => {
    const crawl = await runningCrawl(stores, userId);
    expect(await stores.crawls.cancelQueued(crawl.id, timestamp())).toBeUndefined();
    const ended = await stores.crawls.endRunning(crawl.id, { status: "complete" });
    expect(ended?.status).toBe("complete");
    expect(await stores.crawls.endRunning(crawl.id, { status: "failed" })).toBeUndefined();
    expect(await stores.crawls.markRunning(crawl.id, timestamp())).toBeUndefined();
  });
});
