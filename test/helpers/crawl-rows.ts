/**
 * A crawl row to test the crawl's store modules on: a user, the crawl's stores over a test database, and a crawl
 * of https://site.example/ inserted (and marked running, as a part finds it).
 */
import { AccountService } from "../../src/accounts/account-service.js";
import type { CrawlRow, NewCrawl } from "../../src/crawls/crawl-store.js";
import type { CrawlStores } from "../../src/crawls/crawl-stores.js";
import type { Store } from "../../src/store/store.js";
import { timestamp } from "../../src/timestamps.js";

export const siteUrl = "https://site.example/";

let users = 0;

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
