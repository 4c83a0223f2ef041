/**
 * Crawls a crafted site served from 127.0.0.1 with the service's crawler over a fresh SQLite file (no HTTP API,
 * no queue: the crawl job's handler, run once), and returns the site issues by check and the crawl's pages.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AccountService } from "../../src/accounts/account-service.js";
import { Analyzer } from "../../src/analysis/analyse.js";
import { defaultScheduleIntervals, loadAnalysisConfig } from "../../src/config.js";
import { type CrawlInput, crawlFields } from "../../src/crawls/crawl-service.js";
import { openCrawlStores } from "../../src/crawls/crawl-stores.js";
import { crawlHere } from "../../src/crawls/crawler.js";
import { crawlPageObject, siteIssueObject } from "../../src/crawls/present.js";
import { silentEventSink } from "../../src/events/event-sink.js";
import { openStore } from "../../src/store/database.js";
import { ReportStore } from "../../src/store/report-store.js";
import { timestamp } from "../../src/timestamps.js";
import { type LocalServer, startServer } from "./local-server.js";

export type Routes = Parameters<typeof startServer>[0];
export type SiteIssueObject = ReturnType<typeof siteIssueObject>;

export interface CrawledSite {
  server: LocalServer;
  issues: Map<string, SiteIssueObject>;
  pages: Array<ReturnType<typeof crawlPageObject>>;
  /** Every URL a check's items name (url, or each page of a group), sorted. */
  urlsOf(check: string): string[];
  /** Paths instead of URLs. */
  pathsOf(check: string): string[];
}

export async function crawlSite(
  routes: Routes,
  input: Omit<CrawlInput, "url"> & { start?: string } = {},
): Promise<CrawledSite> {
  const server = await startServer(routes);
  const directory = mkdtempSync(join(tmpdir(), "pagegrade-site-check-"));
  const store = await openStore(`sqlite:${join(directory, "crawl.db")}`);
  const analyzer = new Analyzer(
    loadAnalysisConfig({ ...process.env, PAGEGRADE_ALLOW_PRIVATE_NETWORKS: "1" }),
  );
  try {
    const stores = openCrawlStores(store);
    const { crawls, listings } = stores;
    const userId = (await new AccountService(store).createUser("site@pagegrade.invalid", null)).account.id;
    const { start = "/", ...rest } = input;
    const fields = crawlFields(
      { sitemaps: 0, ...rest, url: `${server.url}${start}` },
      { maxPages: 1_000, renderingAvailable: false },
    );
    const now = timestamp();
    const crawl = await crawls.insert({
      ...fields,
      parts: 2,
      user_id: userId,
      created_at: now,
      updated_at: now,
    });
    await crawlHere(
      {
        stores,
        reports: new ReportStore(store, { historyLimit: 10 }),
        analyzer,
        events: silentEventSink,
        // A turn of one page: every part goes back to the "queue" after each page, and the crawl still adds up.
        settings: {
          maxPages: 1_000,
          perUser: 1,
          hostConcurrency: 2,
          delayMs: 0,
          slice: { ms: 60_000, pages: 1 },
        },
        scheduleIntervals: defaultScheduleIntervals,
        outbound: analyzer.outbound(),
      },
      crawl,
    );
    const issues = new Map(
      (await listings.issues(crawl.id)).map((row) => [row.check_id, siteIssueObject(row)]),
    );
    const pages = (await listings.pages(crawl.id, { limit: 1_000, offset: 0 })).map((row) =>
      crawlPageObject(row),
    );
    const urlsOf = (check: string) =>
      (issues.get(check)?.items ?? [])
        .flatMap((item) =>
          typeof item.url === "string" ? [item.url] : ((item.pages as string[] | undefined) ?? []),
        )
        .sort();
    return {
      server,
      issues,
      pages,
      urlsOf,
      pathsOf: (check) => urlsOf(check).map((url) => new URL(url).pathname),
    };
  } finally {
    await analyzer.close();
    await store.close();
    rmSync(directory, { recursive: true, force: true });
    await server.close();
  }
}
