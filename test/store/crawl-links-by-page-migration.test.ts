/**
 * Migration 042 on both databases: links stored with their source's URL before it name the source page's id after
 * it, every one with the right page (the same URL in two crawls is two pages), listed, filtered, exported and
 * counted as before; a link whose source page has no row is dropped; the table has no `from_url` left, its
 * indexes are the source page's and (crawl, target); a crawl's deletion still takes its links.
 */
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { openCrawlStores } from "../../src/crawls/crawl-stores.js";
import { migrate } from "../../src/store/migrations.js";
import type { Store } from "../../src/store/store.js";
import { databaseKinds } from "../helpers/api.js";
import { crawlOwner, runningCrawl, siteUrl } from "../helpers/crawl-rows.js";
import { databaseMigratedTo } from "../helpers/migrated-database.js";

const url = (path: string) => `${siteUrl}${path}`;

/** An old link: source and target paths, nofollow, anchor. */
type OldLink = [string, string, number, string | null];

/** Crawl 0's pages (path, status) and links; crawl 1 has pages at some of the same URLs, with links of its own. */
const pagesOf: Array<Array<[string, number | null]>> = [
  [
    ["", 200],
    ["a", 200],
    ["b", 200],
    ["c", 404],
    ["d", null],
  ],
  [
    ["", 200],
    ["a", 200],
  ],
];
const linksOf: OldLink[][] = [
  [
    ["", "c", 0, "C"],
    ["", "a", 0, "A"],
    ["", "b", 1, null],
    ["", "missing", 0, null],
    ["a", "", 0, "Home"],
    ["a", "b", 0, "B"],
    ["b", "b", 0, "itself"],
    ["b", "c", 1, "C again"],
  ],
  [
    ["", "a", 0, "the other crawl's"],
    ["a", "", 0, null],
  ],
];

async function columnsOf(store: Store): Promise<string[]> {
  if (store.dialect === "sqlite") {
    const { rows } = await sql<{
      name: string;
    }>`select name from pragma_table_info('crawl_links') order by cid`.execute(store.db);
    return rows.map((row) => row.name);
  }
  const { rows } = await sql<{ name: string }>`select column_name as name from information_schema.columns
    where table_schema = current_schema() and table_name = 'crawl_links' order by ordinal_position`.execute(
    store.db,
  );
  return rows.map((row) => row.name);
}

async function indexesOf(store: Store): Promise<Record<string, string[]>> {
  const names =
    store.dialect === "sqlite"
      ? (
          await sql<{ name: string }>`select name from sqlite_master
            where type = 'index' and tbl_name = 'crawl_links'`.execute(store.db)
        ).rows
      : (
          await sql<{ name: string }>`select indexname as name from pg_indexes
            where schemaname = current_schema() and tablename = 'crawl_links'`.execute(store.db)
        ).rows;
  const indexes: Record<string, string[]> = {};
  for (const { name } of names) {
    indexes[name] =
      store.dialect === "sqlite"
        ? (
            await sql<{ name: string }>`select name from pragma_index_info(${name}) order by seqno`.execute(
              store.db,
            )
          ).rows.map((row) => row.name)
        : (
            await sql<{ name: string }>`select a.attname as name
              from pg_index i cross join unnest(i.indkey) with ordinality as k(attnum, place)
              join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum
              where i.indexrelid = (current_schema() || '.' || ${name})::regclass order by k.place`.execute(
              store.db,
            )
          ).rows.map((row) => row.name);
  }
  return indexes;
}

