/**
 * A crawl row to test the crawl's store modules on: a fresh test database with the crawl's stores over it, a
 * user, and a crawl of https://site.example/ inserted (and marked running, as a part finds it).
 */
import { AccountService } from "../../src/accounts/account-service.js";
import type { CrawlRow, NewCrawl } from "../../src/crawls/crawl-store.js";
import { type CrawlStores, openCrawlStores } from "../../src/crawls/crawl-stores.js";
import type { Store } from "../../src/store/store.js";
import { timestamp } from "../../src/timestamps.js";
import { type DatabaseKind, freshDatabase, type TestDatabase } from "./api.js";

export const siteUrl = "https://site.example/";

let users = 0;

export interface CrawlStoresTest {
  database: TestDatabase;
  stores: CrawlStores;
  /** A user to own crawls. */
  userId: number;
}

/** A fresh, migrated database of the kind, the crawl stores over it and a crawl owner; drop the database after. */
export async function crawlStoresOn(kind: DatabaseKind): Promise<CrawlStoresTest> {
  const database = await freshDatabase(kind);
  const stores = openCrawlStores(database.store);
  return { database, stores, userId: await crawlOwner(database.store) };
}

export async function crawlOwner(store: Store): Promise<number> {
  users++;
  return (await new AccountService(store).createUser(`crawler-${users}@example.com`, null)).account.id;
}

/** A running crawl of `siteUrl` owned by `userId`, with these fields changed. */
export async function runningCrawl(
  stores: CrawlStores,
  userId: number,
  fields: Partial<NewCrawl> = {},
): Promise<CrawlRow> {
  const now = timestamp();
  const crawl = await stores.crawls.insert({
    user_id: userId,
    url: siteUrl,
    project: "site.example",
    max_pages: 10,
    max_depth: 5,
    sitemaps: 0,
    include: "[]",
    exclude: "[]",
    mode: "raw",
    privacy: 1,
    schedule: "off",
    created_at: now,
    updated_at: now,
    parts: 1,
    ...fields,
  });
  return (await stores.crawls.markRunning(crawl.id, now)) as CrawlRow;
}
