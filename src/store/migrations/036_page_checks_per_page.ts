/**
 * Migration 036: one `crawl_page_checks` row per analysed page instead of one per (page, check). A page's failed
 * and warned checks are packed into one text column, `,<code><f|w>,…,` (crawls/page-check-code-store.ts), beside
 * the page's URL pattern, written once; the key is (crawl, page), which the (crawl, page) index served before.
 * On PostgreSQL a page's 17 or so rows took about 1.9 KB with their primary key and index (a 24-byte row header,
 * the pattern and two index entries each); its one row takes about 150 bytes. The roll-up reads a crawl's rows
 * once and counts in memory, and a check's affected pages are the crawl's rows in page order whose list holds the
 * check (a `like`), so every reader is still a range of the key.
 *
 * The table is built again with its rows converted (one `insert … select` grouping each page's rows, in code
 * order), in the migration's transaction (PostgreSQL runs each migration in one; on SQLite this one opens its
 * own), so a failure leaves the old table. On SQLite the new table keeps the key to `crawls` (028 dropped it on
 * PostgreSQL, whose `delete_crawl_rows` trigger names the table and so deletes from the new one).
 */
import { type Kysely, type Migration, sql } from "kysely";
import type { Dialect } from "../store.js";

export function pageChecksPerPage(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect === "postgres") await rebuild(db, dialect);
      else await db.transaction().execute((trx) => rebuild(trx, dialect));
    },
  };
}

async function rebuild(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const pg = dialect === "postgres";
  await db.schema.dropIndex("crawl_page_checks_page").execute();
  if (pg) {
    await sql`alter table crawl_page_checks rename constraint crawl_page_checks_pk to crawl_page_checks_old_pk`.execute(
      db,
    );
  }
  await db.schema.alterTable("crawl_page_checks").renameTo("crawl_page_checks_old").execute();
  await db.schema
    .createTable("crawl_page_checks")
    .addColumn("crawl_id", "integer", (c) =>
      pg ? c.notNull() : c.notNull().references("crawls.id").onDelete("cascade"),
    )
    .addColumn("page_id", "integer", (c) => c.notNull())
    .addColumn("template", "text", (c) => c.notNull())
    // `,<code><f|w>,…,`: each failed (f) or warned (w) check's code in `page_check_names`.
    .addColumn("checks", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("crawl_page_checks_pk", ["crawl_id", "page_id"])
    .execute();
  const item = sql`cast(old.check_code as text) || case old.status when 1 then 'f' else 'w' end`;
  // SQLite's group_concat takes the rows in the order the subquery gives them.
  const packed = pg
    ? sql`',' || string_agg(${item}, ',' order by old.check_code) || ','`
    : sql`',' || group_concat(${item}, ',') || ','`;
  await sql`insert into crawl_page_checks (crawl_id, page_id, template, checks)
    select old.crawl_id, old.page_id, min(old.template), ${packed}
    from (select * from crawl_page_checks_old order by crawl_id, page_id, check_code) as old
    group by old.crawl_id, old.page_id
    order by old.crawl_id, old.page_id`.execute(db);
  await db.schema.dropTable("crawl_page_checks_old").execute();
}
