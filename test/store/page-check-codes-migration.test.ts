/**
 * Migration 027 on both databases: a crawl page's failed and warned checks, stored by name and status word before
 * it, are read back after it as the same roll-up (counts, URL patterns, affected pages and their batches) and the
 * same page statuses when crawls are compared; the checks' codes are added on first use, once however many ask at
 * once.
 */
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { catalogue } from "../../src/analysis/catalogue.js";
import { openCrawlStores } from "../../src/crawls/crawl-stores.js";
import { insertNamedRows, readCodes } from "../../src/crawls/page-check-code-store.js";
import { migrate } from "../../src/store/migrations.js";
import { databaseKinds } from "../helpers/api.js";
import { crawlOwner, runningCrawl, siteUrl } from "../helpers/crawl-rows.js";
import { databaseMigratedTo } from "../helpers/migrated-database.js";

const checks = ["title", "image-alt", "meta-description", "h1", "canonical"];
const paths = ["", "about", "blog/a", "blog/b", "blog/c", "shop/x", "shop/y", "contact", "blog/d", "shop/z"];

/** Page `index` of crawl `side`: each check fails, warns or passes by a fixed rule, so the two crawls differ. */
function statusOf(side: number, index: number, check: number): "fail" | "warn" | null {
  const value = (index * 7 + check * 3 + side * 5) % 5;
  return value === 0 ? "fail" : value === 1 ? "warn" : value === 2 && check % 2 === 0 ? "fail" : null;
}

function templateOf(path: string): string {
  const [first, second] = path.split("/");
  return second === undefined ? `/${first}` : `/${first}/*`;
}

