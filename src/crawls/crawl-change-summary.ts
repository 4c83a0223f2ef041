/**
 * What changed in a project's latest complete crawl against the complete crawl before it, in the few figures the
 * project dashboard shows: findings new and resolved, page checks regressed and fixed (pages), both site scores
 * and the first new findings. Recorded when a crawl completes (the crawler, in whichever process ends the crawl),
 * computed by the comparison service (crawl-diff.ts) and then written in one statement (crawl-change-summary-
 * store.ts), so a summary is whole or absent. The dashboard reads it when it is against the crawl that is now the
 * previous one, and otherwise (no summary yet, or the crawl it was against deleted, which deletes it) compares
 * the crawls live and stores that.
 */

import { workspaceOf } from "../store/owned-rows.js";
import type { CrawlChangeSummary, CrawlChangeSummaryStore } from "./crawl-change-summary-store.js";
import type { CrawlComparison, CrawlDiff } from "./crawl-diff.js";
import type { CrawlDiffStore } from "./crawl-diff-store.js";
import type { CrawlRow } from "./crawl-store.js";

export type { CrawlChangeSummary } from "./crawl-change-summary-store.js";

/** New findings a summary keeps (and the dashboard lists); the comparison page lists the rest. */
export const newFindingsShown = 5;

/** The summary of a comparison, or null when there was no earlier crawl to compare with. */
export function summaryOf(diff: CrawlDiff): CrawlChangeSummary | null {
  if (diff.from === null) return null;
  const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
  return {
    from: { id: diff.from.id, finished_at: diff.from.finished_at, score: diff.from.score },
    to: { id: diff.to.id, score: diff.to.score },
    new_findings: sum(diff.site_issues.map((issue) => issue.new_count)),
    resolved_findings: sum(diff.site_issues.map((issue) => issue.resolved_count)),
    pages_regressed: sum(diff.page_checks.map((check) => check.regressed)),
    pages_fixed: sum(diff.page_checks.map((check) => check.fixed)),
    first_new: diff.site_issues
      .flatMap((issue) =>
        issue.new.map((item) => ({ check: issue.check, importance: issue.importance, item })),
      )
      .slice(0, newFindingsShown),
  };
}

export class CrawlChangeSummaries {
  constructor(
    private readonly comparison: CrawlComparison,
    private readonly summaries: CrawlChangeSummaryStore,
    private readonly diffs: CrawlDiffStore,
  ) {}

  /**
   * Compares the user's crawl, just completed, with the complete crawl of its project before it and stores the
   * summary (nothing when there is no earlier crawl).
   */
  async record(crawl: CrawlRow): Promise<void> {
    const diff = await this.comparison.diff(workspaceOf(crawl), crawl.id);
    const summary = diff ? summaryOf(diff) : null;
    if (summary) await this.summaries.save(summary);
  }

  /**
   * What changed in the user's complete crawl against the complete crawl before it: the stored summary when it is
   * against that crawl, else compared now (and stored); null when there is no earlier crawl.
   */
  async latest(crawl: CrawlRow): Promise<CrawlChangeSummary | null> {
    const [stored, previous] = await Promise.all([
      this.summaries.stored(crawl.id),
      this.diffs.previousComplete(crawl),
    ]);
    if (!previous) return null;
    if (stored && stored.from.id === previous.id) return stored;
    const diff = await this.comparison.diff(workspaceOf(crawl), crawl.id);
    const summary = diff ? summaryOf(diff) : null;
    if (summary) await this.summaries.save(summary);
    return summary;
  }
}
