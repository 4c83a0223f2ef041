/**
 * What changed in a project's latest complete crawl against the complete crawl before it, in the few figures the
 * project dashboard shows: findings new and resolved, page checks regressed and fixed (pages), both site scores
 * and the first new findings. Recorded when a crawl completes (the crawler, in whichever process ends the crawl),
 * computed by the comparison service (crawl-diff.ts) and then written in one statement, so a summary is whole or
 * absent. The dashboard reads it when it is against the crawl that is now the previous one, and otherwise (no
 * summary yet, or the crawl it was against deleted, which deletes it) compares the crawls live and stores that.
 */
import type { Kysely } from "kysely";
import type { Database } from "../store/schema.js";
import type { Store } from "../store/store.js";
import { timestamp } from "../timestamps.js";
import type { CrawlComparison, CrawlDiff } from "./crawl-diff.js";
import type { CrawlDiffStore } from "./crawl-diff-store.js";
import type { CrawlRow } from "./crawl-store.js";

/** New findings a summary keeps (and the dashboard lists); the comparison page lists the rest. */
export const newFindingsShown = 5;

export interface CrawlChangeSummary {
  from: { id: number; finished_at: string | null; score: number | null };
  to: { id: number; score: number | null };
  new_findings: number;
  resolved_findings: number;
  pages_regressed: number;
  pages_fixed: number;
  /** The first new findings, in the comparison's order (importance, then count, then check). */
  first_new: Array<{ check: string; importance: string; item: Record<string, unknown> }>;
}

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
  private readonly db: Kysely<Database>;

  constructor(
    store: Store,
    private readonly comparison: CrawlComparison,
    private readonly diffs: CrawlDiffStore,
  ) {
    this.db = store.db;
  }

  /**
   * Compares the user's crawl, just completed, with the complete crawl of its project before it and stores the
   * summary (nothing when there is no earlier crawl).
   */
  async record(crawl: CrawlRow): Promise<void> {
    const diff = await this.comparison.diff(crawl.user_id, crawl.id);
    const summary = diff ? summaryOf(diff) : null;
    if (summary) await this.save(summary);
  }

  /**
   * What changed in the user's complete crawl against the complete crawl before it: the stored summary when it is
   * against that crawl, else compared now (and stored); null when there is no earlier crawl.
   */
  async latest(crawl: CrawlRow): Promise<CrawlChangeSummary | null> {
    const [stored, previous] = await Promise.all([this.stored(crawl.id), this.diffs.previousComplete(crawl)]);
    if (!previous) return null;
    if (stored && stored.from.id === previous.id) return stored;
    const diff = await this.comparison.diff(crawl.user_id, crawl.id);
    const summary = diff ? summaryOf(diff) : null;
    if (summary) await this.save(summary);
    return summary;
  }

  /** The summary stored for the crawl, with its earlier crawl's end, or undefined. */
  async stored(crawlId: number): Promise<CrawlChangeSummary | undefined> {
    const row = await this.db
      .selectFrom("crawl_change_summaries as summary")
      .innerJoin("crawls as earlier", "earlier.id", "summary.from_crawl_id")
      .selectAll("summary")
      .select("earlier.finished_at as from_finished_at")
      .where("summary.to_crawl_id", "=", crawlId)
      .executeTakeFirst();
    if (!row) return undefined;
    return {
      from: { id: row.from_crawl_id, finished_at: row.from_finished_at, score: row.score_before },
      to: { id: row.to_crawl_id, score: row.score_after },
      new_findings: row.new_findings,
      resolved_findings: row.resolved_findings,
      pages_regressed: row.pages_regressed,
      pages_fixed: row.pages_fixed,
      first_new: JSON.parse(row.first_new_findings) as CrawlChangeSummary["first_new"],
    };
  }

  /**
   * Stores the summary in one statement, in place of the crawl's earlier one. Either crawl deleted meanwhile:
   * nothing is stored (its summaries go with it).
   */
  async save(summary: CrawlChangeSummary): Promise<void> {
    const figures = {
      from_crawl_id: summary.from.id,
      new_findings: summary.new_findings,
      resolved_findings: summary.resolved_findings,
      pages_regressed: summary.pages_regressed,
      pages_fixed: summary.pages_fixed,
      score_before: summary.from.score,
      score_after: summary.to.score,
      first_new_findings: JSON.stringify(summary.first_new),
      created_at: timestamp(),
    };
    try {
      await this.db
        .insertInto("crawl_change_summaries")
        .values({ to_crawl_id: summary.to.id, ...figures })
        .onConflict((conflict) => conflict.column("to_crawl_id").doUpdateSet(figures))
        .execute();
    } catch (error) {
      const left = await this.db
        .selectFrom("crawls")
        .select("id")
        .where("id", "in", [summary.from.id, summary.to.id])
        .execute();
      if (left.length === 2) throw error;
    }
  }
}
