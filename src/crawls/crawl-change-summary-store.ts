/**
 * The stored change summaries of complete crawls (`crawl_change_summaries`, migration 024): one read with the
 * earlier crawl's end, and one write of a whole summary in one statement, in place of the crawl's earlier one.
 */
import type { Kysely } from "kysely";
import type { Database } from "../store/schema.js";
import type { Store } from "../store/store.js";
import { timestamp } from "../timestamps.js";

/** What changed in a complete crawl against the previous one, as the project dashboard shows it. */
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

export class CrawlChangeSummaryStore {
  private readonly db: Kysely<Database>;

  constructor(store: Store) {
    this.db = store.db;
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
