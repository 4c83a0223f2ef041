/**
 * Migration 030: mail. `mail_messages` is the outbox: one composed mail (recipient, subject, both parts, its
 * Message-ID) and its delivery state, sent by the `send-mail` job (src/mail/send-mail-job.ts) with the attempts
 * recorded as webhook deliveries record theirs. `password_resets` holds a reset link's token only as its SHA-256
 * digest, with its expiry (seconds since the epoch) and when it was used (single use); both go with their user.
 */
import type { Kysely, Migration } from "kysely";
import type { Dialect } from "../store.js";

export function mail(dialect: Dialect): Migration {
  const pg = dialect === "postgres";
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("mail_messages")
        .addColumn("id", "integer", (c) =>
          pg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement(),
        )
        // What the mail is for ("password-reset", …), for listings and tests.
        .addColumn("purpose", "text", (c) => c.notNull())
        .addColumn("user_id", "integer", (c) => c.references("users.id").onDelete("cascade"))
        .addColumn("recipient", "text", (c) => c.notNull())
        .addColumn("subject", "text", (c) => c.notNull())
        .addColumn("text_body", "text", (c) => c.notNull())
        .addColumn("html_body", "text", (c) => c.notNull())
        .addColumn("message_id", "text", (c) => c.notNull())
        // pending → sending (an attempt under way) → sent | pending (retry) | failed.
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("last_error", "text")
        .addColumn("next_attempt_at", "text")
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("sent_at", "text")
        .execute();
      await db.schema
        .createIndex("mail_messages_user")
        .on("mail_messages")
        .columns(["user_id", "id"])
        .execute();

      await db.schema
        .createTable("password_resets")
        .addColumn("digest", "text", (c) => c.primaryKey())
        .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("expires_at", "integer", (c) => c.notNull())
        .addColumn("used_at", "text")
        .execute();
      await db.schema.createIndex("password_resets_user").on("password_resets").column("user_id").execute();
    },
  };
}
