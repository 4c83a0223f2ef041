/**
 * Migration 024: what changed in a complete crawl against the complete crawl of its project before it, as the
 * project dashboard shows it (findings new and resolved, pages regressed and fixed, both scores, the first new
 * findings), stored when the crawl completes so that the dashboard does not compare two whole crawls on its
 * first view. A summary goes with either of its crawls; crawls completed before this migration have none (the
 * dashboard then compares them live and stores the result).
 */
import type { Kysely, Migration } from "kysely";

export function crawlChangeSummaries(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("crawl_change_summaries")
        .addColumn("to_crawl_id", "integer", (c) =>
          c.primaryKey().references("crawls.id").onDelete("cascade"),
        )
        .addColumn("from_crawl_id", "integer", (c) => c.notNull().references("crawls.id").onDelete("cascade"))
        .addColumn("new_findings", "integer", (c) => c.notNull())
        .addColumn("resolved_findings", "integer", (c) => c.notNull())
        .addColumn("pages_regressed", "integer", (c) => c.notNull())
        .addColumn("pages_fixed", "integer", (c) => c.notNull())
        .addColumn("score_before", "integer")
        .addColumn("score_after", "integer")
        // JSON array of { check, importance, item }: the first new findings, in the comparison's order.
        .addColumn("first_new_findings", "text", (c) => c.notNull())
        .addColumn("created_at", "text", (c) => c.notNull())
        .execute();
      // A deleted earlier crawl takes its summaries with it without reading the whole table.
      await db.schema
        .createIndex("crawl_change_summaries_from")
        .on("crawl_change_summaries")
        .column("from_crawl_id")
        .execute();
    },
  };
}
