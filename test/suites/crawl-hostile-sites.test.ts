/**
 * Crawls of hostile sites, through the API of a running service on real HTTP servers on 127.0.0.1: a calendar
 * trap (endless generated links) stops at max_pages; a redirect loop is recorded hop by hop and reported; a sitemap bomb (gzip
 * expanding far past the cap, and an endless sitemap index) and a robots.txt bomb cost bounded time and are cut
 * off; a host that dies mid-crawl fails its remaining pages and the crawl still completes; a 429 storm slows the
 * crawl down as Retry-After asks and every page is analysed in the end. Each crawl ends `complete`.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, startApi, type TestApi } from "../helpers/api.js";
import { eventually } from "../helpers/job-queues.js";
import { type LocalServer, startServer } from "../helpers/local-server.js";

const page = (title: string, body = "") =>
  `<!doctype html><html lang="en"><head><title>${title}</title></head><body><h1>${title}</h1>${body}</body></html>`;
const send = (response: ServerResponse, body: string, status = 200, headers: Record<string, string> = {}) =>
  response.writeHead(status, { "content-type": "text/html; charset=utf-8", ...headers }).end(body);

describe("crawls of hostile sites", () => {
  let api: TestApi;
  let key: string;
  const servers: LocalServer[] = [];

  beforeAll(async () => {
    api = await startApi("sqlite", { PAGEGRADE_CRAWL_DELAY_MS: "0", PAGEGRADE_CRAWLS_PER_USER: "10" });
    key = await api.newUser();
  });
  afterAll(async () => {
    await api.close();
    await Promise.all(servers.map((server) => server.close()));
  });

  async function serve(
    routes: Parameters<typeof startServer>[0],
    options: Parameters<typeof startServer>[1] = {},
    host?: string,
  ) {
    const server = await startServer(routes, { ...options, ...(host ? { host } : {}) });
    servers.push(server);
    return server;
  }

  async function crawl(json: Record<string, unknown>, timeoutMs = 30_000) {
    const created = await call(api, "POST", "/api/v1/crawls", { key, json });
    expect(created.statusCode).toBe(202);
    const id = created.json().data.id;
    let crawlObject: Record<string, unknown> & { status: string } = { status: "queued" };
    await eventually(
      async () => {
        crawlObject = (await call(api, "GET", `/api/v1/crawls/${id}`, { key })).json().data;
        return !["queued", "running"].includes(crawlObject.status);
      },
      "the crawl to end",
      timeoutMs,
    );
    const pages = (await call(api, "GET", `/api/v1/crawls/${id}/pages?per_page=100`, { key })).json()
      .data as Array<Record<string, unknown> & { url: string }>;
    return {
      crawl: crawlObject as Record<string, unknown> & { status: string; pages: Record<string, number> },
      pages,
    };
  }

  it("stops a calendar trap at max_pages", async () => {
    const site = await serve(
      {},
      {
        fallback: (request: IncomingMessage, response: ServerResponse) => {
          const day = Number(new URL(request.url ?? "/", "http://x").searchParams.get("day") ?? 0);
          send(
            response,
            page(
              `Day ${day}`,
              `<a href="/calendar?day=${day + 1}">Next day</a> <a href="/calendar?day=${day + 2}">Day after</a>`,
            ),
          );
        },
      },
    );
    const { crawl: done, pages } = await crawl({
      url: `${site.url}/calendar?day=0`,
      max_pages: 25,
      max_depth: 50,
      sitemaps: 0,
    });
    expect(done.status).toBe("complete");
    expect(done.pages.analysed).toBe(25);
    expect(site.requests.filter((path) => path.startsWith("/calendar")).length).toBeLessThanOrEqual(25 * 2);
    expect(pages.some((entry) => entry.excluded === "limit")).toBe(true);
  });

  it("records each hop of a redirect loop and reports the loop, analysing the rest", async () => {
    const site = await serve({
      "/": (_request, response) =>
        send(response, page("Home", '<a href="/loop-a">Loop</a> <a href="/fine">Fine</a>')),
      "/fine": (_request, response) => send(response, page("Fine")),
      "/loop-a": (_request, response) => response.writeHead(302, { location: "/loop-b" }).end(),
      "/loop-b": (_request, response) => response.writeHead(302, { location: "/loop-a" }).end(),
    });
    const { crawl: done, pages } = await crawl({ url: `${site.url}/`, sitemaps: 0 });
    expect(done.status).toBe("complete");
    expect(done.pages.analysed).toBe(2);
    for (const [from, to] of [
      ["/loop-a", "/loop-b"],
      ["/loop-b", "/loop-a"],
    ]) {
      expect(pages.find((entry) => entry.url === `${site.url}${from}`)).toMatchObject({
        status_code: 302,
        redirect_to: `${site.url}${to}`,
        report_id: null,
      });
    }
    const issues = (await call(api, "GET", `/api/v1/crawls/${done.id}/issues`, { key })).json()
      .data as Array<{
      check: string;
    }>;
    expect(issues.map((issue) => issue.check)).toContain("redirect-chains");
  });

  it("cuts off sitemap and robots.txt bombs and still crawls the site", async () => {
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024, " ")); // 64 MB of spaces in about 64 KB
    let indexes = 0;
    const site = await serve(
      {
        "/": (_request, response) => send(response, page("Home", '<a href="/a">A</a>')),
        "/a": (_request, response) => send(response, page("A")),
        "/robots.txt": (_request, response) => {
          response.writeHead(200, { "content-type": "text/plain" });
          // 5 MB of rules, far past the 500 KB read; the Sitemap lines come first.
          response.write(`Sitemap: ${site.url}/bomb.xml.gz\nSitemap: ${site.url}/index-0.xml\n`);
          response.end(`User-agent: *\n${"Disallow: /nothing-here\n".repeat(220_000)}`);
        },
        "/bomb.xml.gz": (_request, response) =>
          response.writeHead(200, { "content-type": "application/gzip" }).end(bomb),
      },
      {
        fallback: (request, response) => {
          const match = /^\/index-(\d+)\.xml$/.exec(request.url ?? "");
          if (!match) return send(response, "missing", 404);
          indexes++;
          const n = Number(match[1]);
          response
            .writeHead(200, { "content-type": "application/xml" })
            .end(
              `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${site.url}/index-${n + 1}.xml</loc></sitemap><sitemap><loc>${site.url}/index-${n + 1000}.xml</loc></sitemap></sitemapindex>`,
            );
        },
      },
    );
    const started = Date.now();
    const { crawl: done } = await crawl({ url: `${site.url}/` });
    expect(done.status).toBe("complete");
    expect(done.pages.analysed).toBe(2);
    expect(indexes).toBeLessThanOrEqual(20);
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it("completes when the host dies mid-crawl, its remaining pages failed", async () => {
    let served = 0;
    const links = Array.from({ length: 12 }, (_, i) => `<a href="/p${i}">Page ${i}</a>`).join(" ");
    const site = await serve(
      {},
      {
        fallback: (request, response) => {
          served++;
          if (served > 5) {
            request.socket.destroy(); // the host is gone: connections reset from here on
            return;
          }
          send(response, page(`Page ${request.url}`, links));
        },
      },
    );
    const { crawl: done, pages } = await crawl({ url: `${site.url}/`, sitemaps: 0 });
    expect(done.status).toBe("complete");
    expect(done.pages.analysed).toBeGreaterThanOrEqual(1);
    expect(done.pages.failed).toBeGreaterThanOrEqual(5);
    expect(pages.filter((entry) => entry.error === "connection-failed").length).toBeGreaterThanOrEqual(5);
  });

  it("slows down through a 429 storm as Retry-After asks, and analyses every page in the end", async () => {
    const refused = new Set<string>();
    const site = await serve(
      {},
      {
        fallback: (request, response) => {
          const path = request.url ?? "/";
          // Every page is refused once; the start page asks for two seconds, the others say nothing.
          if (!refused.has(path)) {
            refused.add(path);
            return send(response, "slow down", 429, path === "/" ? { "retry-after": "2" } : {});
          }
          send(response, page(`Page ${path}`, '<a href="/one">One</a> <a href="/two">Two</a>'));
        },
      },
    );
    const started = Date.now();
    const { crawl: done } = await crawl({ url: `${site.url}/`, sitemaps: 0 });
    expect(done.status).toBe("complete");
    expect(done.pages).toMatchObject({ analysed: 3, failed: 0 });
    // Two seconds for the start page as asked, then a second's pause (the first back-off step) per other page.
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_000 + 1_000);
  });

  it("reaches no inside address through redirects, sitemaps or links, with the guard on", async () => {
    const canary = await serve(
      {},
      { fallback: (_request, response) => send(response, page("Canary")) },
      "127.0.0.2",
    );
    const inside = `http://127.0.0.2:${canary.port}`;
    const site = await serve({
      "/": (_request, response) =>
        send(
          response,
          page("Home", `<a href="/go">Go</a> <a href="${inside}/linked">Inside</a> <a href="/fine">Fine</a>`),
        ),
      "/fine": (_request, response) => send(response, page("Fine")),
      "/go": (_request, response) => response.writeHead(302, { location: `${inside}/redirected` }).end(),
      "/robots.txt": (_request, response) =>
        response.writeHead(200, { "content-type": "text/plain" }).end(`Sitemap: ${inside}/sitemap.xml\n`),
    });
    const guarded = await startApi("sqlite", {
      PAGEGRADE_ALLOW_PRIVATE_NETWORKS: "0",
      PAGEGRADE_ALLOWED_ADDRESSES: "127.0.0.1",
      PAGEGRADE_CRAWL_DELAY_MS: "0",
    });
    try {
      const user = await guarded.newUser();
      const created = await call(guarded, "POST", "/api/v1/crawls", {
        key: user,
        json: { url: `${site.url}/` },
      });
      const id = created.json().data.id;
      await eventually(
        async () =>
          (await call(guarded, "GET", `/api/v1/crawls/${id}`, { key: user })).json().data.status ===
          "complete",
        "the crawl",
        20_000,
      );
      const pages = (await call(guarded, "GET", `/api/v1/crawls/${id}/pages`, { key: user })).json()
        .data as Array<Record<string, unknown> & { url: string }>;
      // The redirect is recorded as a hop to another host, which a crawl never fetches.
      expect(pages.find((entry) => entry.url.endsWith("/go"))).toMatchObject({
        status_code: 302,
        redirect_to: `${inside}/redirected`,
        report_id: null,
      });
      expect(pages.find((entry) => entry.url.endsWith("/fine"))?.report_id).toEqual(expect.any(Number));
      expect(pages.some((entry) => entry.url.startsWith(inside))).toBe(false);
      expect(canary.connections).toBe(0);
    } finally {
      await guarded.close();
    }
  });
});
