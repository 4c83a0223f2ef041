/**
 * A crawl's findings for people who act on them, through the API on both databases, on a site served from
 * 127.0.0.1 whose faults are known: the page checks rolled up (priority, URL patterns, order) and a check's
 * affected pages, the internal links with their targets' status and filters, the exports as CSV (the issues
 * one row per finding item with every linking page), the project with its trend; 422s naming the parameter and
 * another user's 404s.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, databaseKinds, startApi, type TestApi } from "../helpers/api.js";
import { eventually } from "../helpers/job-queues.js";
import { type LocalServer, startServer } from "../helpers/local-server.js";

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><title>${title}</title><meta name="viewport" content="width=device-width"></head><body><h1>${title}</h1>${body}</body></html>`;

const html = (text: string) => (_request: IncomingMessage, response: ServerResponse) => {
  response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
  response.end(text);
};

/** Three blog posts and a shop page have an image without alt text; two pages link to a missing one. */
const site = {
  "/": html(
    page(
      "Home",
      `<a href="/blog/1">Post one</a> <a href="/blog/2">Post two</a> <a href="/blog/3">Post three</a>
       <a href="/shop/a">Shop</a> <a href="/about">About us</a> <a href="/missing">Gone page</a>`,
    ),
  ),
  "/blog/1": html(page("Post one", '<img src="/i.png" width="1" height="1"><a href="/">Home</a>')),
  "/blog/2": html(page("Post two", '<img src="/i.png" width="1" height="1"><a href="/">Home</a>')),
  "/blog/3": html(page("Post three", '<img src="/i.png" width="1" height="1"><a href="/">Home</a>')),
  "/shop/a": html(page("Shop", '<img src="/i.png" width="1" height="1"><a href="/">Home</a>')),
  "/about": html(page("About", '<a href="/">Home</a> <a href="/missing">Old page</a>')),
};

