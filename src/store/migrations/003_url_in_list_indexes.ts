/**
 * Migration 003: on SQLite, the URL joins every list index of migration 001 (but the URL-sorted ones, which hold
 * it already), so a search walks an index without reading the table's rows.
 */
import type { Kysely, Migration } from "kysely";
import type { Dialect } from "../store.js";
import { listSortColumns } from "./001_initial.js";

export function urlInListIndexes(dialect: Dialect): Migration {
  const pg = dialect === "postgres";
  return {
    async up(db: Kysely<unknown>) {
      // SQLite matches a common search needle with LIKE while walking a list index (see ReportStore's
      // urlContains); with the URL in every list index that walk never reads the table's wide rows.
      // PostgreSQL's planner has the pg_trgm index for that and keeps its indexes as they are.
      if (pg) return;
      for (const sort of listSortColumns) {
        if (sort === "url") continue;
        const tail = sort === "id" ? ["id"] : [sort, "id"];
        for (const filters of [[], ["project"], ["result"], ["project", "result"]]) {
          const name = ["reports_user", ...filters, sort].join("_");
          await db.schema.dropIndex(name).execute();
          await db.schema
            .createIndex(name)
            .on("reports")
            .columns(["user_id", ...filters, ...tail, "url"])
            .execute();
        }
      }
    },
  };
}
