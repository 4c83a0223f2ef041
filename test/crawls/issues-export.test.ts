/**
 * The site issues export (`CrawlFindings.issuesCsv`) on SQLite and on PostgreSQL, over findings made by the real
 * broken-links check and stored as a crawl stores them: one row per finding, every finding of a check (past the
 * 100 its issue lists, read in batches) with every page linking to it; a crawl finished before every finding was
 * stored (migration 020) lists the items stored with its issue.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { brokenLinks } from "../../src/analysis/site-checks/broken-links.js";
import type { SiteFacts, SitePage } from "../../src/analysis/site-checks/site-facts.js";
import { factsSource } from "../../src/analysis/site-checks/site-source.js";
import { CrawlFindings } from "../../src/crawls/crawl-findings.js";
import { type CrawlStores, openCrawlStores } from "../../src/crawls/crawl-stores.js";
import { databaseKinds, freshDatabase, type TestDatabase } from "../helpers/api.js";
import { crawlOwner, runningCrawl } from "../helpers/crawl-rows.js";
import { sitePage } from "../helpers/site-page.js";

const url = (path: string) => `https://site.example${path}`;
const missing = 230;
/** Pages linking to /missing/0: more than the 5 an item lists. */
const linkingPages = 8;

function page(path: string, statusCode: number): SitePage {
  return sitePage(url(path), { statusCode, indexable: statusCode === 200 });
}

/** A home page and 8 articles; the home page links to 230 missing pages, every article to the first of them. */
function site(): SiteFacts {
  const articles = Array.from({ length: linkingPages - 1 }, (_, index) => `/article/${index}`);
  const gone = Array.from({ length: missing }, (_, index) => `/missing/${index}`);
  return {
    startUrl: url("/"),
    pages: [
      page("/", 200),
      ...articles.map((path) => page(path, 200)),
      ...gone.map((path) => page(path, 404)),
    ],
    links: [
      ...gone.map((path) => ({ from: url("/"), to: url(path), nofollow: false })),
      ...articles.map((path) => ({ from: url(path), to: url("/missing/0"), nofollow: false })),
    ],
  };
}

describe.each(databaseKinds)("the site issues export on %s", (kind) => {
  let database: TestDatabase;
  let stores: CrawlStores;
  let findings: CrawlFindings;
  let crawlId: number;

  beforeAll(async () => {
    database = await freshDatabase(kind);
    stores = openCrawlStores(database.store);
    findings = new CrawlFindings(stores.rollups, stores.links, stores.listings);
    const crawl = await runningCrawl(stores, await crawlOwner(database.store));
    crawlId = crawl.id;
    const facts = site();
    // The linking pages' rows: a link names its source by the page's id (migration 042).
    const sources = await database.store.db
      .insertInto("crawl_pages")
      .values(
        [...new Set(facts.links.map((link) => link.from))].map((from) => ({
          crawl_id: crawlId,
          url: from,
          depth: 1,
          state: "done",
          status_code: 200,
        })),
      )
      .returning(["id", "url"])
      .execute();
    const ids = new Map(sources.map((row) => [row.url, row.id]));
    await database.store.db
      .insertInto("crawl_links")
      .values(
        facts.links.map((link) => ({
          crawl_id: crawlId,
          from_page: ids.get(link.from) as number,
          to_url: link.to,
          nofollow: 0,
          anchor: null,
        })),
      )
      .execute();
    const issue = await brokenLinks.run(factsSource(facts));
    if (!issue) throw new Error("the broken-links check found nothing");
    await stores.site.saveIssues(crawlId, [issue]);
  });
  afterAll(async () => database.drop());

  const exported = async () => {
    let text = "";
    for await (const chunk of findings.issuesCsv(crawlId)) text += chunk;
    return text.split("\r\n").slice(0, -1);
  };

  it("lists every finding, past the 100 its issue holds, with every page linking to it", async () => {
    const [header, ...rows] = await exported();
    expect(header).toBe("check,importance,title,fingerprint,url,detail,sources");
    expect(rows).toHaveLength(missing);
    const urls = rows.map((row) => row.split(",")[4]);
    expect(new Set(urls).size).toBe(missing);
    expect(urls).toContain(url(`/missing/${missing - 1}`));
    const first = rows.find((row) => row.split(",")[4] === url("/missing/0")) as string;
    const sources = (first.split(",")[6] as string).split(" ");
    expect(sources).toHaveLength(linkingPages);
    expect(sources).toContain(url("/article/6"));
    expect(first.split(",")[3]).toMatch(/^[0-9a-f]{16,}$/);
    expect(first.split(",")[5]).toBe("status: 404");
  });

  it("lists the items stored with the issue for a crawl made before every finding was stored", async () => {
    await database.store.db.deleteFrom("crawl_findings").where("crawl_id", "=", crawlId).execute();
    const [, ...rows] = await exported();
    expect(rows).toHaveLength(100);
    expect(rows.every((row) => row.startsWith("broken-links,high,Broken links,"))).toBe(true);
  });
});
