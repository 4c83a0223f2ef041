/**
 * Migration 032: sharing a crawl's audit. A crawl's `privacy` (0 public, 1 private, 2 password) now also decides
 * who sees its audit page and PDF; `password_hash` holds the Argon2id hash of its password (privacy 2 only, as a
 * report's). `brandings` holds the name and logo that replace pagegrade's on audits and PDFs: one row per owner,
 * a user (`user_id`) or a team (`team_id`, migration 031's teams), exactly one of the two set; either row goes
 * with its owner.
 */
import type { Kysely, Migration } from "kysely";
import { sql } from "kysely";
import type { Dialect } from "../store.js";

export function crawlAudits(dialect: Dialect): Migration {
  const pg = dialect === "postgres";
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable("crawls").addColumn("password_hash", "text").execute();
      await db.schema
        .createTable("brandings")
        .addColumn("id", "integer", (c) =>
          pg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement(),
        )
        .addColumn("user_id", "integer", (c) => c.references("users.id").onDelete("cascade"))
        .addColumn("team_id", "integer", (c) => c.references("teams.id").onDelete("cascade"))
        .addColumn("brand_name", "text")
        .addColumn("logo", pg ? "bytea" : "blob")
        // image/png or image/jpeg, as the logo's bytes say.
        .addColumn("logo_type", "text")
        .addColumn("updated_at", "text", (c) => c.notNull())
        .addCheckConstraint("brandings_one_owner", sql`(user_id is null) <> (team_id is null)`)
        .execute();
      await db.schema.createIndex("brandings_user").unique().on("brandings").column("user_id").execute();
      await db.schema.createIndex("brandings_team").unique().on("brandings").column("team_id").execute();
    },
  };
}
