/**
 * Migration 018: crawls behind a login. `headers` holds the request headers a crawl sends to its own hosts,
 * sealed with PAGEGRADE_ENCRYPTION_KEY (see crawls/crawl-headers.ts; null when it sends none), and
 * `header_names` their names as a JSON array, the only part ever shown.
 */
import type { Kysely, Migration } from "kysely";

export function crawlHeaders(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable("crawls").addColumn("headers", "text").execute();
      await db.schema
        .alterTable("crawls")
        .addColumn("header_names", "text", (c) => c.notNull().defaultTo("[]"))
        .execute();
    },
  };
}