describe.each(databaseKinds)("crawl links by source page (migration 042) on %s", (kind) => {
  it("keeps every link with its source page, lists them as before and drops from_url", async () => {
    const { store, drop } = await databaseMigratedTo(kind, "040_team_change_notices");
    try {
      const stores = openCrawlStores(store);
      const owner = await crawlOwner(store);
      const crawls = [await runningCrawl(stores, owner), await runningCrawl(stores, owner)];
      const pageIds = crawls.map(() => new Map<string, number>());
      for (const [side, crawl] of crawls.entries()) {
        for (const [path, status] of pagesOf[side] ?? []) {
          const { rows } = await sql<{
            id: number;
          }>`insert into crawl_pages (crawl_id, url, depth, state, status_code)
            values (${crawl.id}, ${url(path)}, 1, ${status === null ? "queued" : "done"}, ${status})
            returning id`.execute(store.db);
          pageIds[side]?.set(url(path), Number(rows[0]?.id));
        }
        // As the crawler stored them before: the source's URL on every link.
        for (const [from, to, nofollow, anchor] of linksOf[side] ?? []) {
          await sql`insert into crawl_links (crawl_id, from_url, to_url, nofollow, anchor)
            values (${crawl.id}, ${url(from)}, ${url(to)}, ${nofollow}, ${anchor})`.execute(store.db);
        }
      }
      // A link whose source has no page row (none should exist): dropped.
      await sql`insert into crawl_links (crawl_id, from_url, to_url, nofollow, anchor)
        values (${crawls[0]?.id}, ${url("gone")}, ${url("a")}, 0, null)`.execute(store.db);
      await migrate(store);

      expect(await columnsOf(store)).toEqual(["crawl_id", "from_page", "nofollow", "to_url", "anchor"]);
      expect(await indexesOf(store)).toEqual({
        crawl_links_from: ["from_page"],
        crawl_links_to: ["crawl_id", "to_url"],
      });

      // Every link, with the id of its own crawl's page at its source URL.
      const stored = await store.db
        .selectFrom("crawl_links")
        .select(["crawl_id", "from_page", "to_url", "nofollow", "anchor"])
        .execute();
      const expected = crawls.flatMap((crawl, side) =>
        (linksOf[side] ?? []).map(([from, to, nofollow, anchor]) => ({
          crawl_id: crawl.id,
          from_page: pageIds[side]?.get(url(from)),
          to_url: url(to),
          nofollow,
          anchor,
        })),
      );
      const order = (a: { from_page?: number; to_url: string }, b: { from_page?: number; to_url: string }) =>
        (a.from_page ?? 0) - (b.from_page ?? 0) || (a.to_url < b.to_url ? -1 : a.to_url > b.to_url ? 1 : 0);
      expect(stored.map((row) => ({ ...row, from_page: Number(row.from_page) })).sort(order)).toEqual(
        expected.sort(order),
      );

      // Listed in (source URL, target) order with the source's URL and the target's status, as before.
      const [first, second] = crawls as [(typeof crawls)[number], (typeof crawls)[number]];
      const statusOf = (path: string) => pagesOf[0]?.find(([page]) => page === path)?.[1] ?? null;
      const listed = (linksOf[0] ?? [])
        .map(([from, to, nofollow, anchor]) => ({
          from_url: url(from),
          to_url: url(to),
          anchor,
          nofollow,
          status_code: statusOf(to),
        }))
        .sort((a, b) =>
          a.from_url < b.from_url ? -1 : a.from_url > b.from_url ? 1 : a.to_url < b.to_url ? -1 : 1,
        );
      const shown = (
        rows: Array<{
          from_url: string;
          to_url: string;
          anchor: string | null;
          nofollow: number;
          status_code: number | null;
        }>,
      ) =>
        rows.map(({ from_url, to_url, anchor, nofollow, status_code }) => ({
          from_url,
          to_url,
          anchor,
          nofollow: Number(nofollow),
          status_code: status_code === null ? null : Number(status_code),
        }));
      expect(shown(await stores.links.list(first.id, {}, { limit: 100, offset: 0 }))).toEqual(listed);
      expect(shown(await stores.links.list(first.id, {}, { limit: 3, offset: 2 }))).toEqual(
        listed.slice(2, 5),
      );
      expect(await stores.links.count(first.id, {})).toBe(listed.length);
      const fromA = listed.filter((link) => link.from_url === url("a"));
      expect(shown(await stores.links.list(first.id, { from: url("a") }, { limit: 100, offset: 0 }))).toEqual(
        fromA,
      );
      expect(await stores.links.count(first.id, { from: url("a") })).toBe(fromA.length);
      const intoC = listed.filter((link) => link.to_url === url("c"));
      expect(shown(await stores.links.list(first.id, { to: url("c") }, { limit: 100, offset: 0 }))).toEqual(
        intoC,
      );
      expect(shown(await stores.links.list(first.id, { status: 404 }, { limit: 100, offset: 0 }))).toEqual(
        intoC,
      );
      expect(await stores.links.count(first.id, { status: 404 })).toBe(intoC.length);
      const batched = [];
      for await (const batch of stores.links.batches(first.id, {})) batched.push(...batch);
      expect(shown(batched)).toEqual(listed);
      // The other crawl's links are its own, from its own pages.
      expect(
        shown(await stores.links.list(second.id, {}, { limit: 100, offset: 0 })).map((link) => [
          link.from_url,
          link.to_url,
        ]),
      ).toEqual([
        [url(""), url("a")],
        [url("a"), url("")],
      ]);
      // Sources of a target: other pages only (b's link to itself is not one of c's... nor of b's).
      const sources = await stores.links.sourcesOfEach(first.id, [url("b"), url("c")], false);
      expect(Object.fromEntries(sources)).toEqual({
        [url("b")]: [url(""), url("a")],
        [url("c")]: [url(""), url("b")],
      });

      // Inlinks: distinct other pages linking in, a page's link to itself not counted.
      await stores.site.countInlinks(first.id);
      const inlinks = await store.db
        .selectFrom("crawl_page_inlinks")
        .innerJoin("crawl_pages", "crawl_pages.id", "crawl_page_inlinks.page_id")
        .select(["crawl_pages.url", "crawl_page_inlinks.inlinks"])
        .where("crawl_pages.crawl_id", "=", first.id)
        .orderBy("crawl_pages.url")
        .execute();
      expect(inlinks.map((row) => [row.url, Number(row.inlinks)])).toEqual([
        [url(""), 1],
        [url("a"), 1],
        [url("b"), 2],
        [url("c"), 2],
        [url("d"), 0],
      ]);

      // A crawl's deletion takes its links (the trigger of migration 028 on PostgreSQL, the key on SQLite).
      await stores.crawls.delete(owner, first.id);
      const left = await store.db.selectFrom("crawl_links").select("crawl_id").execute();
      expect(left.map((row) => row.crawl_id)).toEqual([second.id, second.id]);
      await store.close();
    } finally {
      await drop();
    }
  });
});
