/**
 * Judging a finished crawl as a site: its inlinks counted (in SQL), the site checks run over what it stored (read
 * through the store, never whole: site-source-store.ts), their findings written as they come to the staging rows
 * under a token of its own (so the judgement holds none of them), then put in place of any earlier ones in one
 * transaction, so a judgement cut off halfway leaves nothing of itself where the crawl is read and is simply done
 * again; one that fails deletes its staged rows.
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
  const staged = site.stagedFindings(crawl.id);
  try {
    const { issues } = await judgeSite(await site.source(crawl), timed, staged);
    const saving = performance.now();
    await site.saveIssues(crawl.id, issues, { staged: staged.judgement });
    timed?.("save", performance.now() - saving);
  } catch (error) {
    await staged.clear().catch(() => undefined);
    throw error;
  }
}
