/**
 * Migration 010: `users.reports_version`, a number that changes whenever any of the user's reports or of their
 * analyses (history) is inserted, updated or deleted, by whatever code path, because the database itself bumps
 * it (triggers), in the same transaction as the change. The API's response cache (src/http/response-cache.ts) keys what it keeps by it, so
 * a cached list or report is never served after a change, whichever instance made it.
 *
 * SQLite: row triggers (one writer at a time, nothing to contend). PostgreSQL: statement triggers over the
 * transition tables, so a statement touching many reports bumps each owner once, after its rows are locked.
 * A later migration that rebuilds the reports or analyses table must create these triggers again.
 */
import { type Kysely, type Migration, sql } from "kysely";
import type { Dialect } from "../store.js";

export function reportsVersion(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable("users")
        .addColumn("reports_version", "bigint", (c) => c.notNull().defaultTo(0))
        .execute();
      if (dialect === "postgres") {
        await sql`
          create function bump_reports_version() returns trigger language plpgsql as $$
          begin
            if tg_op = 'DELETE' then
              update users set reports_version = reports_version + 1
                where id in (select distinct user_id from changed_before);
            else
              update users set reports_version = reports_version + 1
                where id in (select distinct user_id from changed_after);
            end if;
            return null;
          end $$`.execute(db);
        for (const table of ["reports", "analyses"])
          for (const [event, transition] of [
            ["insert", "new table as changed_after"],
            ["update", "new table as changed_after"],
            ["delete", "old table as changed_before"],
          ]) {
            await sql
              .raw(
                `create trigger ${table}_version_${event} after ${event} on ${table}
                 referencing ${transition} for each statement execute function bump_reports_version()`,
              )
              .execute(db);
          }
        return;
      }
      for (const table of ["reports", "analyses"])
        for (const [event, row] of [
          ["insert", "new"],
          ["update", "new"],
          ["delete", "old"],
        ]) {
          await sql
            .raw(
              `create trigger ${table}_version_${event} after ${event} on ${table} for each row begin
                 update users set reports_version = reports_version + 1 where id = ${row}.user_id;
               end`,
            )
            .execute(db);
        }
    },
  };
}
