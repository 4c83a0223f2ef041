/**
 * Migration 026: a crawl page's text fingerprint is stored as binary in `crawl_pages.text_fingerprint`
 * (store/stored-fingerprint.ts: the SHA-256 and the 64 minhashes, 288 bytes), in place of `text_hash` (hex) and
 * `text_minhash` (JSON text), together about 570 characters, a quarter of an analysed page's row; the row is
 * written again when the crawl counts its inlinks, so its old version, until vacuumed, was as large. Pages stored
 * before it have theirs converted, in batches by page id; the site checks read the same hash and minhashes.
 *
 * And a page's inlinks move to a narrow table of their own, `crawl_page_inlinks`: the crawl's judgement counts
 * them once every page is stored, and writing the count into the page's row wrote that whole row again, leaving
 * a dead copy as large on PostgreSQL. Pages without a row there have none (0, as the column's default was).
 *
 * On PostgreSQL the reports' URL search index (pg_trgm, GIN) keeps at most 64 kB of new entries in its pending
 * list instead of the server's default 4 MB: a pending entry takes about five times the room of one merged into
 * the index (measured on 3,000 crawl reports: 505 bytes a report with the default, 133 with 64 kB, 111 with no
 * pending list at all), and merging 64 kB at a time keeps inserts batched. And the links' (crawl, source, target)
 * index becomes (crawl, source): PostgreSQL stores a source's URL once for all its links (deduplication, which a
 * key ending in the target defeated: about 100 bytes a page instead of 600) and walks the links in (source,
 * target) order with the index still, sorting each source's few links (an incremental sort). SQLite keeps the
 * index as it was: it stores every key whole either way, and its queries name it.
 */
import { type Kysely, type Migration, sql } from "kysely";
import type { Dialect } from "../store.js";
import { packFingerprint } from "../stored-fingerprint.js";

/** The table as this migration reads it. */
interface MigratingDatabase {
  crawl_pages: {
    id: number;
    text_hash: string | null;
    text_minhash: string | null;
    text_fingerprint: Buffer | null;
    inlinks: number;
  };
  crawl_page_inlinks: { page_id: number; inlinks: number };
}

export function compactRows(dialect: Dialect): Migration {
  return {
    async up(unknownDb: Kysely<unknown>) {
      const db = unknownDb as Kysely<MigratingDatabase>;
      await db.schema
        .alterTable("crawl_pages")
        .addColumn("text_fingerprint", dialect === "postgres" ? "bytea" : "blob")
        .execute();
      // PostgreSQL runs each migration in a transaction already; on SQLite the conversion opens its own.
      if (dialect === "postgres") await convert(db);
      else await db.transaction().execute((trx) => convert(trx));
      await db.schema.alterTable("crawl_pages").dropColumn("text_hash").execute();
      await db.schema.alterTable("crawl_pages").dropColumn("text_minhash").execute();
      await db.schema
        .createTable("crawl_page_inlinks")
        .addColumn("page_id", "integer", (c) =>
          c.primaryKey().notNull().references("crawl_pages.id").onDelete("cascade"),
        )
        .addColumn("inlinks", "integer", (c) => c.notNull())
        .execute();
      await db
        .insertInto("crawl_page_inlinks")
        .columns(["page_id", "inlinks"])
        .expression(db.selectFrom("crawl_pages").select(["id", "inlinks"]).where("inlinks", "<>", 0))
        .execute();
      await db.schema.alterTable("crawl_pages").dropColumn("inlinks").execute();
      if (dialect === "postgres") {
        await sql`alter index reports_url_trigram set (gin_pending_list_limit = 64)`.execute(db);
        await db.schema.dropIndex("crawl_links_order").execute();
        await db.schema
          .createIndex("crawl_links_order")
          .on("crawl_links")
          .columns(["crawl_id", "from_url"])
          .execute();
      }
    },
  };
}

/** Pages with both a hash and minhashes get their fingerprint (the site checks read neither without the other). */
async function convert(db: Kysely<MigratingDatabase>): Promise<void> {
  let after = 0;
  for (;;) {
    const rows = await db
      .selectFrom("crawl_pages")
      .select(["id", "text_hash", "text_minhash"])
      .where("id", ">", after)
      .where("text_hash", "is not", null)
      .where("text_minhash", "is not", null)
      .orderBy("id")
      .limit(500)
      .execute();
    if (rows.length === 0) return;
    for (const row of rows) {
      const minhash = JSON.parse(row.text_minhash as string) as unknown;
      if (!Array.isArray(minhash))
        throw new Error(`crawl page ${row.id}: its text_minhash is not a JSON array`);
      await db
        .updateTable("crawl_pages")
        .set({ text_fingerprint: packFingerprint({ hash: row.text_hash as string, minhash }) })
        .where("id", "=", row.id)
        .execute();
    }
    after = rows[rows.length - 1]?.id ?? after;
  }
}
