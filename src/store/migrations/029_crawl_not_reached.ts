/**
 * Migration 029: a crawl counts the URLs it came upon but did not reach because of its limits (`max_pages`, or
 * beyond `max_depth`: pages `excluded: limit`), so that it can say it was limited and by how much
 * (`"limited": true`, `"not_reached"`). Crawls made before it count 0 until their counters are refreshed.
 */
import type { Kysely, Migration } from "kysely";

export function crawlNotReached(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable("crawls")
        .addColumn("not_reached", "integer", (c) => c.notNull().defaultTo(0))
        .execute();
    },
  };
}
