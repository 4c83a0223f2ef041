/**
 * The site gate's record of a crawl (`pagegrade crawl --json`) and the API agree on the crawl's page checks rolled
 * up: one crawl of a site served from 127.0.0.1, made through the API on SQLite, read back both ways.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { siteSnapshot } from "../../src/cli/gate/site-gate-run.js";
import type { CrawlRow } from "../../src/crawls/crawl-store.js";
import { openCrawlStores } from "../../src/crawls/crawl-stores.js";
import { call, startApi, type TestApi } from "../helpers/api.js";
import { eventually } from "../helpers/job-queues.js";
import { type LocalServer, startServer } from "../helpers/local-server.js";

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><title>${title}</title></head><body><h1>${title}</h1>${body}</body></html>`;
const html = (text: string) => (_request: IncomingMessage, response: ServerResponse) => {
  response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
  response.end(text);
};

/** Images without alt text on the blog, a missing viewport everywhere, a broken link. */
const site = {
  "/": html(page("Home", '<a href="/blog/1">One</a> <a href="/blog/2">Two</a> <a href="/shop">Shop</a>')),
  "/blog/1": html(page("One", '<img src="/i.png" width="1" height="1"><a href="/missing">Old</a>')),
  "/blog/2": html(page("Two", '<img src="/i.png" width="1" height="1"><a href="/">Home</a>')),
  "/shop": html(page("Shop", '<a href="/">Home</a>')),
};

describe("the site gate's roll-up", () => {
  let api: TestApi;
  let server: LocalServer;

  beforeAll(async () => {
    server = await startServer(site);
    api = await startApi("sqlite", { PAGEGRADE_CRAWL_DELAY_MS: "0" });
  });
  afterAll(async () => {
    await api.close();
    await server.close();
  });

  it("is the API's roll-up of the same crawl, row for row", async () => {
    const key = await api.newUser();
    const created = await call(api, "POST", "/api/v1/crawls", {
      key,
      json: { url: `${server.url}/`, sitemaps: 0 },
    });
    const id: number = created.json().data.id;
    await eventually(
      async () => (await call(api, "GET", `/api/v1/crawls/${id}`, { key })).json().data.status === "complete",
      "the crawl to complete",
      30_000,
    );
    const fromApi = (await call(api, "GET", `/api/v1/crawls/${id}/checks?per_page=100`, { key })).json().data;
    expect(fromApi.length).toBeGreaterThan(3);

    const stores = openCrawlStores(api.database.store);
    const crawl = (await stores.crawls.find(
      (
        await api.database.store.db.selectFrom("crawls").select("user_id").executeTakeFirstOrThrow()
      ).user_id,
      id,
    )) as CrawlRow;
    const saved = await siteSnapshot(stores, crawl);
    expect(saved.checks).toEqual(fromApi.map(({ object: _, ...row }: Record<string, unknown>) => row));
    expect(saved.checks.find((row) => row.check === "image-alt")).toMatchObject({
      fail: 2,
      priority: 20,
      templates: [{ pattern: "/blog/*", pages: 2 }],
    });
  });
});
