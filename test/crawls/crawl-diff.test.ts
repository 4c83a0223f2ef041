/**
 * CrawlComparison on SQLite and on PostgreSQL over crawls written straight into the database: lists are cut at
 * 100 entries while the counts stay complete (`truncated` counts the pages left out), site issues and page checks
 * are ordered by importance, then count, then check id; the default `from` is the latest complete crawl of the
 * project finished before, and never another project's or a crawl still running; the webhook's copy keeps 20.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CrawlComparison,
  CrawlNotComplete,
  isSiteRegression,
  shortenedDiff,
} from "../../src/crawls/crawl-diff.js";
import type { CrawlRow } from "../../src/crawls/crawl-store.js";
import type { CrawlStores } from "../../src/crawls/crawl-stores.js";
import { insertNamedRows } from "../../src/crawls/page-check-code-store.js";
import { ValidationFailed } from "../../src/errors.js";
import { databaseKinds, type TestDatabase } from "../helpers/api.js";
import { crawlOwner, crawlStoresOn, runningCrawl } from "../helpers/crawl-rows.js";

const url = (path: string) => `https://site.example${path}`;

describe.each(databaseKinds)("CrawlComparison on %s", (kind) => {
  let database: TestDatabase;
  let stores: CrawlStores;
  let comparison: CrawlComparison;
  let userId: number;

  beforeAll(async () => {
    ({ database, stores, userId } = await crawlStoresOn(kind));
    comparison = new CrawlComparison(stores.crawls, stores.diffs);
  });
  afterAll(async () => database.drop());

  /**
   * A complete crawl with these pages (path → non-pass statuses), findings (check → paths) and URLs it came upon
   * but left out at its `max_pages` (`leftOut`).
   */
  async function crawl(
    finishedAt: string,
    pages: Record<string, Record<string, string>>,
    findings: Record<string, { importance: string; paths: string[] }>,
    project = "site.example",
    leftOut: string[] = [],
  ): Promise<CrawlRow> {
    const row = await runningCrawl(stores, userId, { project });
    const db = database.store.db;
    const pageRows = Object.keys(pages).map((path) => ({
      crawl_id: row.id,
      url: url(path),
      depth: 1,
      state: "done" as const,
      status_code: 200,
      indexable: 1,
      excluded: null,
      error: null,
      score: 80,
      result: "good",
    }));
    if (leftOut.length > 0) {
      await db
        .insertInto("crawl_pages")
        .values(
          leftOut.map((path) => ({
            crawl_id: row.id,
            url: url(path),
            depth: 2,
            state: "excluded" as const,
            excluded: "limit" as const,
          })),
        )
        .execute();
    }
    for (let start = 0; start < pageRows.length; start += 200) {
      await db
        .insertInto("crawl_pages")
        .values(pageRows.slice(start, start + 200))
        .execute();
    }
    // Each page's failed and warned checks, as the crawler records them.
    const stored = await db
      .selectFrom("crawl_pages")
      .select(["id", "url"])
      .where("crawl_id", "=", row.id)
      .execute();
    const checkRows = stored.flatMap((page) =>
      Object.entries(pages[new URL(page.url).pathname] ?? {})
        .filter(([, status]) => status === "fail" || status === "warn")
        .map(([check, status]) => ({
          crawl_id: row.id,
          page_id: page.id,
          check_id: check,
          status: status as "fail" | "warn",
          template: "/",
        })),
    );
    for (let start = 0; start < checkRows.length; start += 200) {
      await insertNamedRows(db, checkRows.slice(start, start + 200));
    }
    await stores.site.saveIssues(
      row.id,
      Object.entries(findings).map(([check, { importance, paths }]) => {
        const items = paths.map((path) => ({ url: url(path), fingerprint: `${check} ${path}` }));
        return {
          check,
          category: "seo" as const,
          importance: importance as "high",
          title: check,
          message: "",
          count: items.length,
          items: items.slice(0, 100),
          truncated: Math.max(0, items.length - 100),
          findings: items,
        };
      }),
    );
    await stores.crawls.endRunning(row.id, { status: "complete", finished_at: finishedAt, score: 80 });
    return (await stores.crawls.find(userId, row.id)) as CrawlRow;
  }

  const paths = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => `${prefix}${i}`);
  const pagesOf = (list: string[], statuses: Record<string, string> = {}) =>
    Object.fromEntries(list.map((path) => [path, statuses]));

  it("cuts every list at 100 and keeps the counts complete, in the contract's order", async () => {
    // The findings are about pages both crawls reached: changes, not coverage.
    const findingPages = pagesOf([
      ...paths("/b/", 150),
      ...paths("/o/", 10),
      ...paths("/d/", 5),
      ...paths("/r/", 7),
    ]);
    const older = await crawl(
      "2026-01-01T00:00:00.000Z",
      { ...findingPages, ...pagesOf(paths("/same/", 150)), ...pagesOf(paths("/old/", 30)) },
      {
        "orphan-pages": { importance: "medium", paths: paths("/o/", 10) },
        "click-depth": { importance: "low", paths: paths("/d/", 5) },
      },
    );
    const newer = await crawl(
      "2026-01-02T00:00:00.000Z",
      {
        ...findingPages,
        ...pagesOf(paths("/same/", 150), { "image-alt": "fail", title: "warn" }),
        ...pagesOf(paths("/new/", 120)),
      },
      {
        "broken-links": { importance: "high", paths: paths("/b/", 150) },
        "orphan-pages": { importance: "medium", paths: paths("/o/", 3) },
        "redirect-chains": { importance: "medium", paths: paths("/r/", 7) },
      },
    );
    // Another project's crawl and a running one in between are never the default.
    await crawl("2026-01-01T12:00:00.000Z", {}, {}, "other.example");
    await runningCrawl(stores, userId);

    const diff = await comparison.diff(userId, newer.id);
    expect(diff?.from?.id).toBe(older.id);
    expect(
      diff?.site_issues.map((issue) => [
        issue.check,
        issue.new_count,
        issue.resolved_count,
        issue.new.length,
        issue.resolved.length,
      ]),
    ).toEqual([
      ["broken-links", 150, 0, 100, 0],
      ["redirect-chains", 7, 0, 7, 0],
      ["orphan-pages", 0, 7, 0, 7],
      ["click-depth", 0, 5, 0, 5],
    ]);
    expect(diff?.site_issues[0]?.new[0]).toEqual({ url: url("/b/0"), fingerprint: "broken-links /b/0" });
    expect(diff?.site_issues[2]).toMatchObject({ from_count: 10, to_count: 3 });
    expect(
      diff?.page_checks.map((check) => [
        check.check,
        check.importance,
        check.regressed,
        check.fixed,
        check.pages.length,
      ]),
    ).toEqual([
      ["image-alt", "high", 150, 0, 100],
      ["title", "high", 150, 0, 100],
    ]);
    expect(diff?.pages.added).toHaveLength(100);
    expect(diff?.pages.removed).toHaveLength(30);
    expect(diff?.pages.truncated).toBe(20);
    expect(diff?.regressions).toEqual({ high: 450, medium: 7, low: 0 });
    expect(isSiteRegression(diff as NonNullable<typeof diff>, 5)).toBe(true);

    const short = shortenedDiff(diff as NonNullable<typeof diff>, 20);
    expect(short.site_issues[0]?.new).toHaveLength(20);
    expect(short.site_issues[0]?.new_count).toBe(150);
    expect(short.page_checks[0]?.pages).toHaveLength(20);
    expect(short.pages.added).toHaveLength(20);
    expect(short.pages.truncated).toBe(20 + 80 + 10);
    expect(diff?.coverage).toEqual({ newly_checked: 0, no_longer_checked: 0 });
  });

  it("counts findings about URLs only one crawl reached as coverage, and a URL left out at max_pages as no page removed", async () => {
    const both = pagesOf(["/", "/kept", "/broken-before", "/broken-both"]);
    const older = await crawl(
      "2026-03-01T00:00:00.000Z",
      { ...both, "/reached-then": {} },
      {
        "broken-links": { importance: "high", paths: ["/broken-before", "/broken-both", "/reached-then"] },
      },
      "coverage.example",
      ["/limit-then"],
    );
    const newer = await crawl(
      "2026-03-02T00:00:00.000Z",
      { ...both, "/limit-then": {} },
      {
        // New against a page the older crawl reached; newly checked: a URL it left out at its limit.
        "broken-links": { importance: "high", paths: ["/broken-both", "/kept", "/limit-then"] },
      },
      "coverage.example",
      ["/reached-then"],
    );
    const diff = await comparison.diff(userId, newer.id);
    expect(diff?.from?.id).toBe(older.id);
    expect(diff?.site_issues).toHaveLength(1);
    expect(diff?.site_issues[0]).toMatchObject({
      check: "broken-links",
      new_count: 1,
      resolved_count: 1,
      coverage: { newly_checked: 1, no_longer_checked: 1 },
    });
    expect(diff?.site_issues[0]?.new.map((item) => item.url)).toEqual([url("/kept")]);
    expect(diff?.site_issues[0]?.resolved.map((item) => item.url)).toEqual([url("/broken-before")]);
    expect(diff?.coverage).toEqual({ newly_checked: 1, no_longer_checked: 1 });
    expect(diff?.regressions).toEqual({ high: 1, medium: 0, low: 0 });
    // Each crawl left out at its limit a page the other reached: neither added nor removed.
    expect(diff?.pages.added).toEqual([]);
    expect(diff?.pages.removed).toEqual([]);
  });

  it("resolves a link finding whose linking pages the later crawl reached without coming upon its target", async () => {
    const fingerprinted = (paths: string[], check: string, sources: string[], links = sources.length) =>
      paths.map((path) => ({
        url: url(path),
        fingerprint: `${check} ${path}`,
        links,
        sources: sources.map(url),
      }));
    const older = await runningCrawl(stores, userId, { project: "links.example" });
    const newer = await runningCrawl(stores, userId, { project: "links.example" });
    const db = database.store.db;
    for (const [row, list] of [
      [older, ["/", "/a", "/gone", "/gone-many", "/gone-unreached"]],
      [newer, ["/", "/a"]],
    ] as const) {
      await db
        .insertInto("crawl_pages")
        .values(
          list.map((path) => ({
            crawl_id: row.id,
            url: url(path),
            depth: 1,
            state: "done" as const,
            status_code: path.startsWith("/gone") ? 404 : 200,
            excluded: null,
            result: path.startsWith("/gone") ? null : "good",
          })),
        )
        .execute();
    }
    await stores.site.saveIssues(older.id, [
      {
        check: "broken-links",
        category: "seo",
        importance: "high",
        title: "Broken links",
        message: "",
        count: 3,
        items: [],
        truncated: 0,
        findings: [
          ...fingerprinted(["/gone"], "broken-links", ["/a"]),
          // More linking pages than listed: whether the others still link there is unknown.
          ...fingerprinted(["/gone-many"], "broken-links", ["/a"], 7),
          // A linking page the later crawl did not reach.
          ...fingerprinted(["/gone-unreached"], "broken-links", ["/elsewhere"]),
        ],
      },
    ]);
    await stores.crawls.endRunning(older.id, {
      status: "complete",
      finished_at: "2026-04-01T00:00:00.000Z",
      score: 80,
    });
    await stores.crawls.endRunning(newer.id, {
      status: "complete",
      finished_at: "2026-04-02T00:00:00.000Z",
      score: 80,
    });
    const diff = await comparison.diff(userId, newer.id);
    expect(diff?.site_issues[0]).toMatchObject({
      check: "broken-links",
      resolved_count: 1,
      coverage: { newly_checked: 0, no_longer_checked: 2 },
    });
    expect(diff?.site_issues[0]?.resolved.map((item) => item.url)).toEqual([url("/gone")]);
    // A URL the later crawl never came upon at all was removed from what it reached.
    expect(diff?.pages.removed).toEqual([url("/gone"), url("/gone-many"), url("/gone-unreached")]);
  });

  it("refuses a from that is not another complete crawl of the project, and a crawl not complete", async () => {
    const first = await crawl("2026-02-01T00:00:00.000Z", {}, {}, "third.example");
    const second = await crawl("2026-02-02T00:00:00.000Z", {}, {}, "third.example");
    const elsewhere = await crawl("2026-02-01T00:00:00.000Z", {}, {}, "fourth.example");
    const running = await runningCrawl(stores, userId, { project: "third.example" });
    expect((await comparison.diff(userId, second.id, first.id))?.from?.id).toBe(first.id);
    expect((await comparison.diff(userId, first.id))?.from).toBeNull();
    for (const from of [second.id, elsewhere.id, running.id, 999_999]) {
      await expect(comparison.diff(userId, second.id, from)).rejects.toBeInstanceOf(ValidationFailed);
    }
    await expect(comparison.diff(userId, running.id)).rejects.toBeInstanceOf(CrawlNotComplete);
    const stranger = await crawlOwner(database.store);
    expect(await comparison.diff(stranger, second.id)).toBeUndefined();
    await expect(comparison.diff(stranger, second.id, first.id)).resolves.toBeUndefined();
  });
});
