/**
 * Migration 025: `crawl_findings_staged`, where a site judgement writes its findings as the checks produce them
 * (a batch at a time, so the judgement holds none of them in memory), before they replace the crawl's findings in
 * `crawl_findings` in one transaction. The columns of `crawl_findings` and the judgement's own token (two
 * judgements of one crawl, one of them past its finish lease, never mix their rows); rows left by a judgement cut
 * off halfway are deleted when a judgement of the crawl is saved.
 */
import type { Kysely, Migration } from "kysely";

export function stagedFindings(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("crawl_findings_staged")
        .addColumn("crawl_id", "integer", (c) => c.notNull().references("crawls.id").onDelete("cascade"))
        .addColumn("judgement", "text", (c) => c.notNull())
        .addColumn("check_id", "text", (c) => c.notNull())
        .addColumn("position", "integer", (c) => c.notNull())
        .addColumn("fingerprint", "text", (c) => c.notNull())
        .addColumn("item", "text", (c) => c.notNull())
        .addPrimaryKeyConstraint("crawl_findings_staged_pk", [
          "crawl_id",
          "judgement",
          "check_id",
          "position",
        ])
        .execute();
    },
  };
}
