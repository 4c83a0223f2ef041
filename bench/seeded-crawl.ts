/**
 * A large complete crawl written straight into a fresh database, as the crawl benchmarks measure one (no site is
 * fetched): the database itself (a SQLite file in a temporary folder, or a schema of its own in the PostgreSQL at
 * PAGEGRADE_TEST_POSTGRES_URL, dropped afterwards), its owner, the crawl's row, and rows inserted in batches.
 */
import type { Insertable, Kysely } from "kysely";
import pg from "pg";
import { AccountService } from "../src/accounts/account-service.js";
import { insertNamedRows } from "../src/crawls/page-check-code-store.js";
import { urlTemplate } from "../src/crawls/page-checks.js";
import type { Database } from "../src/store/schema.js";
import type { Store } from "../src/store/store.js";
import { timestamp } from "../src/timestamps.js";
import { freshDatabase, postgresUrl, type TestDatabase } from "../test/helpers/api.js";

export { postgresUrl };

/** A fresh, migrated database (test/helpers/api.ts's, as bench:jobs uses): `drop()` removes every trace of it. */
export type BenchDatabase = TestDatabase;

/** A fresh, migrated database of the kind. */
export function benchDatabase(kind: "sqlite" | "postgres"): Promise<BenchDatabase> {
  return freshDatabase(kind);
}

/** Whether the PostgreSQL at `postgresUrl` answers. */
export async function postgresAnswers(): Promise<boolean> {
  const probe = new pg.Client({ connectionString: postgresUrl });
  const reachable = await probe.connect().then(
    () => true,
    () => false,
  );
  await probe.end().catch(() => undefined);
  return reachable;
}

/** A user to own the crawls, with its API key. */
export async function benchUser(store: Store): Promise<{ userId: number; key: string }> {
  const { account, key } = await new AccountService(store).createUser("bench@example.com", null);
  return { userId: account.id, key };
}

export interface CompleteCrawl {
  userId: number;
  /** The start URL; its host is the project. */
  url: string;
  pages: number;
  score: number;
  result: string;
  finishedAt: string;
  startedAt?: string;
}

/** The row of a complete crawl of `pages` analysed pages; returns its id. */
export async function insertCompleteCrawl(store: Store, crawl: CompleteCrawl): Promise<number> {
  const row = await store.db
    .insertInto("crawls")
    .values({
      user_id: crawl.userId,
      url: crawl.url,
      project: new URL(crawl.url).host,
      status: "complete",
      max_pages: crawl.pages,
      max_depth: 10,
      sitemaps: 0,
      include: "[]",
      exclude: "[]",
      mode: "raw",
      privacy: 1,
      schedule: "off",
      analysed: crawl.pages,
      discovered: crawl.pages,
      score: crawl.score,
      result: crawl.result,
      started_at: crawl.startedAt ?? null,
      finished_at: crawl.finishedAt,
      created_at: crawl.finishedAt,
      updated_at: crawl.finishedAt,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Inserts the rows into the table `batch` at a time, on the database or inside a transaction. */
export async function insertInBatches<Table extends keyof Database>(
  db: Kysely<Database>,
  table: Table,
  rows: Insertable<Database[Table]>[],
  batch: number,
): Promise<void> {
  for (let start = 0; start < rows.length; start += batch) {
    await db
      .insertInto(table)
      .values(rows.slice(start, start + batch) as never)
      .execute();
  }
}

/**
 * A complete crawl of a shop (bench:exports, bench:audit-pdf): `pages` pages (every 50th a 404), `linksPerPage`
 * internal links each, and 3 checks failed or warned on every page; returns its id.
 */
export async function seedShopCrawl(
  store: Store,
  userId: number,
  { pages, linksPerPage, site }: { pages: number; linksPerPage: number; site: string },
): Promise<number> {
  const now = timestamp();
  const crawlId = await insertCompleteCrawl(store, {
    userId,
    url: `${site}/`,
    pages,
    score: 71,
    result: "decent",
    startedAt: now,
    finishedAt: now,
  });
  const urlOf = (index: number) =>
    index === 0 ? `${site}/` : `${site}/${["blog", "shop", "docs", "help"][index % 4]}/page-${index}`;
  const batch = 500;
  await store.db.transaction().execute(async (trx) => {
    for (let start = 0; start < pages; start += batch) {
      const indexes = Array.from({ length: Math.min(batch, pages - start) }, (_, offset) => start + offset);
      const rows = await trx
        .insertInto("crawl_pages")
        .values(
          indexes.map((index) => ({
            crawl_id: crawlId,
            url: urlOf(index),
            depth: 1,
            state: "done" as const,
            status_code: index % 50 === 49 ? 404 : 200,
            content_type: "text/html",
            title: `Page ${index}, with "quotes" and a comma`,
            outlinks: linksPerPage,
            score: 71,
            result: "decent",
          })),
        )
        .returning(["id", "url"])
        .execute();
      const pageIds = new Map(rows.map((row) => [row.url, row.id]));
      await trx
        .insertInto("crawl_links")
        .values(
          indexes.flatMap((index) =>
            Array.from({ length: linksPerPage }, (_, link) => ({
              crawl_id: crawlId,
              from_page: pageIds.get(urlOf(index)) as number,
              to_url: urlOf((index + link + 1) % pages),
              nofollow: 0,
              anchor: `Read page ${(index + link + 1) % pages}`,
            })),
          ),
        )
        .execute();
      await insertNamedRows(
        trx,
        rows.flatMap((row) =>
          ["image-alt", "meta-description", "inline-css"].map((check) => ({
            crawl_id: crawlId,
            page_id: row.id,
            check_id: check,
            status: check === "inline-css" ? ("warn" as const) : ("fail" as const),
            template: urlTemplate(row.url),
          })),
        ),
      );
    }
  });
  return crawlId;
}
