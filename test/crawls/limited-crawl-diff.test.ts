/**
 * A comparison is about what both crawls could see, on both databases: a site of a few hundred URLs crawled twice
 * below its size (`max_pages`), with exactly one section removed and one title removed in between (and its
 * sections listed in the other order, so each crawl reaches other member pages before its limit). The API's diff,
 * the `crawl.regressed` webhook, the comparison page and the project page show exactly those changes (one new broken link, to the removed section; the
 * title regression on its page) and count the broken links only one crawl reached as coverage; no page is added
 * or removed because the other crawl left it out at its limit. (Before: every broken member link one crawl
 * reached and the other left out counted as new or resolved, and the pages as added or removed.)
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, databaseKinds, startApi, type TestApi } from "../helpers/api.js";
import { endedCrawlPage, signedInClient } from "../helpers/crawl-api.js";
import { eventually } from "../helpers/job-queues.js";
import { type LimitedSite, limitedMaxPages, startLimitedSite } from "../helpers/limited-site.js";
import { type LocalServer, startServer } from "../helpers/local-server.js";

type Item = { url?: string; pages?: string[] };
type Diff = {
  from: { id: number } | null;
  site_issues: Array<{
    check: string;
    new: Item[];
    resolved: Item[];
    new_count: number;
    resolved_count: number;
    coverage: { newly_checked: number; no_longer_checked: number };
  }>;
  page_checks: Array<{
    check: string;
    regressed: number;
    pages: Array<{ url: string; from: string; to: string }>;
  }>;
  pages: {
    added: string[];
    removed: string[];
    status_changed: Array<{ url: string; from: number; to: number }>;
  };
  regressions: Record<string, number>;
  coverage: { newly_checked: number; no_longer_checked: number };
};

const path = (url: string) => new URL(url).pathname;

/** What a diff says changed, by path. */
function changes(diff: Diff) {
  return {
    new: Object.fromEntries(
      diff.site_issues
        .filter((issue) => issue.new_count > 0)
        .map((issue) => [issue.check, issue.new.map((item) => path(item.url ?? ""))]),
    ),
    resolved: diff.site_issues.reduce((total, issue) => total + issue.resolved_count, 0),
    regressedPages: [
      ...new Set(
        diff.page_checks.flatMap((check) =>
          check.pages.filter((page) => page.to !== "pass").map((page) => path(page.url)),
        ),
      ),
    ],
    titleRegressed: diff.page_checks.find((check) => check.check === "title")?.regressed ?? 0,
    added: diff.pages.added.map(path),
    removed: diff.pages.removed.map(path),
    statusChanged: diff.pages.status_changed.map((page) => [path(page.url), page.from, page.to]),
  };
}

const expectedChanges = {
  new: { "broken-links": ["/s/7"] },
  resolved: 0,
  regressedPages: ["/s/3"],
  titleRegressed: 1,
  added: [],
  removed: [],
  statusChanged: [["/s/7", 200, 404]],
};

