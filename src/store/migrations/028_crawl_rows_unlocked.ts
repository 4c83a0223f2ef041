/**
 * Migration 028 (PostgreSQL only): the rows a crawl writes for every page (`crawl_pages`, `crawl_links`,
 * `crawl_page_checks`) no longer reference `crawls` by a foreign key; a trigger deletes them with their crawl
 * instead, as the keys' `on delete cascade` did (a crawl deleted on its own or with its user).
 *
 * A foreign key's check takes a share lock on the referenced row for every inserted row (`for key share`), so
 * every page's transaction locked the crawl's one row until it committed, while the crawl's claims and counters
 * update that row many times a second. PostgreSQL records a row locked by several transactions, and updated
 * meanwhile, as a "multixact" listing them all; each update and each new locker makes another, so their number
 * grew with the pages in flight and the crawl's length: at 27,000 pages of a 100,000-page crawl, 80 % of the
 * database's busy samples waited on the multixact caches (`LWLock:MultiXactMember*`, `MultiXactOffset*`) in those
 * inserts, and PostgreSQL spent 35 ms of CPU per page against 4 ms at 3,000 pages. A page's transaction now takes
 * that lock once, in its first statement (page-completion-store.ts, `clearPageRows`), and fails when the crawl is gone:
 * a crawl's deletion still waits for the pages being written, and its trigger then removes them with the rest.
 *
 * SQLite keeps its keys: it has one writer at a time and no such lock.
 */
import { type Kysely, type Migration, sql } from "kysely";
import type { Dialect } from "../store.js";

/** The tables written per page, children of `crawls`. */
const perPageTables = ["crawl_page_checks", "crawl_links", "crawl_pages"] as const;

export function crawlRowsUnlocked(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect !== "postgres") return;
      await sql`
        create function delete_crawl_rows() returns trigger language plpgsql as $$
        begin
          delete from crawl_page_checks where crawl_id = old.id;
          delete from crawl_links where crawl_id = old.id;
          delete from crawl_pages where crawl_id = old.id;
          return old;
        end $$`.execute(db);
      await sql`
        create trigger crawls_delete_rows before delete on crawls
        for each row execute function delete_crawl_rows()`.execute(db);
      for (const table of perPageTables) {
        const { rows } = await sql<{ name: string }>`
          select conname as name from pg_constraint
          where conrelid = ${sql.lit(table)}::regclass and contype = 'f'
            and confrelid = 'crawls'::regclass`.execute(db);
        for (const { name } of rows) {
          await sql`alter table ${sql.table(table)} drop constraint ${sql.id(name)}`.execute(db);
        }
      }
    },
  };
}
