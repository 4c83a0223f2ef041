/**
 * Migration 039: a crawl records when its end was announced (`announced_at`: webhooks and notification mails
 * queued, `EventSink.crawlFinished` returned). A process that dies between ending the crawl and announcing it
 * leaves the crawl `complete` or `failed` with `announced_at` null, which the maintenance job's sweep finds
 * (through the partial index, which holds only such rows) and announces again, once; the sinks' keys make the
 * announcement idempotent. Crawls that had ended before are taken as announced.
 */
import { type Kysely, type Migration, sql } from "kysely";
import type { Dialect } from "../store.js";

export function crawlAnnounced(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      // PostgreSQL runs each migration in a transaction; on SQLite this one opens its own.
      if (dialect === "postgres") await addAnnouncedAt(db);
      else await db.transaction().execute((trx) => addAnnouncedAt(trx));
    },
  };
}

async function addAnnouncedAt(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("crawls").addColumn("announced_at", "text").execute();
  await sql`update crawls set announced_at = coalesce(finished_at, updated_at) where status in ('complete', 'failed', 'cancelled')`.execute(
    db,
  );
  await sql`create index crawls_unannounced on crawls ("finished_at") where "announced_at" is null and "status" in ('complete', 'failed')`.execute(
    db,
  );
}
