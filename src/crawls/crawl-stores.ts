/**
 * The crawl's store modules over one database, built together once per process: the frontier store keeps the
 * process's shared commit of analysed pages (SQLite), so every part running here must use the same one.
 */
import type { Store } from "../store/store.js";
import { CheckRollupStore } from "./check-rollup-store.js";
import { CrawlChangeSummaryStore } from "./crawl-change-summary-store.js";
import { CrawlDiffStore } from "./crawl-diff-store.js";
import { CrawlLinkStore } from "./crawl-link-store.js";
import { CrawlListings } from "./crawl-listing-store.js";
import { CrawlStore } from "./crawl-store.js";
import { FrontierStore } from "./frontier-store.js";
import { SiteStore } from "./site-store.js";

export interface CrawlStores {
  crawls: CrawlStore;
  frontier: FrontierStore;
  site: SiteStore;
  listings: CrawlListings;
  rollups: CheckRollupStore;
  links: CrawlLinkStore;
  diffs: CrawlDiffStore;
  summaries: CrawlChangeSummaryStore;
}

export function openCrawlStores(store: Store): CrawlStores {
  return {
    crawls: new CrawlStore(store),
    frontier: new FrontierStore(store),
    site: new SiteStore(store),
    listings: new CrawlListings(store),
    rollups: new CheckRollupStore(store),
    links: new CrawlLinkStore(store),
    diffs: new CrawlDiffStore(store),
    summaries: new CrawlChangeSummaryStore(store),
  };
}
