/**
 * Migration 031: teams (issue 42, contract part 4 "Teams"). A team is a workspace of its own: `teams`, its
 * members with their role (`team_members`), invitations by e-mail address (`team_invitations`: the one-time
 * token only as its SHA-256 digest, valid 7 days, accepted or revoked once) and what happened in it
 * (`team_activity`, kept 90 days by the maintenance job).
 *
 * Every table a workspace owns gains a nullable `team_id`: `reports` (and with them projects, which are the
 * reports' `project` names, and report schedules, which are report columns), `analyses`, `crawls`, `webhooks`
 * and `webhook_deliveries`. NULL is the user's own workspace, so every existing row stays where it was; a team's
 * rows keep `user_id` (who made them, whom quotas charge) and name the team. Deleting a team deletes its rows
 * (foreign keys, ON DELETE CASCADE, and their children through theirs). The team's list indexes are partial
 * (`team_id is not null`): a user's own rows pay nothing for them.
 *
 * `users.disabled_at`: an operator's `pagegrade user disable`; a disabled user's keys and sessions stop working.
 */
import { type ColumnDefinitionBuilder, type Kysely, type Migration, sql } from "kysely";
import type { Dialect } from "../store.js";
import { listSortColumns } from "./001_initial.js";

/** The tables a workspace owns, which gain `team_id`. */
export const workspaceTables = ["reports", "analyses", "crawls", "webhooks", "webhook_deliveries"] as const;

export function teams(dialect: Dialect): Migration {
  const pg = dialect === "postgres";
  const identity = (c: ColumnDefinitionBuilder) =>
    pg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement();
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable("users").addColumn("disabled_at", "text").execute();

      await db.schema
        .createTable("teams")
        .addColumn("id", "integer", identity)
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("updated_at", "text", (c) => c.notNull())
        .execute();

      await db.schema
        .createTable("team_members")
        .addColumn("team_id", "integer", (c) => c.notNull().references("teams.id").onDelete("cascade"))
        .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
        // owner | editor | viewer
        .addColumn("role", "text", (c) => c.notNull())
        .addColumn("joined_at", "text", (c) => c.notNull())
        .addPrimaryKeyConstraint("team_members_pk", ["team_id", "user_id"])
        .execute();
      // A user's teams (the membership check of every request with `team`, and the list of their teams).
      await db.schema
        .createIndex("team_members_user")
        .on("team_members")
        .columns(["user_id", "team_id"])
        .execute();

      await db.schema
        .createTable("team_invitations")
        .addColumn("id", "integer", identity)
        .addColumn("team_id", "integer", (c) => c.notNull().references("teams.id").onDelete("cascade"))
        // Lower-cased, as users' addresses are stored.
        .addColumn("email", "text", (c) => c.notNull())
        .addColumn("role", "text", (c) => c.notNull())
        // SHA-256 of the token, hex; the token itself is only in the accept link.
        .addColumn("digest", "text", (c) => c.notNull().unique())
        .addColumn("invited_by", "integer", (c) => c.references("users.id").onDelete("set null"))
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("expires_at", "text", (c) => c.notNull())
        .addColumn("accepted_at", "text")
        .addColumn("accepted_by", "integer", (c) => c.references("users.id").onDelete("set null"))
        .addColumn("revoked_at", "text")
        .execute();
      await db.schema
        .createIndex("team_invitations_team")
        .on("team_invitations")
        .columns(["team_id", "id"])
        .execute();

      await db.schema
        .createTable("team_activity")
        .addColumn("id", "integer", identity)
        .addColumn("team_id", "integer", (c) => c.notNull().references("teams.id").onDelete("cascade"))
        .addColumn("user_id", "integer", (c) => c.references("users.id").onDelete("set null"))
        .addColumn("at", "text", (c) => c.notNull())
        // What was done ("report.created", "member.removed", …) and to what ("report 42", an address, …).
        .addColumn("action", "text", (c) => c.notNull())
        .addColumn("target", "text", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("team_activity_team")
        .on("team_activity")
        .columns(["team_id", "id"])
        .execute();
      // The 90-day purge walks the oldest rows of all teams.
      await db.schema.createIndex("team_activity_at").on("team_activity").column("at").execute();

      for (const table of workspaceTables) {
        await db.schema
          .alterTable(table)
          .addColumn("team_id", "integer", (c) => c.references("teams.id").onDelete("cascade"))
          .execute();
      }
      await teamListIndexes(db, pg);
      for (const table of ["analyses", "crawls", "webhooks", "webhook_deliveries"]) {
        await sql
          .raw(`create index ${table}_team on ${table} ("team_id", "id") where "team_id" is not null`)
          .execute(db);
      }
    },
  };
}

/**
 * The team's report lists: the same (filters × sort key) indexes as a user's (migrations 001, 003, 011), led by
 * `team_id` and holding only team rows. SQLite keeps the URL in the index (migration 003); PostgreSQL sorts
 * missing scores and times first (migration 011).
 */
async function teamListIndexes(db: Kysely<unknown>, pg: boolean): Promise<void> {
  for (const sort of listSortColumns) {
    for (const filters of [[], ["project"], ["result"], ["project", "result"]]) {
      const sortKey =
        pg && (sort === "generated_at" || sort === "score") ? `"${sort}" nulls first` : `"${sort}"`;
      const tail = sort === "id" ? ['"id"'] : [sortKey, '"id"'];
      const withUrl = !pg && sort !== "url" ? ['"url"'] : [];
      const columns = ['"team_id"', ...filters.map((column) => `"${column}"`), ...tail, ...withUrl];
      const name = ["reports_team", ...filters, sort].join("_");
      await sql
        .raw(`create index ${name} on reports (${columns.join(", ")}) where "team_id" is not null`)
        .execute(db);
    }
  }
}
