/**
 * Migration 020: what two crawls are compared by. `crawl_findings` holds every site finding of a crawl (not only
 * the 100 per check its issue lists) with its fingerprint, indexed by check and fingerprint so that a crawl's
 * findings are matched with another's in the database; `crawl_pages.check_statuses` holds an analysed page's
 * page-check statuses other than `pass` (a JSON object, check id → status), so pages are compared without
 * reading their analyses.
 */
import type { Kysely, Migration } from "kysely";

export function crawlFindings(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("crawl_findings")
        .addColumn("crawl_id", "integer", (c) => c.notNull().references("crawls.id").onDelete("cascade"))
        .addColumn("check_id", "text", (c) => c.notNull())
        .addColumn("position", "integer", (c) => c.notNull())
        .addColumn("fingerprint", "text", (c) => c.notNull())
        .addColumn("item", "text", (c) => c.notNull())
        .addPrimaryKeyConstraint("crawl_findings_pk", ["crawl_id", "check_id", "position"])
        .execute();
      await db.schema
        .createIndex("crawl_findings_fingerprint")
        .on("crawl_findings")
        .columns(["crawl_id", "check_id", "fingerprint"])
        .execute();
      await db.schema.alterTable("crawl_pages").addColumn("check_statuses", "text").execute();
    },
  };
}