describe.each(databaseKinds)("a crawl's findings on %s", (kind) => {
  let api: TestApi;
  let server: LocalServer;
  let key: string;
  let other: string;
  let crawlId: number;
  let base: string;

  beforeAll(async () => {
    server = await startServer(site);
    base = server.url;
    api = await startApi(kind, { PAGEGRADE_CRAWL_DELAY_MS: "0" });
    key = await api.newUser();
    other = await api.newUser();
    const created = await call(api, "POST", "/api/v1/crawls", {
      key,
      json: { url: `${base}/`, sitemaps: 0 },
    });
    crawlId = created.json().data.id;
    await eventually(
      async () =>
        (await call(api, "GET", `/api/v1/crawls/${crawlId}`, { key })).json().data.status === "complete",
      "the crawl to complete",
      30_000,
    );
  });
  afterAll(async () => {
    await api.close();
    await server.close();
  });

  const csv = async (url: string, as = key) => {
    const response = await api.app.inject({
      method: "GET",
      url,
      headers: { authorization: `Bearer ${as}`, accept: "text/csv" },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/csv; charset=utf-8");
    return response.body.split("\r\n").slice(0, -1);
  };

  it("rolls the page checks up by priority, with the URL patterns one fix clears", async () => {
    const response = await call(api, "GET", `/api/v1/crawls/${crawlId}/checks?per_page=100`, { key });
    expect(response.statusCode).toBe(200);
    const rows = response.json().data as Array<Record<string, unknown> & { priority: number; check: string }>;
    const imageAlt = rows.find((row) => row.check === "image-alt");
    expect(imageAlt).toEqual({
      object: "check_rollup",
      check: "image-alt",
      category: "seo",
      importance: "high",
      fail: 4,
      warn: 0,
      pages: 4,
      priority: 40,
      templates: [
        { pattern: "/blog/*", pages: 3 },
        { pattern: "/shop/*", pages: 1 },
      ],
    });
    const order = rows.map((row) => ({ priority: row.priority, check: row.check }));
    expect(order).toEqual([...order].sort((a, b) => b.priority - a.priority || (a.check < b.check ? -1 : 1)));
    const paged = (
      await call(api, "GET", `/api/v1/crawls/${crawlId}/checks?per_page=10&page=1`, { key })
    ).json();
    expect(paged.meta.total).toBe(rows.length);
    expect(paged.data.map((row: { check: string }) => row.check)).toEqual(
      rows.slice(0, 10).map((row) => row.check),
    );

    const lines = await csv(`/api/v1/crawls/${crawlId}/checks`);
    expect(lines[0]).toBe("check,category,importance,fail,warn,pages,priority,templates");
    expect(lines).toContain("image-alt,seo,high,4,0,4,40,/blog/*:3 /shop/*:1");
    expect(lines).toHaveLength(rows.length + 1);
  });

  it("lists a check's affected pages with their evidence, as JSON and CSV", async () => {
    const response = await call(api, "GET", `/api/v1/crawls/${crawlId}/checks/image-alt/pages`, { key });
    expect(response.statusCode).toBe(200);
    const pages = response.json().data as Array<{ url: string; items: unknown[]; report_id: number }>;
    expect(pages.map((entry) => entry.url).sort()).toEqual(
      ["/blog/1", "/blog/2", "/blog/3", "/shop/a"].map((path) => `${base}${path}`),
    );
    expect(pages[0]).toMatchObject({ object: "check_page", status: "fail", report_id: expect.any(Number) });
    expect(pages[0]?.items.length).toBeGreaterThan(0);

    const lines = await csv(`/api/v1/crawls/${crawlId}/checks/image-alt/pages`);
    expect(lines[0]).toBe("url,status,message,evidence");
    expect(lines).toHaveLength(5);
    expect(lines[1]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/blog\/1,fail,.+,"\{.*i\.png.*\}"$/);

    expect(
      (await call(api, "GET", `/api/v1/crawls/${crawlId}/checks/no-such-check/pages`, { key })).statusCode,
    ).toBe(404);
    const unaffected = await call(api, "GET", `/api/v1/crawls/${crawlId}/checks/doctype/pages`, { key });
    expect(unaffected.json()).toMatchObject({ data: [], meta: { total: 0 } });
  });

  it("answers who links to a page, completely, with filters, as JSON and CSV", async () => {
    const to = `${base}/missing`;
    const response = await call(api, "GET", `/api/v1/crawls/${crawlId}/links?to=${encodeURIComponent(to)}`, {
      key,
    });
    expect(response.json().data).toEqual([
      {
        object: "link",
        source: `${base}/`,
        target: to,
        anchor: "Gone page",
        nofollow: false,
        target_status: 404,
      },
      {
        object: "link",
        source: `${base}/about`,
        target: to,
        anchor: "Old page",
        nofollow: false,
        target_status: 404,
      },
    ]);
    const byStatus = (await call(api, "GET", `/api/v1/crawls/${crawlId}/links?status=404`, { key })).json();
    expect(byStatus.data.map((link: { source: string }) => link.source)).toEqual([
      `${base}/`,
      `${base}/about`,
    ]);
    const from = (
      await call(
        api,
        "GET",
        `/api/v1/crawls/${crawlId}/links?from=${encodeURIComponent(`${base}/`)}&per_page=100`,
        {
          key,
        },
      )
    ).json();
    expect(from.meta.total).toBe(6);
    expect(from.data.map((link: { target: string }) => link.target)).toEqual(
      [...from.data.map((link: { target: string }) => link.target)].sort(),
    );
    const all = (await call(api, "GET", `/api/v1/crawls/${crawlId}/links?per_page=100`, { key })).json();
    expect(all.meta.total).toBe(12);
    expect(
      (await call(api, "GET", `/api/v1/crawls/${crawlId}/links?status=error`, { key })).json().data,
    ).toEqual([]);

    const lines = await csv(`/api/v1/crawls/${crawlId}/links`);
    expect(lines[0]).toBe("source,target,anchor,nofollow,target_status");
    expect(lines).toHaveLength(13);
    expect(lines).toContain(`${base}/about,${to},Old page,false,404`);

    for (const query of ["status=abc", "status=99", "per_page=7", "page=0"]) {
      const refused = await call(api, "GET", `/api/v1/crawls/${crawlId}/links?${query}`, { key });
      expect(refused.statusCode).toBe(422);
      expect(Object.keys(refused.json().errors)).toEqual([query.split("=")[0]]);
    }
  });

  it("exports the site issues one row per finding item with every linking page", async () => {
    const lines = await csv(`/api/v1/crawls/${crawlId}/issues`);
    expect(lines[0]).toBe("check,importance,title,fingerprint,url,detail,sources");
    const broken = lines.filter((line) => line.startsWith("broken-links,"));
    expect(broken).toHaveLength(1);
    expect(broken[0]).toMatch(
      new RegExp(`^broken-links,high,Broken links,[^,]*,${base}/missing,status: 404,${base}/ ${base}/about$`),
    );
  });

  it("shows the project with its results, latest crawl and trend", async () => {
    const project = new URL(base).hostname;
    const response = await call(api, "GET", `/api/v1/projects/${project}`, { key });
    expect(response.statusCode).toBe(200);
    const data = response.json().data;
    expect(data).toMatchObject({ object: "project", project, reports: 6, score: expect.any(Number) });
    expect(data.results.good + data.results.decent + data.results.bad).toBe(6);
    expect(data.latest_crawl).toMatchObject({ id: crawlId, object: "crawl", status: "complete" });
    expect(data.trend).toEqual([
      {
        crawl_id: crawlId,
        finished_at: data.latest_crawl.finished_at,
        score: data.latest_crawl.score,
        issues: data.latest_crawl.issues,
        pages: { analysed: 6 },
      },
    ]);
    expect((await call(api, "GET", "/api/v1/projects/unknown.example", { key })).statusCode).toBe(404);
    expect((await call(api, "GET", `/api/v1/projects/${project}`, { key: other })).statusCode).toBe(404);
  });

  it("answers another user 404 on every route of the crawl, as for a crawl that does not exist", async () => {
    // The access seam (accounts/access.ts) serves the crawl routes and the findings routes: the same problem everywhere.
    for (const path of ["", "/pages", "/issues", "/events", "/checks", "/checks/image-alt/pages", "/links"]) {
      const response = await call(api, "GET", `/api/v1/crawls/${crawlId}${path}`, { key: other });
      expect(response.statusCode).toBe(404);
      const { request_id: _, instance, ...problem } = response.json();
      const missing = (await call(api, "GET", `/api/v1/crawls/999999${path}`, { key: other })).json();
      expect(instance).toBe(`/api/v1/crawls/${crawlId}${path}`);
      expect(problem).toEqual({ ...missing, request_id: undefined, instance: undefined });
    }
  });
});
