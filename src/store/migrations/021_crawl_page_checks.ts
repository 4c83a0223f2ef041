/**
 * Migration 021: the page checks that failed or warned on each analysed page of a crawl, as the crawl judged
 * them (a report's later analyses do not change them). One row per page and check with its status, the page's
 * URL pattern (`/blog/*`), the check's message and its first evidence items, so a crawl's check roll-up and
 * the affected pages of a check are SQL over this table, never a read of every page's results. Links keep their
 * anchor text, for the crawl's links export; two indexes let the exports walk links and pages in order.
 */
import type { Kysely, Migration } from "kysely";

export function crawlPageChecks(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("crawl_page_checks")
        .addColumn("crawl_id", "integer", (c) => c.notNull().references("crawls.id").onDelete("cascade"))
        .addColumn("page_id", "integer", (c) => c.notNull())
        .addColumn("check_id", "text", (c) => c.notNull())
        // "fail" or "warn".
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("template", "text", (c) => c.notNull())
        .addColumn("message", "text", (c) => c.notNull())
        // JSON array: the check's first evidence items.
        .addColumn("items", "text", (c) => c.notNull())
        .addPrimaryKeyConstraint("crawl_page_checks_pk", ["crawl_id", "check_id", "page_id"])
        .execute();
      // A page's rows, replaced when the page is stored again.
      await db.schema
        .createIndex("crawl_page_checks_page")
        .on("crawl_page_checks")
        .columns(["crawl_id", "page_id"])
        .execute();
      await db.schema.alterTable("crawl_links").addColumn("anchor", "text").execute();
      // The exports walk a crawl's links by (source, target) and its pages by id, a batch at a time: each batch
      // an index range, never a sort of the whole crawl.
      await db.schema
        .createIndex("crawl_links_order")
        .on("crawl_links")
        .columns(["crawl_id", "from_url", "to_url"])
        .execute();
      // It serves every query the (crawl, source) index served.
      await db.schema.dropIndex("crawl_links_crawl").execute();
      await db.schema
        .createIndex("crawl_pages_order")
        .on("crawl_pages")
        .columns(["crawl_id", "id"])
        .execute();
    },
  };
}
