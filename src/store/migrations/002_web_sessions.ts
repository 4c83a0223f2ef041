/**
 * Migration 002: browser sessions (the token's digest only) and the secrets every instance shares.
 */
import type { Kysely, Migration } from "kysely";

export function webSessions(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      // Browser sessions: the cookie holds a random token, the table only its SHA-256 digest.
      await db.schema
        .createTable("sessions")
        .addColumn("digest", "text", (c) => c.primaryKey())
        .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
        .addColumn("flash", "text")
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("expires_at", "integer", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("sessions_user").on("sessions").columns(["user_id"]).execute();
      // Secrets every instance must share (the key that signs cookies), made on first start.
      await db.schema
        .createTable("secrets")
        .addColumn("name", "text", (c) => c.primaryKey())
        .addColumn("value", "text", (c) => c.notNull())
        .execute();
    },
  };
}