describe.each(databaseKinds)("comparing two crawls cut by max_pages on %s", (kind) => {
  let api: TestApi;
  let site: LimitedSite;
  let receiver: LocalServer;
  let key: string;
  const received: string[] = [];

  beforeAll(async () => {
    site = await startLimitedSite();
    receiver = await startServer(
      {},
      {
        fallback: (request: IncomingMessage, response: ServerResponse) => {
          let body = "";
          request.on("data", (chunk: Buffer) => {
            body += chunk.toString();
          });
          request.on("end", () => {
            received.push(body);
            response.writeHead(204).end();
          });
        },
      },
    );
    api = await startApi(kind, {
      PAGEGRADE_CRAWL_DELAY_MS: "0",
      PAGEGRADE_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString("base64"),
    });
    key = await api.newUser();
    const hook = await call(api, "POST", "/api/v1/webhooks", {
      key,
      json: { url: `${receiver.url}/hook`, events: ["crawl.regressed"] },
    });
    expect(hook.statusCode).toBe(201);
  });
  afterAll(async () => {
    await api.close();
    await site.close();
    await receiver.close();
  });

  const crawl = async () => {
    const created = await call(api, "POST", "/api/v1/crawls", {
      key,
      json: { url: site.url("/"), sitemaps: 0, max_pages: limitedMaxPages },
    });
    expect(created.statusCode, created.body).toBe(202);
    const id = created.json().data.id as number;
    await eventually(
      async () => (await call(api, "GET", `/api/v1/crawls/${id}`, { key })).json().data.status === "complete",
      "the crawl to complete",
      90_000,
    );
    return id;
  };

  it("shows exactly the removed page's broken inlinks and the title regression, and the rest as coverage", async () => {
    site.version = 1;
    const first = await crawl();
    site.version = 2;
    const second = await crawl();
    const response = await call(api, "GET", `/api/v1/crawls/${second}/diff`, { key });
    expect(response.statusCode, response.body).toBe(200);
    const diff = response.json().data as Diff;
    // Each crawl says it stopped at its limit, and how many URLs it did not reach.
    for (const id of [first, second]) {
      const crawl = (await call(api, "GET", `/api/v1/crawls/${id}`, { key })).json().data;
      expect(crawl.limited).toBe(true);
      expect(crawl.not_reached).toBeGreaterThan(100);
      expect(crawl.pages.analysed + crawl.pages.failed).toBeLessThanOrEqual(limitedMaxPages);
    }
    expect(diff.from?.id).toBe(first);
    expect(changes(diff)).toEqual(expectedChanges);
    // Each crawl reached broken member links the other left out at its limit: counted, neither new nor resolved.
    expect(diff.coverage.newly_checked).toBeGreaterThan(0);
    expect(diff.coverage.no_longer_checked).toBeGreaterThan(0);
    const broken = diff.site_issues.find((issue) => issue.check === "broken-links");
    expect(broken?.coverage).toEqual(diff.coverage);
    expect(diff.regressions.high).toBe(
      1 +
        diff.page_checks.filter((check) => check.check === "title" || check.check === "content-keywords")
          .length,
    );

    await eventually(async () => received.length === 1, "crawl.regressed", 20_000);
    const event = JSON.parse(received[0] as string);
    expect(event.type).toBe("crawl.regressed");
    expect(event.data.id).toBe(second);
    expect(changes(event.data.diff)).toEqual(expectedChanges);
    expect(event.data.diff.coverage).toEqual(diff.coverage);
  }, 200_000);

  it("shows the same on the comparison page and the project page", async () => {
    const owner = await signedInClient(api.app, `limited-${kind}@example.com`);
    const crawlPath = async () => {
      const started = await owner.post("/crawls", { url: site.url("/"), max_pages: String(limitedMaxPages) });
      expect(started.statusCode).toBe(303);
      const path = started.headers.location as string;
      await endedCrawlPage(owner, path, 90_000);
      return path;
    };
    site.version = 1;
    await crawlPath();
    site.version = 2;
    const second = await crawlPath();
    const comparison = (await owner.get(`${second}/diff`)).body;
    expect(comparison).toContain("<div><dt>New findings</dt><dd>1</dd></div>");
    expect(comparison).toContain("<div><dt>Resolved findings</dt><dd>0</dd></div>");
    expect(comparison).toMatch(
      /<dt>Coverage<\/dt><dd[^>]*>[1-9]\d* newly checked · [1-9]\d* no longer checked<\/dd>/,
    );
    const newSection = comparison.slice(comparison.indexOf('id="new"'), comparison.indexOf('id="resolved"'));
    expect(newSection).toContain(site.url("/s/7"));
    expect(newSection).not.toContain(site.url("/m/"));
    const project = (await owner.get(`/projects/${encodeURIComponent(new URL(site.url("/")).hostname)}`))
      .body;
    const changes = project.slice(project.indexOf('id="latest-changes"'));
    expect(changes).toContain("<dt>New findings</dt><dd>1</dd>");
    expect(changes).toContain("<dt>Resolved findings</dt><dd>0</dd>");
  }, 200_000);
});
