/**
 * A crawl's site issues keep each finding's URL list bounded where they are listed (src/crawls/finding-url-lists.ts;
 * docs/api.md, "Response sizes"): a group of 25 pages with one title lists its first 20 with `page_count` and
 * `pages_url`, a redirect chain of 16 hops its first 11 URLs with `hop_count` and `chain_url`; the whole of each
 * is paged through the API and the web page, and a small group is answered exactly as stored. On SQLite and
 * PostgreSQL. Before the bound, a group listed its every page (up to the crawl's `max_pages`), a chain every hop.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listedChainUrls, listedGroupPages } from "../../src/crawls/finding-url-lists.js";
import { call, databaseKinds, startApi, type TestApi } from "../helpers/api.js";
import { crawlTestSettings, endedCrawl, signedInClient, testPage } from "../helpers/crawl-api.js";
import { type Handler, html, type LocalServer, redirect, startServer } from "../helpers/local-server.js";
import type { WebClient } from "../helpers/web-client.js";

const groupSize = 25;
const hops = 16;

/** The group's pages share one title once `grouped`; before, each has its own (the earlier crawl compared with). */
let grouped = false;

function site() {
  const routes: Record<string, Handler> = {};
  const links = Array.from({ length: groupSize }, (_, index) => `<a href="/same/${index}">${index}</a>`).join(
    "",
  );
  routes["/"] = html(
    testPage(
      "Home",
      `<p>Start here.</p>${links}<a href="/hop/0">chain</a><a href="/twin/a">a</a><a href="/twin/b">b</a>`,
    ),
  );
  for (let index = 0; index < groupSize; index++)
    routes[`/same/${index}`] = (request, response) =>
      html(testPage(grouped ? "One title for all" : `Page ${index}`, `<p>Page ${index} of the group.</p>`))(
        request,
        response,
      );
  for (let index = 0; index < hops; index++)
    routes[`/hop/${index}`] = redirect(index === hops - 1 ? "/end" : `/hop/${index + 1}`);
  routes["/end"] = html(testPage("The end", "<p>Where the chain ends.</p>"));
  for (const twin of ["a", "b"])
    routes[`/twin/${twin}`] = html(testPage("Twin title", `<p>Twin ${twin}.</p>`));
  return routes;
}

type Item = Record<string, unknown> & { fingerprint: string };
type Issue = { check: string; items: Item[] };

