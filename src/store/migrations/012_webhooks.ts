/**
 * Migration 012: webhooks and their deliveries. A webhook belongs to a user (deleted with them); a delivery is
 * one event for one webhook, with its attempts. `event_key` names what was announced (an analysis and event
 * type), unique per webhook, so announcing the same thing twice makes one delivery. The request body is stored
 * when the delivery is made, so every retry sends the same bytes under the same `webhook-id`.
 */
import type { Kysely, Migration } from "kysely";
import type { Dialect } from "../store.js";

export function webhooks(dialect: Dialect): Migration {
  const pg = dialect === "postgres";
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("webhooks")
        .addColumn("id", "integer", (c) =>
          pg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement(),
        )
        .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
        .addColumn("url", "text", (c) => c.notNull())
        // The subscribed events, comma-separated.
        .addColumn("events", "text", (c) => c.notNull())
        .addColumn("enabled", "integer", (c) => c.notNull())
        // The signing secret, sealed with AES-256-GCM when PAGEGRADE_ENCRYPTION_KEY is set (see secret-box.ts).
        .addColumn("secret", "text", (c) => c.notNull())
        .addColumn("secret_hint", "text", (c) => c.notNull())
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("updated_at", "text", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("webhooks_user").on("webhooks").columns(["user_id", "id"]).execute();

      await db.schema
        .createTable("webhook_deliveries")
        .addColumn("id", "integer", (c) =>
          pg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement(),
        )
        .addColumn("webhook_id", "integer", (c) => c.notNull().references("webhooks.id").onDelete("cascade"))
        .addColumn("user_id", "integer", (c) => c.notNull())
        .addColumn("event", "text", (c) => c.notNull())
        .addColumn("event_key", "text", (c) => c.notNull())
        .addColumn("body", "text", (c) => c.notNull())
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("last_status_code", "integer")
        .addColumn("last_error", "text")
        .addColumn("next_attempt_at", "text")
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("delivered_at", "text")
        .execute();
      await db.schema
        .createIndex("webhook_deliveries_event")
        .on("webhook_deliveries")
        .columns(["webhook_id", "event_key"])
        .unique()
        .execute();
      await db.schema
        .createIndex("webhook_deliveries_list")
        .on("webhook_deliveries")
        .columns(["webhook_id", "id"])
        .execute();
    },
  };
}
