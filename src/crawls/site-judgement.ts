/**
 * Judging a finished crawl as a site: its inlinks counted (in SQL), the site checks run over what it stored (read
 * through the store, never whole: site-source-store.ts), and their findings saved in one transaction in place of
 * any earlier ones, so a judgement cut off halfway leaves nothing of itself and is simply done again.
 */
import { judgeSite } from "../analysis/site-checks/index.js";
import type { CrawlRow } from "./crawl-store.js";
import type { SiteStore } from "./site-store.js";

export async function judgeCrawl(
  site: SiteStore,
  crawl: CrawlRow,
  timed?: (step: string, ms: number) => void,
): Promise<void> {
  const started = performance.now();
  await site.countInlinks(crawl.id);
  timed?.("inlinks", performance.now() - started);
  const { issues } = await judgeSite(await site.source(crawl), timed);
  const saving = performance.now();
  await site.saveIssues(crawl.id, issues);
  timed?.("save", performance.now() - saving);
}
