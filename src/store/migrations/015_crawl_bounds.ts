/**
 * Migration 015: what a crawl left out and why it failed. `urls_offered` and `links_offered` count the new URLs
 * and the links its pages asked to store (the bounds of crawl-bounds.ts are taken from these), `urls_dropped`
 * and `links_dropped` what did not fit; `error` is a failed crawl's `{"reason", "message"}` as JSON.
 */
import type { Kysely, Migration } from "kysely";

export function crawlBounds(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      for (const column of ["urls_offered", "urls_dropped", "links_offered", "links_dropped"]) {
        await db.schema
          .alterTable("crawls")
          .addColumn(column, "integer", (c) => c.notNull().defaultTo(0))
          .execute();
      }
      await db.schema.alterTable("crawls").addColumn("error", "text").execute();
    },
  };
}
