/**
 * The start of a crawl, once per crawl: robots.txt read, then the start URL and the sitemaps' URLs (or, in list
 * mode, the list) put in the frontier. One part does it, holding the seed lease, while the others wait (a part
 * that stopped seeding is replaced once its lease runs out). The sitemaps are read at robots.txt's Crawl-delay
 * already.
 */

import { crawlUrl, inScope } from "../analysis/crawl-url.js";
import { crawlDelayFor, parseRobotsTxt, type RobotsTxt } from "../analysis/robots/robots-txt.js";
import { RunLater } from "../jobs/job-queue.js";
import { workspaceOf } from "../store/owned-rows.js";
import { timestamp } from "../timestamps.js";
import type { CrawlBounds } from "./crawl-bounds.js";
import { idlePollMs, pause, seedLeaseMs } from "./crawl-part-leases.js";
import type { CrawlRequests } from "./crawl-requests.js";
import type { CrawlRow } from "./crawl-store.js";
import type { CrawlerDependencies } from "./crawler-dependencies.js";
import type { FrontierEntry } from "./frontier-store.js";
import { SiteReader } from "./site-reader.js";

/** The user agent whose robots.txt rules a crawl follows. */
export const robotsAgent = "pagegrade";

/** The least time between request starts: the setting, or robots.txt's Crawl-delay when longer. */
export function crawlDelayAfter(settingMs: number, robots: RobotsTxt): number {
  return Math.max(settingMs, crawlDelayFor(robots, robotsAgent) * 1000);
}

/** The part that may seed its crawl. */
export interface SeedingPart {
  crawl: CrawlRow;
  dependencies: CrawlerDependencies;
  /** The part's requests to the site (robots.txt and the sitemaps take their turns among them). */
  requests: CrawlRequests;
  bounds: CrawlBounds;
  /** List mode: only the listed URLs, no sitemaps. */
  listed: boolean;
  signal: AbortSignal;
  /** When the part's turn ends: waiting for another part's sitemaps is no reason to hold a slot past it. */
  turnEndsAt: number;
  /** Paces the part's requests by this robots.txt from here on. */
  obey(robots: RobotsTxt): void;
}

/**
 * The crawl once its frontier is seeded, seeded by this part when no other part has; undefined when the crawl
 * ended or this part must stop first. Throws `RunLater(0)` when the part's turn ends while it waits.
 */
export async function seededCrawl(part: SeedingPart): Promise<CrawlRow | undefined> {
  const { crawls } = part.dependencies.stores;
  let crawl = part.crawl;
  for (;;) {
    if (crawl.seeded === 1) return crawl;
    const now = Date.now();
    if (
      await crawls.takeLease(
        crawl.id,
        "seed_lease_until",
        timestamp(new Date(now)),
        timestamp(new Date(now + seedLeaseMs)),
      )
    ) {
      return seed({ ...part, crawl });
    }
    await pause(idlePollMs);
    const current = await crawls.find(workspaceOf(crawl), crawl.id);
    if (current?.status !== "running" || part.signal.aborted) return undefined;
    crawl = current;
    if (Date.now() >= part.turnEndsAt) throw new RunLater(0);
  }
}

/** Reads robots.txt and the sitemaps and fills the frontier; returns the crawl marked seeded. */
async function seed(part: SeedingPart): Promise<CrawlRow> {
  const { crawl, bounds, listed } = part;
  const { crawls, frontier } = part.dependencies.stores;
  const reader = new SiteReader(part.dependencies.outbound, part.requests);
  try {
    const origin = new URL(crawl.url).origin;
    const robotsTxt = await reader.robotsTxt(origin);
    part.obey(parseRobotsTxt(robotsTxt ?? ""));
    if (listed) {
      // List mode: the listed URLs, each a start of its own (depth 0), and nothing else.
      const urls = (JSON.parse(crawl.urls as string) as string[]).map((url) => ({ url, depth: 0 }));
      await frontier.discover(crawl.id, urls, bounds);
    }
    const entries: FrontierEntry[] = listed ? [] : [{ url: crawl.url, depth: 0 }];
    if (crawl.sitemaps === 1 && !listed) {
      const declared = parseRobotsTxt(robotsTxt ?? "").sitemaps;
      const locations = declared.length > 0 ? declared : [new URL("/sitemap.xml", origin).href];
      const maxUrls = Math.min(50_000, part.dependencies.settings.maxPages * 5);
      for (const href of await reader.sitemapUrls(locations, maxUrls)) {
        const url = crawlUrl(href);
        if (url && inScope(url, crawl.project)) entries.push({ url, depth: null, inSitemap: true });
      }
    }
    // The sitemaps may fill at most half the URLs the crawl lists: the rest is left for the links it follows.
    await frontier.discover(crawl.id, entries, bounds, Math.ceil(bounds.urls / 2));
    return (
      (await crawls.update(crawl.id, { robots_txt: robotsTxt, seeded: 1, updated_at: timestamp() })) ?? crawl
    );
  } finally {
    await reader.close();
  }
}
