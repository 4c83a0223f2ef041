/**
 * Migration 026 on both databases: the crawl pages' text fingerprints are packed (pages stored with a hex hash and
 * JSON minhashes before it read the same fingerprints after it, so the duplicate-content check compares them as
 * before; a page without one still has none), and their inlinks move to rows of their own, listed and sorted as
 * before and deleted with the crawl; on PostgreSQL the reports' URL search index keeps a short pending list.
 */
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { textFingerprint } from "../../src/analysis/site-checks/text-fingerprint.js";
import { openCrawlStores } from "../../src/crawls/crawl-stores.js";
import { StoredSiteSource } from "../../src/crawls/site-source-store.js";
import { migrate } from "../../src/store/migrations.js";
import { packFingerprint, unpackFingerprint } from "../../src/store/stored-fingerprint.js";
import { databaseKinds } from "../helpers/api.js";
import { crawlOwner, runningCrawl, siteUrl } from "../helpers/crawl-rows.js";
import { databaseMigratedTo } from "../helpers/migrated-database.js";

describe.each(databaseKinds)("crawl page rows (migration 026) on %s", (kind) => {
  it("converts every stored fingerprint and keeps pages without one", async () => {
    const { store, drop } = await databaseMigratedTo(kind, "025_staged_findings");
    try {
      const stores = openCrawlStores(store);
      const crawl = await runningCrawl(stores, await crawlOwner(store));
      const texts = Array.from({ length: 3 }, (_, index) =>
        textFingerprint(`Page ${index}: words of its own, ${"and some shared text ".repeat(index + 3)}`),
      );
      // As the crawler stored them before: the hash as hex, the minhashes as JSON text.
      // And their inlinks as counted, in the page's row.
      for (const [index, text] of texts.entries()) {
        await sql`insert into crawl_pages (crawl_id, url, depth, state, status_code, content_type, indexable,
                    text_hash, text_minhash, inlinks)
                  values (${crawl.id}, ${`${siteUrl}p/${index}`}, 1, 'done', 200, 'text/html', 1,
                    ${text?.hash}, ${JSON.stringify(text?.minhash)}, ${[2, 0, 5][index]})`.execute(store.db);
      }
      await sql`insert into crawl_pages (crawl_id, url, depth, state, status_code, content_type, indexable, inlinks)
                values (${crawl.id}, ${`${siteUrl}empty`}, 1, 'done', 200, 'text/html', 1, 1)`.execute(
        store.db,
      );
      await migrate(store);

      const listed = await stores.listings.pages(crawl.id, { limit: 10, offset: 0 });
      expect(listed.map((page) => [page.url.slice(siteUrl.length), page.inlinks])).toEqual([
        ["p/0", 2],
        ["p/1", 0],
        ["p/2", 5],
        ["empty", 1],
      ]);
      const byInlinks = await stores.listings.pageTable(crawl.id, {
        sort: "inlinks",
        direction: "desc",
        limit: 3,
        offset: 0,
      });
      expect(byInlinks.rows.map((page) => page.inlinks)).toEqual([5, 2, 1]);
      expect(byInlinks.total).toBe(4);
      // Only pages linked to have a row.
      const inlinkRows = () => store.db.selectFrom("crawl_page_inlinks").select("inlinks").execute();
      expect((await inlinkRows()).map((row) => row.inlinks).sort()).toEqual([1, 2, 5]);

      const source = new StoredSiteSource(store.db, store.dialect, crawl.id, siteUrl, 0);
      const read = [];
      for await (const batch of source.pages("texts")) read.push(...batch);
      expect(read.map((page) => page.text)).toEqual(texts);
      const rows = await store.db
        .selectFrom("crawl_pages")
        .select("text_fingerprint")
        .where("crawl_id", "=", crawl.id)
        .orderBy("id")
        .execute();
      expect(rows.map((row) => row.text_fingerprint?.length ?? null)).toEqual([288, 288, 288, null]);

      await stores.crawls.delete(crawl.user_id, crawl.id);
      expect(await inlinkRows()).toEqual([]);

      if (kind === "postgres") {
        const { rows: options } = await sql<{ reloptions: string[] }>`select c.reloptions from pg_class c
          where c.relname = 'reports_url_trigram' and c.relnamespace = current_schema()::regnamespace`.execute(
          store.db,
        );
        expect(options).toEqual([{ reloptions: ["gin_pending_list_limit=64"] }]);
        // The links' (crawl, source) index this migration made is replaced by migration 042's, on the source page
        // (test/store/crawl-links-by-page-migration.test.ts).
      }
      await store.close();
    } finally {
      await drop();
    }
  });
});

describe("packFingerprint", () => {
  const hash = "0123456789abcdef".repeat(4);
  it("round-trips the hash and unsigned 32-bit minhashes", () => {
    const text = { hash, minhash: [0, 1, 0x7fffffff, 0x80000000, 0xffffffff] };
    expect(unpackFingerprint(packFingerprint(text))).toEqual(text);
  });

  it("refuses what it cannot store as it is", () => {
    expect(() => packFingerprint({ hash: "abc", minhash: [] })).toThrow(/64 lower-case hex digits/);
    expect(() => packFingerprint({ hash, minhash: [-1] })).toThrow(/unsigned 32-bit integer, not -1/);
    expect(() => packFingerprint({ hash, minhash: [2 ** 32] })).toThrow(/unsigned 32-bit/);
    expect(() => packFingerprint({ hash, minhash: [1.5] })).toThrow(/unsigned 32-bit/);
    expect(() => unpackFingerprint(Buffer.alloc(33))).toThrow(/not 33 in all/);
  });
});
