/**
 * Migration 001: users and their API keys, reports with one index per list (filters × sort key), the
 * substring search over report URLs (FTS5 trigram on SQLite, pg_trgm on PostgreSQL), and the rate-limit counters.
 */
import { type Kysely, type Migration, sql } from "kysely";
import type { Dialect } from "../store.js";

/** The list sort keys, each paired with the filters that can precede it in an index. */
export const listSortColumns = ["id", "generated_at", "url", "score"] as const;

export function initial(dialect: Dialect): Migration {
  const pg = dialect === "postgres";
  // Byte-order comparison in both dialects, so sorting by URL or project gives the same order everywhere.
  const bytewise = pg ? sql`collate "C"` : sql``;
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("users")
        .addColumn("id", "integer", (c) =>
          pg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement(),
        )
        .addColumn("email", "text", (c) => c.notNull().unique())
        .addColumn("password_hash", "text")
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("updated_at", "text", (c) => c.notNull())
        .execute();

      await db.schema
        .createTable("api_keys")
        .addColumn("id", "integer", (c) =>
          pg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement(),
        )
        .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
        .addColumn("digest", "text", (c) => c.notNull().unique())
        .addColumn("prefix", "text", (c) => c.notNull())
        .addColumn("last_four", "text", (c) => c.notNull())
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("revoked_at", "text")
        .execute();
      await db.schema.createIndex("api_keys_user").on("api_keys").columns(["user_id"]).execute();

      await db.schema
        .createTable("reports")
        .addColumn("id", "integer", (c) =>
          pg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement(),
        )
        .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
        .addColumn("url", "text", (c) => c.notNull().modifyEnd(bytewise))
        .addColumn("final_url", "text", (c) => c.notNull())
        .addColumn("project", "text", (c) => c.notNull().modifyEnd(bytewise))
        .addColumn("result", "text", (c) => c.notNull())
        .addColumn("score", "integer", (c) => c.notNull())
        .addColumn("privacy", "integer", (c) => c.notNull())
        .addColumn("password_hash", "text")
        .addColumn("summary", "text", (c) => c.notNull())
        .addColumn("categories", "text", (c) => c.notNull())
        .addColumn("results", "text", (c) => c.notNull())
        .addColumn("generated_at", "text", (c) => c.notNull())
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("updated_at", "text", (c) => c.notNull())
        .execute();
      // Every list is scoped to a user, optionally filtered by project and/or result, sorted by one key with
      // id as the tie-breaker: one index per (filters, sort key) so each page is an index range scan.
      for (const sort of listSortColumns) {
        const tail = sort === "id" ? ["id"] : [sort, "id"];
        await db.schema
          .createIndex(`reports_user_${sort}`)
          .on("reports")
          .columns(["user_id", ...tail])
          .execute();
        await db.schema
          .createIndex(`reports_user_project_${sort}`)
          .on("reports")
          .columns(["user_id", "project", ...tail])
          .execute();
        await db.schema
          .createIndex(`reports_user_result_${sort}`)
          .on("reports")
          .columns(["user_id", "result", ...tail])
          .execute();
        await db.schema
          .createIndex(`reports_user_project_result_${sort}`)
          .on("reports")
          .columns(["user_id", "project", "result", ...tail])
          .execute();
      }

      if (pg) {
        // In public, which every connection's search_path ends with: created in the first schema of the path,
        // it would vanish with that schema and be invisible from the others sharing the database.
        await sql`create extension if not exists pg_trgm with schema public`.execute(db);
        await sql`create index reports_url_trigram on reports using gin (url gin_trgm_ops)`.execute(db);
      } else {
        // An external-content FTS5 table over reports.url with the trigram tokenizer: substring search
        // without scanning, kept in step by triggers.
        await sql`create virtual table reports_url_search using fts5(url, content='reports', content_rowid='id', tokenize='trigram case_sensitive 0')`.execute(
          db,
        );
        await sql`create trigger reports_url_search_insert after insert on reports begin
            insert into reports_url_search(rowid, url) values (new.id, new.url); end`.execute(db);
        await sql`create trigger reports_url_search_delete after delete on reports begin
            insert into reports_url_search(reports_url_search, rowid, url) values ('delete', old.id, old.url); end`.execute(
          db,
        );
        await sql`create trigger reports_url_search_update after update of url on reports begin
            insert into reports_url_search(reports_url_search, rowid, url) values ('delete', old.id, old.url);
            insert into reports_url_search(rowid, url) values (new.id, new.url); end`.execute(db);
      }

      await db.schema
        .createTable("rate_limits")
        .addColumn("bucket", "text", (c) => c.notNull())
        .addColumn("window_start", "integer", (c) => c.notNull())
        .addColumn("count", "integer", (c) => c.notNull())
        .addPrimaryKeyConstraint("rate_limits_pk", ["bucket", "window_start"])
        .execute();
    },
  };
}
