/**
 * A large complete crawl written straight into a fresh database, as the crawl benchmarks measure one (no site is
 * fetched): the database itself (a SQLite file in a temporary folder, or a schema of its own in the PostgreSQL at
 * PAGEGRADE_TEST_POSTGRES_URL, dropped afterwards), its owner, the crawl's row, and rows inserted in batches.
 */
import type { Insertable, Kysely } from "kysely";
import pg from "pg";
import { AccountService } from "../src/accounts/account-service.js";
import type { Database } from "../src/store/schema.js";
import type { Store } from "../src/store/store.js";
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
