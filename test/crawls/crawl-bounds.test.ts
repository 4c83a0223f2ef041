/**
 * What a crawl stores and how it ends, through the API on both databases, against crafted sites on 127.0.0.1:
 * a site whose every page links to 5,000 new URLs stays within the storage bounds and counts what it left out
 * (the link checks saying so); a start page answering 404 fails the crawl with its reason; links found at
 * `max_depth` are listed `excluded: limit` and never fetched; a sitemap URL is not fetched while a page with a
 * depth is, so what it leads to gets its click depth.
 */
import type { ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultCrawlBounds } from "../../src/config.js";
import { call, databaseKinds, startApi, type TestApi } from "../helpers/api.js";
import { crawlTestSettings, endedCrawl, testPage as page } from "../helpers/crawl-api.js";
import { eventually } from "../helpers/job-queues.js";
import { html, startServer } from "../helpers/local-server.js";

const linksPerPage = 5_000;

/** Page n links to 5,000 URLs no other page links to (page 0, the start page, also to a missing one). */
function wideSite() {
  const wide = (n: number) =>
    page(
      `Page ${n}`,
      `${n === 0 ? '<a href="/missing">Missing</a>' : ""}${Array.from(
        { length: linksPerPage },
        (_, i) => `<a href="/p/${n * linksPerPage + i + 1}">${i}</a>`,
      ).join(" ")}`,
    );
  return startServer(
    { "/": html(wide(0)) },
    {
      fallback: (request, response: ServerResponse) => {
        const match = /^\/p\/(\d+)$/.exec(request.url ?? "");
        if (!match) {
          response.writeHead(404, { "content-type": "text/html" }).end(page("Not found", "<p>Gone.</p>"));
          return;
        }
        response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(wide(Number(match[1])));
      },
    },
  );
}

