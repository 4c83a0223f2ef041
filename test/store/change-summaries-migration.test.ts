/**
 * Migration 024 adds the crawls' change summaries on both databases: crawls completed before it have none, and
 * the dashboard's reading compares them live and stores the summary; a summary goes with either of its crawls.
 */
import { describe, expect, it } from "vitest";
import { CrawlChangeSummaries } from "../../src/crawls/crawl-change-summary.js";
import { CrawlComparison } from "../../src/crawls/crawl-diff.js";
import type { CrawlRow } from "../../src/crawls/crawl-store.js";
import { openCrawlStores } from "../../src/crawls/crawl-stores.js";
import { migrate } from "../../src/store/migrations.js";
import { databaseKinds } from "../helpers/api.js";
import { crawlOwner, runningCrawl } from "../helpers/crawl-rows.js";
import { databaseMigratedTo } from "../helpers/migrated-database.js";

describe.each(databaseKinds)("change summaries (migration 024) on %s", (kind) => {
  it("summarises crawls completed before it when first asked, and drops a summary with its crawl", async () => {
    const { store, drop } = await databaseMigratedTo(kind, "023_page_checks_once");
    try {
      const stores = openCrawlStores(store);
      const userId = await crawlOwner(store);
      const complete = async (finishedAt: string, score: number) => {
        const crawl = await runningCrawl(stores, userId);
        await stores.crawls.endRunning(crawl.id, { status: "complete", finished_at: finishedAt, score });
        return (await stores.crawls.findByCreator(userId, crawl.id)) as CrawlRow;
      };
      const first = await complete("2026-01-01T00:00:00.000000Z", 60);
      const second = await complete("2026-01-02T00:00:00.000000Z", 70);
      await migrate(store);

      const rows = () => store.db.selectFrom("crawl_change_summaries").select("to_crawl_id").execute();
      expect(await rows()).toEqual([]);
      const summaries = new CrawlChangeSummaries(
        new CrawlComparison(stores.crawls, stores.diffs),
        stores.summaries,
        stores.diffs,
      );
      expect(await summaries.latest(first)).toBeNull();
      const summary = await summaries.latest(second);
      expect(summary).toEqual({
        from: { id: first.id, finished_at: first.finished_at, score: 60 },
        to: { id: second.id, score: 70 },
        new_findings: 0,
        resolved_findings: 0,
        pages_regressed: 0,
        pages_fixed: 0,
        first_new: [],
      });
      expect(await rows()).toEqual([{ to_crawl_id: second.id }]);
      expect(await stores.summaries.stored(second.id)).toEqual(summary);

      await stores.crawls.delete(userId, first.id);
      expect(await rows()).toEqual([]);
      expect(await summaries.latest(second)).toBeNull();
      await store.close();
    } finally {
      await drop();
    }
  });
});
