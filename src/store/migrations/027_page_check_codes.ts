/**
 * Migration 027: a crawl page's failed and warned checks are narrow rows. `crawl_page_checks.check_id` (the
 * check's name, text) becomes `check_code`, a small integer naming a row of the new `page_check_names` (filled on
 * a check's first use, crawls/page-check-code-store.ts), and `status` ("fail" | "warn") becomes a small integer (1
 * fail, 2 warn). On PostgreSQL a row took about 66 bytes in the table and 70 in its (crawl, check, page) primary
 * key, 17 rows an analysed page; the two fixed-width columns leave the row's header and the page's URL pattern.
 * The table is built again with its rows converted (one `insert … select`), in the migration's transaction
 * (PostgreSQL runs each migration in one; on SQLite this one opens its own), so a failure leaves the old table.
 */
import { type Kysely, type Migration, sql } from "kysely";
import type { Dialect } from "../store.js";

export function pageCheckCodes(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect === "postgres") await rebuild(db, dialect);
      else await db.transaction().execute((trx) => rebuild(trx, dialect));
    },
  };
}

async function rebuild(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const pg = dialect === "postgres";
  await db.schema
    .createTable("page_check_names")
    .addColumn("id", pg ? "smallint" : "integer", (c) =>
      pg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey(),
    )
    .addColumn("name", "text", (c) => c.notNull().unique())
    .execute();
  await sql`insert into page_check_names (name)
    select distinct check_id from crawl_page_checks order by check_id`.execute(db);
  // The old table gives its name and its indexes' names to the new one.
  await db.schema.dropIndex("crawl_page_checks_page").execute();
  if (pg) {
    await sql`alter table crawl_page_checks rename constraint crawl_page_checks_pk to crawl_page_checks_old_pk`.execute(
      db,
    );
  }
  await db.schema.alterTable("crawl_page_checks").renameTo("crawl_page_checks_old").execute();
  await db.schema
    .createTable("crawl_page_checks")
    .addColumn("crawl_id", "integer", (c) => c.notNull().references("crawls.id").onDelete("cascade"))
    .addColumn("page_id", "integer", (c) => c.notNull())
    // A code of `page_check_names`, whose rows are never deleted and are the only source of codes. Not a foreign
    // key: on PostgreSQL its check would lock the name's row (FOR KEY SHARE) for every row inserted, a few dozen
    // rows shared by every page's transaction, as the crawl_id key does with the crawl's row.
    .addColumn("check_code", "smallint", (c) => c.notNull())
    // 1 fail, 2 warn.
    .addColumn("status", "smallint", (c) => c.notNull())
    .addColumn("template", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("crawl_page_checks_pk", ["crawl_id", "check_code", "page_id"])
    .execute();
  await sql`insert into crawl_page_checks (crawl_id, page_id, check_code, status, template)
    select old.crawl_id, old.page_id, names.id, case old.status when 'fail' then 1 else 2 end, old.template
    from crawl_page_checks_old as old
    inner join page_check_names as names on names.name = old.check_id
    order by old.crawl_id, old.page_id`.execute(db);
  await db.schema.dropTable("crawl_page_checks_old").execute();
  // A page's rows, replaced when the page is stored again.
  await db.schema
    .createIndex("crawl_page_checks_page")
    .on("crawl_page_checks")
    .columns(["crawl_id", "page_id"])
    .execute();
}
