/**
 * Migration 019: list mode and custom extraction. `crawls.urls` is a list-mode crawl's URLs (a JSON array; null
 * for a crawl that follows links), `crawls.extract` its extraction rules (a JSON array of `{name, selector[,
 * attribute]}` or `{name, regex}`), and `crawl_pages.extracted` a page's values, compactly: a JSON array with
 * one array of values per rule, in the rules' order (the names are stored once, on the crawl); null for a page
 * not analysed or a crawl without rules.
 */
import type { Kysely, Migration } from "kysely";

export function crawlLists(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable("crawls").addColumn("urls", "text").execute();
      await db.schema
        .alterTable("crawls")
        .addColumn("extract", "text", (c) => c.notNull().defaultTo("[]"))
        .execute();
      await db.schema.alterTable("crawl_pages").addColumn("extracted", "text").execute();
    },
  };
}
