/**
 * A crawl's shared audit keeps each finding's URL list bounded as the signed-in issue lists do
 * (src/crawls/finding-url-lists.ts): a group of 30 pages with one title shows its first 20, how many more and the
 * count, and no link to the signed-in whole list its visitors cannot open; the audit's PDF lists the same. Before
 * the bound, the audit's issue page and PDF listed a group's every page (up to the crawl's `max_pages`).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CrawlIssueRow, CrawlRow } from "../../src/crawls/crawl-store.js";
import { listedGroupPages } from "../../src/crawls/finding-url-lists.js";
import type { Fix } from "../../src/crawls/fix-first.js";
import { auditPrintDocument } from "../../src/web/views/audit-print.js";
import { call, databaseKinds, startApi, type TestApi } from "../helpers/api.js";
import { crawlTestSettings, endedCrawl, signedInClient, testPage } from "../helpers/crawl-api.js";
import { type Handler, html, type LocalServer, startServer } from "../helpers/local-server.js";
import { WebClient } from "../helpers/web-client.js";

const groupSize = 30;

function site(): Record<string, Handler> {
  const links = Array.from({ length: groupSize }, (_, index) => `<a href="/same/${index}">${index}</a>`);
  const routes: Record<string, Handler> = {
    "/": html(testPage("Home", `<p>Start here.</p>${links.join("")}`)),
  };
  for (let index = 0; index < groupSize; index++)
    routes[`/same/${index}`] = html(testPage("One title for all", `<p>Page ${index} of the group.</p>`));
  return routes;
}

describe.each(databaseKinds)("a shared audit's issue lists on %s", (kind) => {
  let api: TestApi;
  let server: LocalServer;
  let crawlId: number;

  beforeAll(async () => {
    server = await startServer(site());
    api = await startApi(kind, crawlTestSettings);
    const owner = await signedInClient(api.app, `audit-sizes-${kind}@example.com`);
    const key = await owner.createApiKey();
    const created = await call(api, "POST", "/api/v1/crawls", {
      key,
      json: { url: `${server.url}/`, sitemaps: 0 },
    });
    expect(created.statusCode, created.body).toBe(202);
    crawlId = (await endedCrawl(api, key, created.json().data.id, 90_000)).id as number;
    const shared = await call(api, "PATCH", `/api/v1/crawls/${crawlId}`, { key, json: { privacy: 0 } });
    expect(shared.statusCode, shared.body).toBe(200);
  }, 120_000);
  afterAll(async () => {
    await api?.close();
    await server?.close();
  });

  it("shows a 30-page group's first 20 pages and its count, with no link to a signed-in page", async () => {
    const visitor = new WebClient(api.app, "10.0.0.9");
    const answer = await visitor.get(`/crawls/${crawlId}/audit/issues/duplicate-title`);
    expect(answer.statusCode, answer.body).toBe(200);
    const listed = [...answer.body.matchAll(/\/same\/(\d+)</g)].map((match) => match[1]);
    expect(listed).toHaveLength(listedGroupPages);
    expect(answer.body).toContain(`and ${groupSize - listedGroupPages} more (${groupSize} pages in all)`);
    expect(answer.body).not.toContain("/findings/");
    for (const [, target] of answer.body.matchAll(/href="([^"]*)"/g))
      expect(target?.startsWith(`/crawls/${crawlId}/audit`) || target?.startsWith("/assets/"), target).toBe(
        true,
      );
  });
});

describe("the audit's PDF document", () => {
  it("lists a 30-page group's first 20 pages and its count, with no link out", () => {
    const pages = Array.from({ length: groupSize }, (_, index) => `https://example.com/same/${index}`);
    const issue = {
      crawl_id: 7,
      check_id: "duplicate-title",
      category: "content",
      importance: "medium",
      title: "Duplicate titles",
      message: "Pages share a title.",
      count: 1,
      items: JSON.stringify([{ title: "One title for all", pages, fingerprint: "abc" }]),
      truncated: 0,
    } as unknown as CrawlIssueRow;
    const fix = {
      kind: "site_issue",
      check: "duplicate-title",
      title: "Duplicate titles",
      importance: "medium",
      pages: groupSize,
      priority: 1,
      how_to_fix: "",
      templates: [],
    } satisfies Fix;
    const crawl = {
      id: 7,
      project: "example",
      url: "https://example.com/",
      analysed: 31,
    } as unknown as CrawlRow;
    const document = auditPrintDocument(
      {
        crawl,
        trend: [],
        fixes: [fix],
        issues: [issue],
        changes: null,
        lists: [{ fix, list: { kind: "site_issue", issue } }],
        brand: { name: "pagegrade", logoUrl: null },
      },
      "",
    ).toString();
    expect(document).toContain("https://example.com/same/19<");
    expect(document).not.toContain("https://example.com/same/20<");
    expect(document).toContain(`and ${groupSize - listedGroupPages} more (${groupSize} pages in all)`);
    expect(document).not.toContain("/findings/");
  });
});
