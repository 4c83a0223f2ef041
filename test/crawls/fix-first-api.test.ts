/**
 * "Fix first" through the API on both databases: page checks and site issues in one ranking by importance weight
 * × pages affected. On a site of five pages served over plain HTTP that all link to a missing page, the broken
 * link (a site issue naming six pages: the target and its five linking pages) outranks `https` (a page check of
 * the same importance failing on the five pages), which outranks the images without alt text on two pages; the
 * list is the API's list envelope, paged; another user's crawl is a 404.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, databaseKinds, startApi, type TestApi } from "../helpers/api.js";
import { eventually } from "../helpers/job-queues.js";
import { type LocalServer, startServer } from "../helpers/local-server.js";

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><title>${title} of the bicycle shop</title><meta name="viewport" content="width=device-width"></head><body><h1>${title}</h1>${body}</body></html>`;

const html = (text: string) => (_request: IncomingMessage, response: ServerResponse) => {
  response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
  response.end(text);
};

const noAlt = '<img src="/i.png" width="1" height="1">';
const site = {
  "/": html(
    page(
      "Home",
      '<a href="/p/1">One</a> <a href="/p/2">Two</a> <a href="/p/3">Three</a> <a href="/p/4">Four</a> <a href="/missing">Gone</a>',
    ),
  ),
  "/p/1": html(page("Page one", `${noAlt}<a href="/">Home</a> <a href="/missing">Gone</a>`)),
  "/p/2": html(page("Page two", `${noAlt}<a href="/">Home</a> <a href="/missing">Gone</a>`)),
  "/p/3": html(page("Page three", '<a href="/">Home</a> <a href="/missing">Gone</a>')),
  "/p/4": html(page("Page four", '<a href="/">Home</a> <a href="/missing">Gone</a>')),
};

type Fix = {
  object: string;
  kind: string;
  check: string;
  title: string;
  importance: string;
  pages: number;
  priority: number;
  how_to_fix: string;
  templates: Array<{ pattern: string; pages: number }>;
};

describe.each(databaseKinds)("fix first on %s", (kind) => {
  let api: TestApi;
  let server: LocalServer;
  let key: string;
  let crawlId: number;

  beforeAll(async () => {
    server = await startServer(site);
    api = await startApi(kind, { PAGEGRADE_CRAWL_DELAY_MS: "0" });
    key = await api.newUser();
    const created = await call(api, "POST", "/api/v1/crawls", {
      key,
      json: { url: `${server.url}/`, sitemaps: 0 },
    });
    expect(created.statusCode, created.body).toBe(202);
    crawlId = created.json().data.id;
    await eventually(
      async () =>
        (await call(api, "GET", `/api/v1/crawls/${crawlId}`, { key })).json().data.status === "complete",
      "the crawl to complete",
      60_000,
    );
  }, 90_000);
  afterAll(async () => {
    await api.close();
    await server.close();
  });

  it("ranks a site issue above a page check of the same importance when it touches more pages", async () => {
    const response = await call(api, "GET", `/api/v1/crawls/${crawlId}/fix-first?per_page=100`, { key });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    const fixes = body.data as Fix[];
    expect(body.meta.total).toBe(fixes.length);
    const at = (check: string) => fixes.findIndex((fix) => fix.check === check);
    const broken = fixes[at("broken-links")] as Fix;
    expect(broken).toMatchObject({
      object: "fix",
      kind: "site_issue",
      title: "Broken links",
      importance: "high",
      pages: 6,
      priority: 60,
    });
    expect(broken.how_to_fix.length).toBeGreaterThan(0);
    expect(broken.templates).toEqual([
      { pattern: "/p/*", pages: 4 },
      { pattern: "/", pages: 1 },
      { pattern: "/missing", pages: 1 },
    ]);
    expect(fixes[at("https")]).toMatchObject({
      kind: "page_check",
      importance: "high",
      pages: 5,
      priority: 50,
    });
    expect(fixes[at("image-alt")]).toMatchObject({
      kind: "page_check",
      importance: "high",
      pages: 2,
      priority: 20,
    });
    expect(at("broken-links")).toBeLessThan(at("https"));
    expect(at("https")).toBeLessThan(at("image-alt"));
    // Best first throughout.
    const priorities = fixes.map((fix) => fix.priority);
    expect(priorities).toEqual([...priorities].sort((a, b) => b - a));
    expect(fixes[0]?.priority).toBe(Math.max(...priorities));

    const second = await call(api, "GET", `/api/v1/crawls/${crawlId}/fix-first?per_page=10&page=2`, { key });
    expect(second.statusCode).toBe(200);
    expect((second.json().data as Fix[]).map((fix) => fix.check)).toEqual(
      fixes.slice(10, 20).map((fix) => fix.check),
    );
    const stranger = await api.newUser();
    expect(
      (await call(api, "GET", `/api/v1/crawls/${crawlId}/fix-first`, { key: stranger })).statusCode,
    ).toBe(404);
  });
});
