/**
 * Migration 034: crawl notifications by e-mail (issue 43, contract part 4 "E-mail").
 *
 * `notification_settings`: a project's choice (`email_on`: regressed | completed | never) and its recipients
 * (a JSON array of addresses; NULL is the default, the owner's address), one row per project of a workspace:
 * `user_id` and a nullable `team_id` as the workspace tables of migration 031 (NULL: the user's own). A project
 * without a row takes the default (regressed when its crawl has a schedule, never otherwise).
 *
 * `notification_unsubscribes`: an address that followed a mail's unsubscribe link for one project; it gets no
 * more of that project's mails. The link's token is an HMAC (src/notifications/unsubscribe-token.ts), never stored.
 *
 * `mail_messages` gains `dedupe_key` (unique; a crawl's notification to one recipient is one row however often
 * the crawl's end is announced) and `headers` (extra headers as a JSON object: `List-Unsubscribe`, …).
 */
import { type ColumnDefinitionBuilder, type Kysely, type Migration, sql } from "kysely";
import type { Dialect } from "../store.js";

export function crawlNotifications(dialect: Dialect): Migration {
  const pg = dialect === "postgres";
  const identity = (c: ColumnDefinitionBuilder) =>
    pg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement();
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("notification_settings")
        .addColumn("id", "integer", identity)
        .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
        .addColumn("team_id", "integer", (c) => c.references("teams.id").onDelete("cascade"))
        .addColumn("project", "text", (c) => c.notNull())
        .addColumn("email_on", "text", (c) => c.notNull())
        .addColumn("recipients", "text")
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("updated_at", "text", (c) => c.notNull())
        .execute();
      await sql`create unique index notification_settings_user on notification_settings ("user_id", "project") where "team_id" is null`.execute(
        db,
      );
      await sql`create unique index notification_settings_team on notification_settings ("team_id", "project") where "team_id" is not null`.execute(
        db,
      );

      await db.schema
        .createTable("notification_unsubscribes")
        .addColumn("id", "integer", identity)
        .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
        .addColumn("team_id", "integer", (c) => c.references("teams.id").onDelete("cascade"))
        .addColumn("project", "text", (c) => c.notNull())
        // Lower-cased.
        .addColumn("recipient", "text", (c) => c.notNull())
        .addColumn("created_at", "text", (c) => c.notNull())
        .execute();
      await sql`create unique index notification_unsubscribes_user on notification_unsubscribes ("user_id", "project", "recipient") where "team_id" is null`.execute(
        db,
      );
      await sql`create unique index notification_unsubscribes_team on notification_unsubscribes ("team_id", "project", "recipient") where "team_id" is not null`.execute(
        db,
      );

      await db.schema.alterTable("mail_messages").addColumn("dedupe_key", "text").execute();
      await db.schema.alterTable("mail_messages").addColumn("headers", "text").execute();
      await db.schema
        .createIndex("mail_messages_dedupe_key")
        .on("mail_messages")
        .column("dedupe_key")
        .unique()
        .execute();
    },
  };
}
