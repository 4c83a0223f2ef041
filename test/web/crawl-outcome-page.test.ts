/**
 * A finished crawl's page says how it ended: a crawl whose start page answers 404 shows it failed and why, and
 * a crawl whose storage bounds left URLs and links out shows how many.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApi, type TestApi } from "../helpers/api.js";
import { endedCrawlPage, testPage as page, signedInClient } from "../helpers/crawl-api.js";
import { html, type LocalServer, startServer } from "../helpers/local-server.js";
import type { WebClient } from "../helpers/web-client.js";

describe("a finished crawl's page", () => {
  let api: TestApi;
  let site: LocalServer;
  let owner: WebClient;

  beforeAll(async () => {
    site = await startServer({
      "/": html(page("Home", '<a href="/a">A</a> <a href="/b">B</a> <a href="/c">C</a>')),
      "/a": html(page("A", "<p>About wheels.</p>")),
    });
    api = await startApi("sqlite", {
      PAGEGRADE_CRAWL_DELAY_MS: "0",
      PAGEGRADE_CRAWL_URLS_PER_PAGE: "2",
      PAGEGRADE_CRAWL_LINKS_PER_PAGE: "1",
    });
    owner = await signedInClient(api.app, "outcome@example.com");
  });
  afterAll(async () => {
    await api.close();
    await site.close();
  });

  const crawled = async (fields: Record<string, string>) => {
    const started = await owner.post("/crawls", fields);
    expect(started.statusCode).toBe(303);
    const path = started.headers.location as string;
    return (await endedCrawlPage(owner, path)).body;
  };

  it("shows a failed start page's reason", async () => {
    const body = await crawled({ url: `${site.url}/gone` });
    expect(body).toContain("<h2>Failed</h2>");
    expect(body).toMatch(
      new RegExp(
        `role="alert">The start page ${site.url}/gone failed: [^<]*404[^<]*<span class="muted">\\(http-status\\)`,
      ),
    );
  });

  it("shows what the storage bounds left out", async () => {
    // One page: its 3 links lead to 3 new URLs, of which 1 fits besides the start page; 1 link is recorded.
    const body = await crawled({ url: `${site.url}/`, max_pages: "1" });
    expect(body).toContain("<h2>Complete</h2>");
    expect(body).toContain("2 new URLs not listed, 2 links not recorded");
    // It stopped at its one page: the URL it listed but did not reach is said.
    expect(body).toMatch(
      /Limited: the crawl stopped at its limits \(1 page, depth \d+\) and did not reach 1 URL it found\./,
    );
  });
});