describe.each(databaseKinds)("site issue sizes on %s", (kind) => {
  let api: TestApi;
  let server: LocalServer;
  let client: WebClient;
  let key: string;
  let earlierId: number;
  let crawlId: number;
  let issues: Issue[];

  beforeAll(async () => {
    server = await startServer(site());
    api = await startApi(kind, crawlTestSettings);
    client = await signedInClient(api.app, `sizes-${kind}@example.com`);
    key = await client.createApiKey();
    const crawled = async () => {
      const created = await call(api, "POST", "/api/v1/crawls", {
        key,
        json: { url: `${server.url}/`, sitemaps: 0 },
      });
      expect(created.statusCode, created.body).toBe(202);
      return (await endedCrawl(api, key, created.json().data.id, 90_000)).id as number;
    };
    grouped = false;
    earlierId = await crawled();
    grouped = true;
    crawlId = await crawled();
    const answer = await call(api, "GET", `/api/v1/crawls/${crawlId}/issues?per_page=100`, { key });
    expect(answer.statusCode).toBe(200);
    issues = answer.json().data;
  }, 120_000);
  afterAll(async () => {
    await api?.close();
    await server?.close();
  });

  const itemOf = (check: string, where: (item: Item) => boolean) =>
    issues.find((issue) => issue.check === check)?.items.find(where) as Item;
  const allPages = (path: string) =>
    Array.from({ length: groupSize }, (_, index) => `${server.url}${path}${index}`);

  it("lists a large group's first pages with its count and the address of the whole", async () => {
    const group = itemOf("duplicate-title", (item) => item.title === "One title for all");
    expect(group.pages).toHaveLength(listedGroupPages);
    expect(group.page_count).toBe(groupSize);
    expect(group.pages_url).toBe(
      `/api/v1/crawls/${crawlId}/issues/duplicate-title/findings/${group.fingerprint}/urls`,
    );
    const seen: string[] = [];
    for (let page = 1; page <= 3; page++) {
      const answer = await call(api, "GET", `${group.pages_url}?per_page=10&page=${page}`, { key });
      expect(answer.statusCode).toBe(200);
      const body = answer.json();
      expect(body.meta).toMatchObject({ total: groupSize, last_page: 3, per_page: 10 });
      expect(body.data.every((entry: { object: string }) => entry.object === "finding_url")).toBe(true);
      seen.push(...body.data.map((entry: { url: string }) => entry.url));
    }
    expect(seen.slice(0, listedGroupPages)).toEqual(group.pages);
    expect([...seen].sort()).toEqual(allPages("/same/").sort());
  });

  it("lists a long redirect chain's first URLs with its hop count and the address of the whole", async () => {
    const chain = itemOf("redirect-chains", (item) => item.url === `${server.url}/hop/0`);
    expect(chain.chain).toHaveLength(listedChainUrls);
    expect(chain.hop_count).toBe(hops);
    const answer = await call(api, "GET", `${chain.chain_url}?per_page=100`, { key });
    expect(answer.statusCode).toBe(200);
    const urls = answer.json().data.map((entry: { url: string }) => entry.url);
    expect(urls).toHaveLength(hops + 1);
    expect(urls.slice(0, listedChainUrls)).toEqual(chain.chain);
    expect(urls.at(-1)).toBe(`${server.url}/end`);
  });

  it("lists a new large group in the comparison the same way, linking to the later crawl's whole list", async () => {
    const answer = await call(api, "GET", `/api/v1/crawls/${crawlId}/diff?from=${earlierId}`, { key });
    expect(answer.statusCode).toBe(200);
    const titles = answer
      .json()
      .data.site_issues.find((issue: { check: string }) => issue.check === "duplicate-title");
    const group = titles.new.find((item: Item) => item.title === "One title for all") as Item;
    const listed = itemOf("duplicate-title", (item) => item.title === "One title for all");
    expect(group).toEqual(listed);
    const comparison = await client.get(`/crawls/${crawlId}/diff?from=${earlierId}`);
    expect(comparison.statusCode).toBe(200);
    expect(comparison.body).toContain(`page count: ${groupSize}`);
    expect(comparison.body).not.toContain("pages url");
    // The web page links the cut group to its whole list on the web, not to the API's.
    expect(comparison.body).toContain(
      `<a href="/crawls/${crawlId}/issues/duplicate-title/findings/${group.fingerprint}">All ${groupSize} pages of this group</a>`,
    );
  });

  it("answers a small group exactly as stored", () => {
    const twins = itemOf("duplicate-title", (item) => item.title === "Twin title");
    expect(Object.keys(twins).sort()).toEqual(["fingerprint", "pages", "title"]);
    expect(twins.pages).toHaveLength(2);
  });

  it("answers 404 for an unknown finding, another check's, a malformed fingerprint, or another user's crawl", async () => {
    const group = itemOf("duplicate-title", (item) => item.title === "One title for all");
    const base = `/api/v1/crawls/${crawlId}/issues`;
    for (const path of [
      `${base}/duplicate-title/findings/${"0".repeat(32)}/urls`,
      `${base}/redirect-chains/findings/${group.fingerprint}/urls`,
      `${base}/duplicate-title/findings/nothex/urls`,
    ])
      expect((await call(api, "GET", path, { key })).statusCode).toBe(404);
    const other = await api.newUser();
    expect((await call(api, "GET", group.pages_url as string, { key: other })).statusCode).toBe(404);
  });

  it("shows the first pages on the crawl page and pages through the whole group on its own page", async () => {
    const group = itemOf("duplicate-title", (item) => item.title === "One title for all");
    const crawlPage = await client.get(`/crawls/${crawlId}?open=duplicate-title`);
    expect(crawlPage.body).toContain(`All ${groupSize} pages of this group`);
    const webPath = `/crawls/${crawlId}/issues/duplicate-title/findings/${group.fingerprint}`;
    expect(crawlPage.body).toContain(`href="${webPath}"`);
    const first = await client.get(webPath);
    expect(first.statusCode).toBe(200);
    expect(first.body).toContain(`${groupSize} pages`);
    for (const url of allPages("/same/")) expect(first.body).toContain(url);
    expect((await client.get(`${webPath.slice(0, -1)}x`)).statusCode).toBe(404);
  });
});
