/**
 * The crawl pages: a project links to its crawls; the form starts a crawl (a bad field is refused with the
 * service's message, the per-user limit too); a running crawl's page reloads itself and can be cancelled; a
 * finished one shows its score, issues with evidence, its page checks rolled up (each opening the pages that
 * fail it), a pages table filtered by status and by issue, its links (filtered, anchor text escaped), and CSV
 * downloads; another user sees 404s; deleting keeps the reports.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApi, type TestApi } from "../helpers/api.js";
import { endedCrawlPage, testPage as page, signedInClient } from "../helpers/crawl-api.js";
import { eventually } from "../helpers/job-queues.js";
import { html, type LocalServer, startServer } from "../helpers/local-server.js";
import type { WebClient } from "../helpers/web-client.js";

describe("crawl pages", () => {
  let api: TestApi;
  let site: LocalServer;
  let owner: WebClient;
  let stranger: WebClient;

  beforeAll(async () => {
    site = await startServer({
      "/": html(page("Home", '<a href="/a">A</a> <a href="/b">B</a> <a href="/gone">Gone</a>')),
      "/a": html(
        page(
          "Same title",
          '<a href="/">Home</a> <a href="/b">&lt;i onclick=x&gt;Brakes</a> <p>About wheels and spokes.</p>',
        ),
      ),
      "/b": html(page("Same title", '<a href="/">Home</a> <p>About brakes, pads and cables.</p>')),
      "/slow": async (_request, response) => {
        await new Promise((resolve) => setTimeout(resolve, 400));
        response
          .writeHead(200, { "content-type": "text/html" })
          .end(page("Slow", '<a href="/slow?n=1">more</a>'));
      },
    });
    api = await startApi("sqlite", { PAGEGRADE_CRAWL_DELAY_MS: "0", PAGEGRADE_CRAWLS_PER_USER: "1" });
    owner = await signedInClient(api.app, "crawler@example.com");
    stranger = await signedInClient(api.app, "other@example.com");
  });
  afterAll(async () => {
    await api.close();
    await site.close();
  });

  it("starts a crawl from the form, then shows its score, issues, pages and CSV downloads", async () => {
    const refused = await owner.post("/crawls", { url: `${site.url}/`, max_pages: "0" });
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toContain("The max pages field must be between 1 and");
    expect((await owner.post("/crawls", { url: `${site.url}/`, include: "no-slash" })).body).toContain(
      "Each include pattern must start with / or *",
    );

    const started = await owner.post("/crawls", { url: `${site.url}/`, max_pages: "50", max_depth: "3" });
    expect(started.statusCode).toBe(303);
    const path = started.headers.location as string;
    expect(path).toMatch(/^\/crawls\/\d+$/);
    const done = await endedCrawlPage(owner, path);
    expect(done.body).toContain("<h2>Complete</h2>");
    expect(done.body).toMatch(/Site score <strong>\d+<\/strong>/);
    // A 404 is an error page, not a failure of the crawler; a first crawl has nothing to compare with.
    expect(done.body).toContain("<dt>Error pages</dt><dd>1</dd>");
    expect(done.body).not.toContain("What changed since the previous crawl");
    expect(done.body).toContain("<strong>Broken links</strong>");
    expect(done.body).toContain(`<span class="key">${site.url}/gone</span>`);
    // Each issue is a collapsed row with its count; its items are a table with the pages linking to them.
    expect(done.body).toMatch(/<details class="site-issue importance-\w+" id="issue-broken-links">/);
    expect(done.body).toMatch(/<strong>Broken links<\/strong> <span class="issue-count">1 finding<\/span>/);
    expect(done.body).toContain(`<td data-label="Linked from"><span class="key">${site.url}/</span></td>`);
    // The summary first: charts of the pages by answer, click depth and score, then links to each section.
    expect(done.body).toContain('aria-label="Pages by answer: 2xx: 3, 4xx: 1"');
    expect(done.body).toContain('aria-label="Pages by clicks from the start: 0 clicks: 1, 1 click: 3"');
    expect(done.body.indexOf("Pages by answer")).toBeLessThan(done.body.indexOf('id="site-issues"'));
    for (const section of ["site-issues", "pages", "links"])
      expect(done.body).toContain(`href="#${section}"`);
    // Fix first: page checks and site issues in one ranking, each linking to its pages.
    const fixFirst = done.body.slice(
      done.body.indexOf('id="fix-first"'),
      done.body.indexOf('id="site-issues"'),
    );
    expect(fixFirst).toContain(
      `<a href="${path}?open=broken-links#issue-broken-links"><strong>Broken links</strong></a> <span class="muted">(high, site issue)</span>`,
    );
    expect(fixFirst).toMatch(/<a href="\/crawls\/\d+\/checks\/[a-z0-9-]+\/pages"><strong>/);
    // The page checks rolled up, each linking to the pages that fail it.
    expect(done.body).toContain('href="#page-checks"');
    const rollup = done.body.slice(done.body.indexOf('id="page-checks"'));
    const check = /href="\/crawls\/\d+\/checks\/([a-z0-9-]+)\/pages"/.exec(rollup)?.[1] as string;
    expect(check).toBeTruthy();
    const failing = await owner.get(`${path}/checks/${check}/pages`);
    expect(failing.statusCode).toBe(200);
    expect(failing.body).toMatch(/Page 1 of 1 · \d+ pages?/);
    expect(failing.body).toContain("failed or warned, failures first");
    expect(failing.body).toMatch(/<a href="\/reports\/\d+">http:\/\/127\.0\.0\.1:\d+\//);
    expect(failing.body).toContain(`href="${path}/checks/${check}/pages.csv"`);
    const checkCsv = await owner.get(`${path}/checks/${check}/pages.csv`);
    expect(checkCsv.body).toMatch(/^url,status,message,evidence\r\n/);
    expect((await owner.get(`${path}/checks/no-such-check/pages`)).statusCode).toBe(404);
    expect((await owner.get(`${path}/checks.csv`)).body).toMatch(
      new RegExp(`^check,category,importance,fail,warn,pages,priority,templates\r\n${check},`),
    );
    // The links themselves, anchor text escaped, filtered as in the API, and as CSV with the same filters.
    expect(done.body).toContain(`<td data-label="To"><span class="key">${site.url}/a</span></td>`);
    expect(done.body).toContain("&#60;i onclick=x&#62;Brakes");
    expect(done.body).not.toContain("<i onclick=x>");
    expect(done.body).toContain(`href="${path}/links.csv"`);
    const toB = await owner.get(`${path}/links?to=${encodeURIComponent(`${site.url}/b`)}`);
    expect(toB.body).toContain("Page 1 of 1 · 2 links");
    const broken = await owner.get(`${path}/links?status=404`);
    expect(broken.body).toContain("Page 1 of 1 · 1 link");
    expect(broken.body).toContain(`href="${path}/links.csv?status=404"`);
    expect((await owner.get(`${path}/links.csv?status=404`)).body).toBe(
      `source,target,anchor,nofollow,target_status\r\n${site.url}/,${site.url}/gone,Gone,false,404\r\n`,
    );
    const ignored = await owner.get(`${path}/links?status=abc`);
    expect(ignored.body).toContain("Ignored invalid status.");
    expect(ignored.body).toContain("Page 1 of 1 · 6 links");
    const opened = (await owner.get(`${path}?open=broken-links&items=1`)).body;
    expect(opened).toMatch(/id="issue-broken-links" open>/);
    expect(done.body).toContain("<strong>Duplicate titles</strong>");
    expect(done.body).toContain(`href="${path}/pages.csv"`);

    const failed = await owner.get(`${path}?status=error`);
    expect(failed.body).toContain("Page 1 of 1 · 1 page");
    expect(failed.body).toContain(`${site.url}/gone`);
    const duplicates = await owner.get(`${path}?issue=duplicate-title&sort=url&direction=desc`);
    expect(duplicates.body).toContain("Page 1 of 1 · 2 pages");
    expect(duplicates.body.indexOf(`${site.url}/b</a>`)).toBeLessThan(
      duplicates.body.indexOf(`${site.url}/a</a>`),
    );
    const ascending = (await owner.get(`${path}?issue=duplicate-title&sort=url&direction=asc`)).body;
    expect(ascending.indexOf(`${site.url}/a</a>`)).toBeLessThan(ascending.indexOf(`${site.url}/b</a>`));
    expect((await owner.get(`${path}?status=nonsense&sort=nope`)).body).toContain("Page 1 of 1 · 4 pages");

    const csv = await owner.get(`${path}/pages.csv`);
    expect(csv.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(csv.headers["content-disposition"]).toMatch(/^attachment; filename="crawl-\d+-pages\.csv"$/);
    expect(csv.body.split("\r\n").filter(Boolean)).toHaveLength(5);
    expect((await owner.get(`${path}/issues.csv`)).body).toMatch(
      /^check,importance,title,fingerprint,url,detail,sources\r\n/,
    );

    const projectCrawls = await owner.get("/crawls?project=127.0.0.1");
    expect(projectCrawls.body).toContain("Crawls over time");
    expect(projectCrawls.body).toContain(`href="${path}"`);
    expect((await owner.get("/projects")).body).toContain('href="/crawls?project=127.0.0.1"');

    for (const suffix of [
      "",
      "/pages.csv",
      "/issues.csv",
      "/links",
      "/links.csv",
      `/checks/${check}/pages`,
    ]) {
      expect((await stranger.get(`${path}${suffix}`)).statusCode).toBe(404);
    }
    expect((await stranger.post(`${path}/delete`)).statusCode).toBe(404);
    expect((await stranger.get(`${path}/delete`)).statusCode).toBe(404);
    // Deleting asks first, on a page of its own.
    expect((await owner.get(path)).body).toContain(`<a href="${path}/delete">Delete this crawl…</a>`);
    expect((await owner.get(`${path}/delete`)).body).toContain("Delete the crawl of");
    expect((await owner.post(`${path}/delete`)).headers.location).toBe("/crawls?project=127.0.0.1");
    expect((await owner.get(path)).statusCode).toBe(404);
    expect((await owner.get("/reports?project=127.0.0.1")).body).toContain(`${site.url}/a`);
  });

  it("shows a running crawl's progress, refuses a second one over the limit, and cancels it", async () => {
    const started = await owner.post("/crawls", { url: `${site.url}/slow`, max_pages: "100" });
    const path = started.headers.location as string;
    const running = await owner.get(path);
    // Live over the event stream with the app's script; reloading itself without JavaScript.
    expect(running.body).toContain('<noscript><meta http-equiv="refresh" content="3"></noscript>');
    expect(running.body).toContain(`data-crawl-events="${path}/events"`);
    expect(running.body).toContain('<script src="/assets/crawl-progress.js" defer></script>');
    expect(running.body).toMatch(/<h2>(Waiting to start|Crawling)<\/h2>/);
    expect(running.body).toContain("Pages per second");
    expect(running.body).toContain("Time left");

    const second = await owner.post("/crawls", { url: `${site.url}/` });
    expect(second.statusCode).toBe(429);
    expect(second.body).toContain("Too many crawls queued or running: at most 1 at once per user.");
    expect(second.headers["retry-after"]).toBe("60");

    expect((await owner.post(`${path}/cancel`)).statusCode).toBe(303);
    await eventually(
      async () => (await owner.get(path)).body.includes("<h2>Cancelled</h2>"),
      "the cancel",
      10_000,
    );
    expect((await owner.post(`${path}/cancel`)).statusCode).toBe(303);
    expect((await owner.get(path)).body).toContain("The crawl had already finished.");
    // The page's event stream: the owner's session reads it, ending with how the crawl ended; others get a 404.
    const events = await owner.get(`${path}/events`);
    expect(events.headers["content-type"]).toBe("text/event-stream; charset=utf-8");
    expect(events.body).toMatch(/^event: cancelled\ndata: \{"id":/);
    expect((await stranger.get(`${path}/events`)).statusCode).toBe(404);
  });
});
