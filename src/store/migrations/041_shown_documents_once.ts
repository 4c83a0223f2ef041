/**
 * Migration 041: a report's summary and category scores are stored once, on the analysis it shows. The report
 * row held a copy of both (about 320 bytes of JSON a report, the same bytes as its shown analysis's), written
 * again with every analysis; reads now take them from the shown analysis through `report-rows.ts`
 * (`shownDocuments`, `shownDocument`, `shownDocumentBytes`), the primary-key lookup the results already made. Issue "Grow without
 * losing anything": storage per crawled page.
 *
 * A shown analysis missing either document (none should: migration 004 copied them into history) gets the
 * report's first, so nothing is lost. SQLite drops the columns in the same transaction; PostgreSQL runs each
 * migration in one already, and its `drop column` is immediate (rows shrink as they are next written).
 */
import { type Kysely, type Migration, sql } from "kysely";
import type { Dialect } from "../store.js";

export function shownDocumentsOnce(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect === "postgres") await moveDocuments(db);
      else await db.transaction().execute((trx) => moveDocuments(trx));
    },
  };
}

async function moveDocuments(db: Kysely<unknown>): Promise<void> {
  for (const column of ["summary", "categories"]) {
    await sql`update analyses set ${sql.ref(column)} = (
        select reports.${sql.ref(column)} from reports where reports.analysis_id = analyses.id)
      where ${sql.ref(column)} is null
        and exists (select 1 from reports where reports.analysis_id = analyses.id and reports.${sql.ref(column)} is not null)`.execute(
      db,
    );
    await db.schema.alterTable("reports").dropColumn(column).execute();
  }
}
