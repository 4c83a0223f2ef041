/**
 * Migration 043 (PostgreSQL only): the index by which parts claim a crawl's pages (`crawl_pages_state`: crawl,
 * state, depth, id) holds the pages not yet done only. A done page, nearly every page of a finished crawl, was an
 * entry there for the crawl's life (about 140 bytes a page) that no query needs: the claims look for `queued` or
 * `fetching` pages, the pages table's filters for `failed` or `excluded` ones, and counting the states reads
 * every page's row anyway. Each page's move to `done` no longer adds an entry either. One read lost the index:
 * the crawl overview's count of pages by depth (`crawl-listing-store.ts` `overview`, pages not excluded) could
 * be answered from the whole index alone and now reads the pages' rows, as its two sibling counts already did.
 *
 * PostgreSQL uses a partial index only where it can prove the query's condition implies the index's, which it
 * cannot for a parameter of a prepared statement's generic plan: the queries that need it name their states as
 * literals (`frontier-claim-store.ts`, `crawl-listing-store.ts`: `pageState`). SQLite, which uses a partial index
 * only when the query repeats the index's condition term for term, keeps the whole index (its storage per page is
 * within the target already).
 */
import { type Kysely, type Migration, sql } from "kysely";
import type { Dialect } from "../store.js";

export function unfinishedPagesIndex(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect !== "postgres") return;
      await sql`drop index crawl_pages_state`.execute(db);
      await sql`create index crawl_pages_state on crawl_pages (crawl_id, state, depth, id) where state <> 'done'`.execute(
        db,
      );
    },
  };
}
