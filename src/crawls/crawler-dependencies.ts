/**
 * What the `crawl` job (`crawler.ts`) and its parts (seeding, one page, the finish) are given: the stores, the
 * Analyzer, the event sink and the crawl settings of the process.
 */
import type { Analyzer } from "../analysis/analyse.js";
import type { CrawlSettings, ScheduleIntervals } from "../config.js";
import type { EventSink } from "../events/event-sink.js";
import type { ReportStore } from "../store/report-store.js";
import type { SecretBox } from "../store/secret-box.js";
import type { CrawlChangeSummaries } from "./crawl-change-summary.js";
import type { CrawlStores } from "./crawl-stores.js";
import type { Outbound } from "./site-reader.js";

export interface CrawlerDependencies {
  stores: CrawlStores;
  reports: ReportStore;
  analyzer: Analyzer;
  events: EventSink;
  settings: CrawlSettings;
  /** When a scheduled crawl runs again, counted from its end. */
  scheduleIntervals: ScheduleIntervals;
  outbound: Outbound;
  /** Opens the crawl's sealed request headers; needed only by crawls that have some. */
  secrets?: SecretBox;
  /** Records what changed in a crawl that completes against the one before it (the project dashboard's). */
  changes?: CrawlChangeSummaries;
  /** Progress listeners in this process (the event stream); told after each page. */
  onProgress?: (crawlId: number) => void;
}
