/**
 * A crawl whose start page cannot be analysed says why, through the API and on its page: a start page that
 * robots.txt refuses fails the crawl with `robots`, one that redirects off the project with `off-site` (before,
 * both ended `complete` with nothing analysed and the reason only in the pages table).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, startApi, type TestApi } from "../helpers/api.js";
import { endedCrawlPage, testPage as page, signedInClient } from "../helpers/crawl-api.js";
import { eventually } from "../helpers/job-queues.js";
import { html, type LocalServer, startServer } from "../helpers/local-server.js";
import type { WebClient } from "../helpers/web-client.js";

const text = (body: string) => (_request: IncomingMessage, response: ServerResponse) => {
  response.writeHead(200, { "content-type": "text/plain" });
  response.end(body);
};

describe("a crawl whose start page cannot be analysed", () => {
  let api: TestApi;
  let refusing: LocalServer;
  let leaving: LocalServer;
  let key: string;
  let owner: WebClient;

  beforeAll(async () => {
    refusing = await startServer({
      "/robots.txt": text("User-agent: *\nDisallow: /\n"),
      "/": html(page("Home", '<a href="/a">A</a>')),
    });
    leaving = await startServer({
      "/": (_request, response) => {
        response.writeHead(301, { location: "https://elsewhere.example/" });
        response.end();
      },
    });
    api = await startApi("sqlite", { PAGEGRADE_CRAWL_DELAY_MS: "0" });
    key = await api.newUser();
    owner = await signedInClient(api.app, "refused@example.com");
  });
  afterAll(async () => {
    await api.close();
    await refusing.close();
    await leaving.close();
  });

  const crawled = async (url: string) => {
    const created = await call(api, "POST", "/api/v1/crawls", { key, json: { url, sitemaps: 0 } });
    expect(created.statusCode, created.body).toBe(202);
    const id = created.json().data.id as number;
    let crawl: Record<string, unknown> = {};
    await eventually(
      async () => {
        crawl = (await call(api, "GET", `/api/v1/crawls/${id}`, { key })).json().data;
        return crawl.status !== "queued" && crawl.status !== "running";
      },
      "the crawl to end",
      30_000,
    );
    return crawl;
  };

  it("fails with robots when robots.txt refuses the start page", async () => {
    const crawl = await crawled(`${refusing.url}/`);
    expect(crawl.status).toBe("failed");
    expect(crawl.error).toEqual({
      reason: "robots",
      message: `The start page ${refusing.url}/ is disallowed for pagegrade by the site's robots.txt: there is nothing to crawl.`,
    });
  });

  it("fails with off-site when the start page redirects off the project", async () => {
    const crawl = await crawled(`${leaving.url}/`);
    expect(crawl.status).toBe("failed");
    expect(crawl.error).toMatchObject({ reason: "off-site" });
    expect(String((crawl.error as { message: string }).message)).toContain("https://elsewhere.example/");
  });

  it("says so in the crawl page's headline", async () => {
    for (const [url, reason, words] of [
      [`${refusing.url}/`, "robots", "robots.txt"],
      [`${leaving.url}/`, "off-site", "off the project"],
    ] as const) {
      const started = await owner.post("/crawls", { url });
      expect(started.statusCode).toBe(303);
      const body = (await endedCrawlPage(owner, started.headers.location as string)).body;
      expect(body).toContain("<h2>Failed</h2>");
      expect(body).toMatch(
        new RegExp(`role="alert">The start page [^<]*${words}[^<]*<span class="muted">\\(${reason}\\)`),
      );
    }
  });
});
