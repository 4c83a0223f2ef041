/**
 * The byte bounds of docs/api.md, "Response sizes", held by a real crawl of a hostile site through the API: a
 * page whose title is 800,000 quotes and backslashes (2 bytes each in JSON), whose extraction rule matches 12
 * values of 600 control characters (6 bytes each), whose canonical and links name URLs of 5,000 characters,
 * and a redirect to one. Each item of the pages and links lists stays within its documented worst case, and no
 * URL the crawl found is longer than 4,096 characters. Before these bounds the title alone made a pages item of 1.6 MB.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { maxCrawlUrlLength } from "../../src/analysis/crawl-url.js";
import { maxResultTextLength } from "../../src/analysis/result-bounds.js";
import { call, startApi, type TestApi } from "../helpers/api.js";
import { crawlTestSettings, endedCrawl, testPage } from "../helpers/crawl-api.js";
import { html, type LocalServer, redirect, startServer } from "../helpers/local-server.js";

/** docs/api.md, "Response sizes": the worst item of each list, in bytes. */
const worstPageItem = 745_626;
const worstLinkItem = 27_324;

const escaped = (length: number) => "\u0001".repeat(length);
const longPath = `/${"x".repeat(5000)}`;

function hostileSite() {
  const values = Array.from({ length: 12 }, () => `<p class="v">${escaped(600)}</p>`).join("");
  const head = `<title>${'"\\'.repeat(400_000)}</title><link rel="canonical" href="${longPath}">`;
  return {
    "/": html(
      `<!doctype html><html lang="en"><head>${head}</head><body><h1>Hostile</h1>${values}
       <a href="${longPath}">too long</a><a href="/moved">moved</a><a href="/plain">plain</a></body></html>`,
    ),
    "/moved": redirect(longPath),
    "/plain": html(testPage("Plain", "<p>Nothing odd here.</p>")),
  };
}

describe("response sizes of a crawl of a hostile site", () => {
  let api: TestApi;
  let server: LocalServer;
  let key: string;
  let crawlId: number;

  beforeAll(async () => {
    server = await startServer(hostileSite());
    api = await startApi("sqlite", crawlTestSettings);
    key = await api.newUser();
    const created = await call(api, "POST", "/api/v1/crawls", {
      key,
      json: { url: `${server.url}/`, sitemaps: 0, extract: [{ name: "v", selector: ".v" }] },
    });
    expect(created.statusCode, created.body).toBe(202);
    crawlId = (await endedCrawl(api, key, created.json().data.id, 60_000)).id;
  }, 90_000);
  afterAll(async () => {
    await api?.close();
    await server?.close();
  });

  it("keeps every item of the pages list within its documented worst case", async () => {
    const answer = await call(api, "GET", `/api/v1/crawls/${crawlId}/pages?per_page=100`, { key });
    expect(answer.statusCode).toBe(200);
    const items = answer.json().data as Array<Record<string, unknown> & { url: string }>;
    expect(items.map((item) => item.url).sort()).toEqual([
      `${server.url}/`,
      `${server.url}/moved`,
      `${server.url}/plain`,
    ]);
    const start: Record<string, unknown> = items.find((item) => item.url === `${server.url}/`) ?? {};
    expect((start.title as string).length).toBe(maxResultTextLength);
    expect(start.canonical).toBeNull();
    expect((start.extracted as { v: string[] }).v).toHaveLength(10);
    expect(items.find((item) => item.url === `${server.url}/moved`)?.redirect_to).toBeNull();
    for (const item of items)
      expect(Buffer.byteLength(JSON.stringify(item))).toBeLessThanOrEqual(worstPageItem);
  });

  it("keeps every item of the links list within its documented worst case, no target past 4,096 characters", async () => {
    const answer = await call(api, "GET", `/api/v1/crawls/${crawlId}/links?per_page=100`, { key });
    expect(answer.statusCode).toBe(200);
    const items = answer.json().data as Array<{ target: string }>;
    expect(items.map((item) => item.target).sort()).toEqual([`${server.url}/moved`, `${server.url}/plain`]);
    for (const item of items) {
      expect(item.target.length).toBeLessThanOrEqual(maxCrawlUrlLength);
      expect(Buffer.byteLength(JSON.stringify(item))).toBeLessThanOrEqual(worstLinkItem);
    }
  });
});
