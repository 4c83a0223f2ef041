/**
 * Migration 013: a rendered analysis keeps the screenshot of its viewport (WebP as Chromium made it, tens of
 * kilobytes) with its media type, in its history row; raw analyses have none.
 */
import type { Kysely, Migration } from "kysely";
import type { Dialect } from "../store.js";

export function screenshots(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable("analyses")
        .addColumn("screenshot", dialect === "postgres" ? "bytea" : "blob")
        .execute();
      await db.schema.alterTable("analyses").addColumn("screenshot_type", "text").execute();
    },
  };
}
