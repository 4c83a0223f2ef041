/**
 * Judging a finished crawl as a site: its inlinks counted (in SQL), the site checks run over what it stored (read
 * through the store, never whole: site-source-store.ts), their findings written as they come to the staging rows
 * (so the judgement holds none of them), then put in place of any earlier ones in one transaction, so a judgement
 * cut off halfway leaves nothing of itself where the crawl is read and is simply done again.
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
  const staged = await site.stagedFindings(crawl.id);
  const { issues } = await judgeSite(await site.source(crawl), timed, staged);
  const saving = performance.now();
  await site.saveIssues(crawl.id, issues, { staged: true });
  timed?.("save", performance.now() - saving);
}
