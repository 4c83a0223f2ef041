import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AccountService } from "../../src/accounts/account-service.js";
import { type ReportListQuery, ReportStore } from "../../src/store/report-store.js";
import { databaseKinds, freshDatabase, type TestDatabase } from "../helpers/api.js";
import { seedColumns } from "../helpers/seed.js";

/**
 * URL search answers the same whichever way the database finds the matches. On SQLite a needle with more than
 * 2,000 trigram matches across all users is scanned for in the user's own index entries, a rarer one is looked
 * up in the FTS5 index, and one under three characters is always scanned; every answer here is checked
 * against a plain filter of the seeded rows.
 */
describe.each(databaseKinds)("URL search on %s", (kind) => {
  let database: TestDatabase;
  let reports: ReportStore;
  let crowd: number;
  let owner: number;
  const ownerUrls = [
    "https://common.example/b-1",
    "https://COMMON.example/B-2",
    "https://rare-needle.example/x",
    "https://shop.example/100%_off",
    "https://shop.example/100-off",
    "https://shop.example/a\\b",
  ];
  const crowdUrls = Array.from({ length: 2100 }, (_, index) => `https://common.example/page-${index}`);

  beforeAll(async () => {
    database = await freshDatabase(kind);
    const accounts = new AccountService(database.store);
    crowd = (await accounts.createUser("crowd@example.com", null)).account.id;
    owner = (await accounts.createUser("owner@example.com", null)).account.id;
    reports = new ReportStore(database.store);
    const rows = [
      ...crowdUrls.map((url, index) => seedColumns(crowd, { url, score: (index * 37) % 101 })),
      ...ownerUrls.map((url, index) => seedColumns(owner, { url, score: 90 - index * 10 })),
    ];
    for (let start = 0; start < rows.length; start += 500)
      await database.store.db
        .insertInto("reports")
        .values(rows.slice(start, start + 500))
        .execute();
  }, 60_000);
  afterAll(async () => database.drop());

  const search = async (userId: number, needle: string, query: Partial<ReportListQuery> = {}) => {
    const { rows, total } = await reports.list(userId, {
      search: needle,
      sortBy: "url",
      direction: "asc",
      limit: 100,
      offset: 0,
      ...query,
    });
    return { urls: rows.map((row) => row.url), total };
  };
  const expected = (urls: string[], needle: string) =>
    urls.filter((url) => url.toLowerCase().includes(needle.toLowerCase())).sort();

  it.each([
    ["common", "a needle with thousands of matches among other users' reports"],
    ["rare-needle", "a needle with one match"],
    ["100%_", "a needle with LIKE's wildcards, taken literally"],
    ["a\\b", "a needle with the escape character"],
    ["-", "a needle under three characters"],
    ["b-", "a two-character needle"],
    ["nothing at all", "a needle that matches nothing"],
  ])("finds %s (%s) only among the user's own reports", async (needle) => {
    const found = await search(owner, needle);
    expect(found.urls).toEqual(expected(ownerUrls, needle));
    expect(found.total).toBe(found.urls.length);
  });

  it("pages a common needle in every sort order with the right total", async () => {
    const all = crowdUrls.filter((url) => url.includes("page-1"));
    for (const sortBy of ["id", "url", "score", "generated_at"] as const) {
      const first = await search(crowd, "PAGE-1", { sortBy, limit: 10, offset: 0 });
      const second = await search(crowd, "PAGE-1", { sortBy, limit: 10, offset: 10 });
      expect(first.total).toBe(all.length);
      expect(new Set([...first.urls, ...second.urls]).size).toBe(20);
      for (const url of [...first.urls, ...second.urls]) expect(all).toContain(url);
    }
    const byUrl = await search(crowd, "page-1", { limit: 5, offset: 3 });
    expect(byUrl.urls).toEqual([...all].sort().slice(3, 8));
  });

  it("combines a search with the result filter", async () => {
    const found = await search(owner, "example", { result: "good" });
    expect(found.urls).toEqual(expected(ownerUrls.slice(0, 2), "example"));
  });
});
