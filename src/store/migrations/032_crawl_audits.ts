/**
 * Migration 032: sharing a crawl's audit. A crawl's `privacy` (0 public, 1 private, 2 password) now also decides
 * who sees its audit page and PDF; `password_hash` holds the Argon2id hash of its password (privacy 2 only, as a
 * report's).
 */
import type { Kysely, Migration } from "kysely";

export function crawlAudits(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable("crawls").addColumn("password_hash", "text").execute();
    },
  };
}
