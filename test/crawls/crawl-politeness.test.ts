/**
 * Politeness counts every request a crawl makes to the site, not only its pages: robots.txt, the sitemaps and
 * the host probes start the delay apart from each other and from the pages, and no more of them are open at
 * once than the crawl's per-host concurrency. The site records when each request arrives and how many are
 * open, and answers slowly (slower than the delay), so requests would overlap if anything let them.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, startApi, type TestApi } from "../helpers/api.js";
import { eventually } from "../helpers/job-queues.js";
import { type LocalServer, startServer } from "../helpers/local-server.js";

const delayMs = 150;
const answerMs = 400;
const concurrency = 2;
/**
 * Starts are taken the delay apart; each request then leaves after however long its event loop turn takes, so
 * arrivals may come a little closer than the delay (never close to 0, as unpaced requests would).
 */
const leewayMs = 40;

describe("a crawl's politeness", () => {
  let api: TestApi;
  let site: LocalServer;
  let key: string;
  const arrivals: Array<{ path: string; at: number }> = [];
  let open = 0;
  let mostOpen = 0;

  beforeAll(async () => {
    let base = "";
    const page = (title: string, links: string) =>
      `<!doctype html><html lang="en"><head><title>${title}</title></head><body><h1>${title}</h1>${links}</body></html>`;
    const pages: Record<string, string> = {
      "/": page("Home", '<a href="/a">A</a> <a href="/b">B</a> <a href="/c">C</a>'),
      "/a": page("A", '<a href="/">Home</a>'),
      "/b": page("B", '<a href="/">Home</a>'),
      "/c": page("C", '<a href="/">Home</a>'),
      "/d": page("D", '<a href="/">Home</a>'),
    };
    site = await startServer(
      {},
      {
        fallback: (request: IncomingMessage, response: ServerResponse) => {
          const path = new URL(request.url ?? "/", "http://x").pathname;
          arrivals.push({ path, at: performance.now() });
          open++;
          mostOpen = Math.max(mostOpen, open);
          response.on("close", () => open--);
          setTimeout(() => {
            if (path === "/robots.txt") {
              response.writeHead(200, { "content-type": "text/plain" });
              response.end(`User-agent: *\nAllow: /\nSitemap: ${base}/sitemap.xml\n`);
            } else if (path === "/sitemap.xml") {
              response.writeHead(200, { "content-type": "application/xml" });
              response.end(
                `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${base}/d</loc></url></urlset>`,
              );
            } else if (pages[path] !== undefined) {
              response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
              response.end(pages[path]);
            } else {
              response.writeHead(404, { "content-type": "text/plain" });
              response.end("not here");
            }
          }, answerMs);
        },
      },
    );
    base = site.url;
    api = await startApi("sqlite", {
      PAGEGRADE_CRAWL_DELAY_MS: String(delayMs),
      PAGEGRADE_CRAWL_HOST_CONCURRENCY: String(concurrency),
    });
    key = await api.newUser();
  });
  afterAll(async () => {
    await api?.close();
    await site?.close();
  });

  it("keeps the delay between every two request starts and the concurrency, robots.txt, sitemaps and probes included", async () => {
    const created = await call(api, "POST", "/api/v1/crawls", { key, json: { url: `${site.url}/` } });
    expect(created.statusCode).toBe(202);
    const id = created.json().data.id as number;
    await eventually(
      async () => (await call(api, "GET", `/api/v1/crawls/${id}`, { key })).json().data.status === "complete",
      "the crawl's end",
      60_000,
    );
    const paths = new Set(arrivals.map((arrival) => arrival.path));
    for (const path of ["/robots.txt", "/sitemap.xml", "/llms.txt", "/", "/a", "/b", "/c", "/d"]) {
      expect(paths, path).toContain(path);
    }
    expect([...paths].some((path) => path.startsWith("/pagegrade-missing-"))).toBe(true);
    const starts = arrivals.map((arrival) => arrival.at).sort((a, b) => a - b);
    const gaps = starts.slice(1).map((at, index) => at - (starts[index] as number));
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(delayMs - leewayMs);
    expect(mostOpen).toBeLessThanOrEqual(concurrency);
    // The answers are slower than the delay: with two parts, two requests were open at once at some point.
    expect(mostOpen).toBe(concurrency);
  });
});