describe.each(databaseKinds)("page check codes (migration 027) on %s", (kind) => {
  it("answers the roll-up and the comparison of crawls as before", async () => {
    const { store, drop } = await databaseMigratedTo(kind, "026_compact_rows");
    try {
      const stores = openCrawlStores(store);
      const owner = await crawlOwner(store);
      const crawls = [await runningCrawl(stores, owner), await runningCrawl(stores, owner)];
      // As the crawler stored them before: the check's name and the status as words.
      const expected = crawls.map(() => ({
        rows: [] as Array<{ page: number; url: string; check: string; status: string; template: string }>,
        pages: new Map<number, string>(),
      }));
      for (const [side, crawl] of crawls.entries()) {
        for (const [index, path] of paths.entries()) {
          const url = `${siteUrl}${path}`;
          const { rows } = await sql<{ id: number }>`insert into crawl_pages
              (crawl_id, url, depth, state, status_code, content_type, indexable, result)
            values (${crawl.id}, ${url}, 1, 'done', 200, 'text/html', 1, 'good') returning id`.execute(
            store.db,
          );
          const page = (rows[0] as { id: number }).id;
          expected[side]?.pages.set(page, url);
          for (const [place, check] of checks.entries()) {
            const status = statusOf(side, index, place);
            if (status === null) continue;
            const template = templateOf(path);
            expected[side]?.rows.push({ page, url, check, status, template });
            await sql`insert into crawl_page_checks (crawl_id, page_id, check_id, status, template)
              values (${crawl.id}, ${page}, ${check}, ${status}, ${template})`.execute(store.db);
          }
        }
      }
      await migrate(store);

      const [before, after] = crawls as [(typeof crawls)[number], (typeof crawls)[number]];
      for (const [side, crawl] of crawls.entries()) {
        const rows = expected[side]?.rows ?? [];
        const counts = await stores.rollups.counts(crawl.id);
        expect(counts.sort((a, b) => a.check_id.localeCompare(b.check_id))).toEqual(
          [...new Set(rows.map((row) => row.check))].sort().map((check) => ({
            check_id: check,
            fail: rows.filter((row) => row.check === check && row.status === "fail").length,
            warn: rows.filter((row) => row.check === check && row.status === "warn").length,
          })),
        );
        const templates = await stores.rollups.templates(crawl.id, checks);
        for (const check of checks) {
          const byTemplate = new Map<string, number>();
          for (const row of rows.filter((row) => row.check === check))
            byTemplate.set(row.template, (byTemplate.get(row.template) ?? 0) + 1);
          const listed = [...byTemplate]
            .map(([pattern, pages]) => ({ pattern, pages }))
            .sort((a, b) => b.pages - a.pages || (a.pattern < b.pattern ? -1 : 1));
          expect(templates.get(check)).toEqual(listed.length > 0 ? listed : undefined);
          const affected = rows
            .filter((row) => row.check === check)
            .sort((a, b) => a.page - b.page)
            .map((row) => ({
              page_id: row.page,
              url: row.url,
              report_id: null,
              status: row.status,
              message: "",
              items: "[]",
            }));
          expect(await stores.rollups.pages(crawl.id, check, { limit: 100, offset: 0 })).toEqual(affected);
          expect(await stores.rollups.pages(crawl.id, check, { limit: 2, offset: 1 })).toEqual(
            affected.slice(1, 3),
          );
          const batches = [];
          for await (const batch of stores.rollups.batches(crawl.id, check)) batches.push(...batch);
          expect(batches).toEqual(affected);
        }
        expect(await stores.rollups.pages(crawl.id, "never-recorded", { limit: 10, offset: 0 })).toEqual([]);

        const statuses = await stores.diffs.pageStatuses(crawl.id);
        expect(statuses).toEqual(
          [...(expected[side]?.pages.entries() ?? [])]
            .sort(([, a], [, b]) => (a < b ? -1 : 1))
            .map(([page, url]) => ({ url, check_statuses: JSON.stringify(statusesOf(rows, page)) })),
        );
      }
      const compared = [];
      for await (const batch of stores.diffs.comparedPages(before.id, after.id, 4)) compared.push(...batch);
      const beforeRows = expected[0]?.rows ?? [];
      const afterRows = expected[1]?.rows ?? [];
      const pageOf = (side: number, url: string) =>
        [...(expected[side]?.pages.entries() ?? [])].find(([, pageUrl]) => pageUrl === url)?.[0] ?? -1;
      expect(compared).toEqual(
        paths
          .map((path) => `${siteUrl}${path}`)
          .sort()
          .map((url) => ({
            url,
            before: JSON.stringify(statusesOf(beforeRows, pageOf(0, url))),
            after: JSON.stringify(statusesOf(afterRows, pageOf(1, url))),
          })),
      );

      // New rows after the migration: a check never seen before gets a code, once.
      const codes = await Promise.all([1, 2, 3].map(() => readCodes(store.db, ["a-new-check", "title"])));
      expect(new Set(codes.map((code) => code.get("a-new-check"))).size).toBe(1);
      const names = await store.db.selectFrom("page_check_names").select("name").orderBy("name").execute();
      expect(names.map((row) => row.name)).toEqual([...checks, "a-new-check"].sort());
      const [page] = expected[1]?.pages.keys() ?? [];
      // A page has one row of checks (migration 036): stored again, its row is replaced.
      await store.db
        .deleteFrom("crawl_page_checks")
        .where("page_id", "=", page as number)
        .execute();
      await insertNamedRows(store.db, [
        {
          crawl_id: after.id,
          page_id: page as number,
          check_id: "a-new-check",
          status: "warn",
          template: "/",
        },
      ]);
      expect(await stores.rollups.counts(after.id)).toContainEqual({
        check_id: "a-new-check",
        fail: 0,
        warn: 1,
      });

      await stores.crawls.delete(owner, before.id);
      const left = await store.db.selectFrom("crawl_page_checks").select("crawl_id").distinct().execute();
      expect(left).toEqual([{ crawl_id: after.id }]);
      await store.close();
    } finally {
      await drop();
    }
  });
});

/** A page's failed and warned checks as the comparison reads them: check → status, in catalogue order. */
function statusesOf(rows: Array<{ page: number; check: string; status: string }>, page: number) {
  const order = catalogue.map((entry) => entry.id);
  const statuses: Record<string, string> = {};
  for (const row of rows
    .filter((row) => row.page === page)
    .sort((a, b) => catalogueIndex(a.check) - catalogueIndex(b.check)))
    statuses[row.check] = row.status;
  return statuses;
  function catalogueIndex(check: string): number {
    return order.indexOf(check);
  }
}
