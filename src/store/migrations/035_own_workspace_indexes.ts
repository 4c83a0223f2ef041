/**
 * Migration 035: the indexes of a user's own report lists hold only the user's own rows (`where team_id is
 * null`). Since the workspace seam, a list of the user's own workspace asks `user_id = ? and team_id is null`; an
 * index without `team_id` then needs a table read per entry to test it, so a count that the index alone answered
 * (the list's total) read every row. Partial indexes answer it again from the index, and team rows (migration
 * 031's `reports_team_*` indexes) no longer weigh on them. Rebuilt from their own definitions (001, 003, 011),
 * the condition added, on both databases (SQLite's also holding `team_id`, so that it can answer the count alone). Kept whole: `reports_user_url` (a crawl finds its page's report by the
 * creator and URL, whatever the workspace), `crawls_user` and `webhooks_user` (the per-user limits count every
 * workspace's rows; a user's crawls and webhooks are few).
 */
import { type Kysely, type Migration, sql } from "kysely";
import type { Dialect } from "../store.js";

const kept = ["reports_user_url"];

export function ownWorkspaceIndexes(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      const definitions =
        dialect === "postgres"
          ? (
              await sql<{ name: string; definition: string }>`
                select indexname as name, indexdef as definition from pg_indexes
                where schemaname = current_schema() and tablename = 'reports' and indexname like 'reports_user_%'`.execute(
                db,
              )
            ).rows
          : (
              await sql<{ name: string; definition: string }>`
                select name, sql as definition from sqlite_master
                where type = 'index' and tbl_name = 'reports' and name like 'reports_user_%'`.execute(db)
            ).rows;
      for (const { name, definition } of definitions) {
        if (kept.includes(name) || /where/i.test(definition)) continue;
        await sql`drop index ${sql.ref(name)}`.execute(db);
        // SQLite tests `team_id is null` from the index only when the index holds the column (always null here).
        const columns = dialect === "postgres" ? definition : definition.replace(/\)\s*$/, ', "team_id")');
        await sql.raw(`${columns} where "team_id" is null`).execute(db);
      }
    },
  };
}