describe.each(databaseKinds)("crawl bounds on %s", (kind) => {
  let api: TestApi;
  let key: string;

  beforeAll(async () => {
    api = await startApi(kind, crawlTestSettings);
    key = await api.newUser();
  });
  afterAll(() => api.close());

  const crawlTo = async (json: Record<string, unknown>) => {
    const created = await call(api, "POST", "/api/v1/crawls", { key, json: { sitemaps: 0, ...json } });
    expect(created.statusCode, created.body).toBe(202);
    return endedCrawl(api, key, created.json().data.id as number, 60_000);
  };

  it("stores at most its bounds of a site whose pages each link to 5,000 new URLs, and counts the rest", async () => {
    const site = await wideSite();
    try {
      const maxPages = 20;
      const crawl = await crawlTo({ url: `${site.url}/`, max_pages: maxPages });
      expect(crawl.status).toBe("complete");
      expect(crawl.pages.analysed + crawl.pages.failed).toBe(maxPages);

      // The start page and /missing (which fails) and 18 pages more are fetched: every link leads to a new URL.
      const analysedPages = maxPages - 1;
      const foundLinks = analysedPages * linksPerPage + 1;
      const offeredUrls = 1 + foundLinks;
      const urlBound = maxPages * defaultCrawlBounds.urlsPerPage;
      expect(crawl.pages.discovered).toBe(urlBound);
      expect(crawl.dropped.urls).toBe(offeredUrls - urlBound);
      const rows = await api.database.store.db
        .selectFrom("crawl_pages")
        .select((eb) => eb.fn.countAll().as("n"))
        .where("crawl_id", "=", crawl.id)
        .executeTakeFirstOrThrow();
      expect(Number(rows.n)).toBe(urlBound);

      // Links: the first 1,000 of each page, until the crawl holds 200 × max_pages.
      const linkBound = maxPages * defaultCrawlBounds.meanLinksPerPage;
      const links = await api.database.store.db
        .selectFrom("crawl_links")
        .select((eb) => eb.fn.countAll().as("n"))
        .where("crawl_id", "=", crawl.id)
        .executeTakeFirstOrThrow();
      expect(Number(links.n)).toBe(linkBound);
      expect(crawl.dropped.links).toBe(foundLinks - linkBound);

      // The start page's own links were recorded: its broken link is found, and the check says it judged
      // from a capped link set.
      const issues = (await call(api, "GET", `/api/v1/crawls/${crawl.id}/issues`, { key })).json().data;
      const broken = issues.find((issue: { check: string }) => issue.check === "broken-links");
      expect(broken.items).toEqual([expect.objectContaining({ url: `${site.url}/missing` })]);
      expect(broken.message).toContain(`Judged from a capped link set: ${foundLinks - linkBound} links`);
    } finally {
      await site.close();
    }
  }, 120_000);

  it("leaves half the URLs it lists to the links it follows, however long the sitemap", async () => {
    let base = "";
    const site = await startServer({
      "/": html(page("Home", [1, 2, 3, 4, 5].map((n) => `<a href="/link/${n}">${n}</a>`).join(" "))),
      "/sitemap.xml": (_request, response) => {
        const urls = Array.from({ length: 100 }, (_, n) => `<url><loc>${base}/listed/${n}</loc></url>`);
        response
          .writeHead(200, { "content-type": "application/xml" })
          .end(
            `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.join("")}</urlset>`,
          );
      },
    });
    base = site.url;
    try {
      const maxPages = 2;
      const crawl = await crawlTo({ url: `${site.url}/`, max_pages: maxPages, sitemaps: 1 });
      const pages = (await call(api, "GET", `/api/v1/crawls/${crawl.id}/pages?per_page=100`, { key })).json()
        .data as Array<{ url: string }>;
      const paths = pages.map((entry) => new URL(entry.url).pathname);
      // Half of the 20 URLs it may list went to the seed (the start page and 9 sitemap entries).
      const half = (maxPages * defaultCrawlBounds.urlsPerPage) / 2;
      expect(paths.filter((path) => path.startsWith("/listed/"))).toHaveLength(half - 1);
      expect(paths.filter((path) => path.startsWith("/link/")).sort()).toEqual(
        [1, 2, 3, 4, 5].map((n) => `/link/${n}`),
      );
      expect(crawl.dropped.urls).toBe(100 - (half - 1));
    } finally {
      await site.close();
    }
  });

  it("fails a crawl whose start page answers 404, with the page's reason, and announces crawl.failed", async () => {
    const site = await startServer({ "/other": html(page("Other", "<p>Never reached.</p>")) });
    const bodies: string[] = [];
    const receiver = await startServer(
      {},
      {
        fallback: (request, response) => {
          let body = "";
          request.on("data", (chunk: Buffer) => {
            body += chunk.toString();
          });
          request.on("end", () => {
            bodies.push(body);
            response.writeHead(204).end();
          });
        },
      },
    );
    try {
      const hook = await call(api, "POST", "/api/v1/webhooks", {
        key,
        json: { url: `${receiver.url}/hook`, events: ["crawl.completed", "crawl.failed"] },
      });
      expect(hook.statusCode, hook.body).toBe(201);
      const crawl = await crawlTo({ url: `${site.url}/gone` });
      expect(crawl.status).toBe("failed");
      expect(crawl.error).toEqual({
        reason: "http-status",
        message: expect.stringContaining(`The start page ${site.url}/gone failed`),
      });
      expect(crawl.error.message).toContain("404");
      expect(crawl.pages).toMatchObject({ analysed: 0, failed: 1 });
      const events = await api.app.inject({
        method: "GET",
        url: `/api/v1/crawls/${crawl.id}/events`,
        headers: { authorization: `Bearer ${key}` },
      });
      expect(events.body).toMatch(/^event: failed\ndata: \{"id":\d+,"object":"crawl"/);
      expect(events.body).toContain('"reason":"http-status"');
      await eventually(async () => bodies.length > 0, "the webhook delivery", 30_000);
      expect(JSON.parse(bodies[0] ?? "{}")).toMatchObject({
        type: "crawl.failed",
        data: { id: crawl.id, status: "failed", error: { reason: "http-status" } },
      });

      // A start page that answers: no error.
      const fine = await crawlTo({ url: `${site.url}/other` });
      expect(fine).toMatchObject({ status: "complete", error: null, dropped: { urls: 0, links: 0 } });
    } finally {
      await site.close();
      await receiver.close();
    }
  });

  it("lists the links found at max_depth as excluded by the limit, and never fetches them", async () => {
    const site = await startServer({
      "/": html(page("Home", '<a href="/a">A</a> <a href="/b">B</a>')),
      "/a": html(page("A", '<a href="/b">B</a> <a href="/c">C</a> <a href="/d" rel="nofollow">D</a>')),
      "/b": html(page("B", '<a href="/a">A</a>')),
      "/c": html(page("C", '<a href="/e">E</a>')),
    });
    try {
      const crawl = await crawlTo({ url: `${site.url}/`, max_depth: 1 });
      expect(crawl.status).toBe("complete");
      const pages = (await call(api, "GET", `/api/v1/crawls/${crawl.id}/pages`, { key })).json()
        .data as Array<{
        url: string;
        depth: number | null;
        excluded: string | null;
        status_code: number | null;
      }>;
      const byPath = new Map(pages.map((entry) => [new URL(entry.url).pathname, entry]));
      expect(byPath.get("/b")).toMatchObject({ depth: 1, status_code: 200, excluded: null });
      expect(byPath.get("/c")).toMatchObject({ depth: 2, status_code: null, excluded: "limit" });
      expect(byPath.has("/d")).toBe(false); // nofollow: not followed, so not found
      expect(byPath.has("/e")).toBe(false);
      expect(site.requests).not.toContain("/c");
      expect(crawl.pages).toMatchObject({ discovered: 4, analysed: 3, excluded: 1 });
    } finally {
      await site.close();
    }
  });

  it("gives the pages a sitemap URL leads to their click depth while the start page is still being fetched", async () => {
    // /old is in the sitemap and linked from the start page, which answers slowly: a part must not take /old (a
    // sitemap URL, no depth yet) meanwhile, or the redirect to /a would pass that missing depth on to /a's links.
    const site = await startServer({
      "/": (_request, response) => {
        setTimeout(() => html(page("Home", '<a href="/old">Old</a>'))(_request, response), 1_500);
      },
      "/old": (_request, response) => {
        response.writeHead(301, { location: "/a" }).end();
      },
      "/a": html(page("A", '<a href="/deep">Deep</a>')),
      "/deep": html(page("Deep", "<p>Deep.</p>")),
      "/robots.txt": (_request, response) => {
        response.writeHead(200, { "content-type": "text/plain" }).end(`Sitemap: ${site.url}/sitemap.xml\n`);
      },
      "/sitemap.xml": (_request, response) => {
        response
          .writeHead(200, { "content-type": "application/xml" })
          .end(
            `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${site.url}/old</loc></url></urlset>`,
          );
      },
    });
    try {
      const crawl = await crawlTo({ url: `${site.url}/`, sitemaps: 1 });
      expect(crawl.status).toBe("complete");
      const pages = (await call(api, "GET", `/api/v1/crawls/${crawl.id}/pages`, { key })).json()
        .data as Array<{ url: string; depth: number | null }>;
      const depths = Object.fromEntries(pages.map((entry) => [new URL(entry.url).pathname, entry.depth]));
      // A redirect is no click: its target keeps the depth of the URL that redirects.
      expect(depths).toMatchObject({ "/": 0, "/old": 1, "/a": 1, "/deep": 2 });
    } finally {
      await site.close();
    }
  });
});
