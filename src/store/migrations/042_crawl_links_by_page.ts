/**
 * Migration 042: a crawl link names its source by the id of the source's `crawl_pages` row (`from_page`) instead
 * of repeating its URL (`from_url`) on every link. A link's source is always a page the crawl stored (a page's
 * links are written with it, page-completion-store.ts), so the URL is one join away: listings and exports read
 * it from the page, and the links are walked in source-URL order through the pages' (crawl, URL) index, each
 * page's few links found by the new `crawl_links_from` index on `from_page` and sorted by target. The index
 * needs no crawl first: a page's id belongs to one crawl, and no query reads the links of a crawl by source
 * without going through its pages (the crawl's links as a whole are a range of `crawl_links_to`, which also serves
 * migration 028's trigger deleting them with their crawl, by `crawl_id`).
 *
 * On PostgreSQL a page's 5 links of 32-byte URLs took about 820 bytes of heap and indexes before, 580 after (the
 * 4-byte id in place of the URL in each row, and an index of ids whose entries deduplicate per page as the
 * URL's did); on SQLite, whose indexes hold every key whole, about 1,040 before and 520 after. The integer
 * columns come first, so that no padding falls between them.
 *
 * The table is built again with its rows converted (one `insert … select` joining each link's source page by
 * (crawl, URL), the pages' unique index) in the migration's transaction (PostgreSQL runs each migration in one;
 * on SQLite this one opens its own), so a failure leaves the old table; SQLite cannot drop an indexed column
 * in place anyway. A link whose source has no row is dropped: there should be none (a page's row is never deleted
 * but with its crawl, whose links go with it), and such a link could not be listed by its source anyway. On SQLite
 * the new table keeps the key to `crawls` (028 dropped it on PostgreSQL, whose `delete_crawl_rows` trigger names
 * the table and so deletes from the new one).
 */
import { type Kysely, type Migration, sql } from "kysely";
import type { Dialect } from "../store.js";

export function crawlLinksByPage(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect === "postgres") await rebuild(db, dialect);
      else await db.transaction().execute((trx) => rebuild(trx, dialect));
    },
  };
}

async function rebuild(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const pg = dialect === "postgres";
  await db.schema.dropIndex("crawl_links_order").execute();
  await db.schema.dropIndex("crawl_links_to").execute();
  await db.schema.alterTable("crawl_links").renameTo("crawl_links_old").execute();
  await db.schema
    .createTable("crawl_links")
    .addColumn("crawl_id", "integer", (c) =>
      pg ? c.notNull() : c.notNull().references("crawls.id").onDelete("cascade"),
    )
    // The id of the source's `crawl_pages` row.
    .addColumn("from_page", "integer", (c) => c.notNull())
    .addColumn("nofollow", "integer", (c) => c.notNull())
    .addColumn("to_url", "text", (c) => c.notNull())
    .addColumn("anchor", "text")
    .execute();
  // The inner join drops links without a source page (see above). The rows go in the old table's order (each
  // page's links together), the indexes built after them.
  await sql`insert into crawl_links (crawl_id, from_page, nofollow, to_url, anchor)
    select old.crawl_id, source.id, old.nofollow, old.to_url, old.anchor
    from crawl_links_old old
    join crawl_pages source on source.crawl_id = old.crawl_id and source.url = old.from_url`.execute(db);
  await db.schema.dropTable("crawl_links_old").execute();
  // A page's links: listed in source order (through the page), replaced when it is stored again.
  await db.schema.createIndex("crawl_links_from").on("crawl_links").column("from_page").execute();
  // Links into a page (inlinks, broken-link sources), and a crawl's links as a whole.
  await db.schema.createIndex("crawl_links_to").on("crawl_links").columns(["crawl_id", "to_url"]).execute();
}
