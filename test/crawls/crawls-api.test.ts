/**
 * Crawls through the API on a crafted site served from 127.0.0.1, on both databases: scope, robots.txt, the
 * sitemap, redirects, a broken link, a non-HTML file, nofollow, an external link never fetched; the pages and
 * site issues (JSON and CSV), the reports made in the project, the event stream, validation, the per-user limit,
 * cancel and isolation.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, databaseKinds, startApi, type TestApi } from "../helpers/api.js";
import { crawlTestSettings, endedCrawl, testPage as page } from "../helpers/crawl-api.js";
import { eventually } from "../helpers/job-queues.js";
import { type LocalServer, startServer } from "../helpers/local-server.js";

function site(base: () => string) {
  const html = (text: string) => (_request: IncomingMessage, response: ServerResponse) => {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    response.end(text);
  };
  return {
    "/": html(
      page(
        "Home of the bicycle shop",
        `<a href="/a">A</a> <a href="/b#part">B</a> <a href="/missing">Gone</a> <a href="/old">Old</a>
         <a href="/hidden" rel="nofollow">Hidden</a> <a href="/private/x">Private</a> <a href="/file.pdf">PDF</a>
         <a href="https://elsewhere.example/">Elsewhere</a> <a href="mailto:shop@example.com">Mail</a>`,
      ),
    ),
    "/a": html(page("Same title", '<a href="/">Home</a> <a href="/deep/1">Deeper</a>')),
    "/b": html(page("Same title", '<a href="/">Home</a>')),
    "/deep/1": html(page("Deep one", "<p>One.</p>")),
    "/hidden": html(page("Hidden page", "<p>Only nofollow links here.</p>")),
    "/orphan": html(page("Orphan page", "<p>Only in the sitemap.</p>")),
    "/old": (_request: IncomingMessage, response: ServerResponse) => {
      response.writeHead(301, { location: "/a" });
      response.end();
    },
    "/file.pdf": (_request: IncomingMessage, response: ServerResponse) => {
      response.writeHead(200, { "content-type": "application/pdf" });
      response.end("%PDF-1.4");
    },
    "/robots.txt": (_request: IncomingMessage, response: ServerResponse) => {
      response.writeHead(200, { "content-type": "text/plain" });
      response.end(`User-agent: *\nDisallow: /private\nSitemap: ${base()}/sitemap.xml\n`);
    },
    "/sitemap.xml": (_request: IncomingMessage, response: ServerResponse) => {
      response.writeHead(200, { "content-type": "application/xml" });
      response.end(
        `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${base()}/</loc></url><url><loc>${base()}/orphan</loc></url><url><loc>${base()}/old</loc></url></urlset>`,
      );
    },
  };
}

describe.each(databaseKinds)("crawls on %s", (kind) => {
  let api: TestApi;
  let server: LocalServer;
  let key: string;
  let other: string;

  beforeAll(async () => {
    let base = "";
    server = await startServer(site(() => base));
    base = server.url;
    api = await startApi(kind, crawlTestSettings);
    key = await api.newUser();
    other = await api.newUser();
  });
  afterAll(async () => {
    await api.close();
    await server.close();
  });

  const waitForEnd = (id: number) => endedCrawl(api, key, id);

  it("crawls the site into its project and finds what only a whole-site view can", async () => {
    const created = await call(api, "POST", "/api/v1/crawls", { key, json: { url: `${server.url}/` } });
    expect(created.statusCode).toBe(202);
    expect(created.headers.location).toBe(`/api/v1/crawls/${created.json().data.id}`);
    expect(created.json().data).toMatchObject({
      status: "queued",
      max_pages: 500,
      max_depth: 10,
      sitemaps: 1,
    });
    const crawl = await waitForEnd(created.json().data.id);
    expect(crawl.status).toBe("complete");
    expect(crawl.score).toEqual(expect.any(Number));

    const pages = (await call(api, "GET", `/api/v1/crawls/${crawl.id}/pages?per_page=100`, { key })).json()
      .data;
    const byPath = new Map<string, Record<string, unknown>>(
      pages.map((entry: { url: string }) => [new URL(entry.url).pathname, entry]),
    );
    expect(byPath.get("/")).toMatchObject({ status_code: 200, depth: 0, in_sitemap: true, indexable: true });
    expect(byPath.get("/b")).toMatchObject({ status_code: 200, depth: 1 });
    expect(byPath.get("/missing")).toMatchObject({ status_code: 404, report_id: null });
    expect(byPath.get("/old")).toMatchObject({
      status_code: 301,
      redirect_to: `${server.url}/a`,
      in_sitemap: true,
    });
    expect(byPath.get("/private/x")).toMatchObject({ excluded: "robots", status_code: null });
    expect(byPath.get("/file.pdf")).toMatchObject({ excluded: "not-html" });
    expect(byPath.get("/orphan")).toMatchObject({ status_code: 200, depth: null, in_sitemap: true });
    expect(byPath.get("/deep/1")).toMatchObject({ depth: 2 });
    // Followed links only: the nofollow target and the other host are never fetched.
    expect(byPath.has("/hidden")).toBe(false);
    expect(pages.some((entry: { url: string }) => entry.url.includes("elsewhere"))).toBe(false);
    expect(server.requests.some((path) => path.startsWith("/private") || path === "/hidden")).toBe(false);
    expect(crawl.pages).toMatchObject({ analysed: 5, failed: 1, excluded: 2 });

    const issues = (await call(api, "GET", `/api/v1/crawls/${crawl.id}/issues?per_page=100`, { key })).json()
      .data;
    const byCheck = new Map<string, { items: Array<Record<string, unknown>>; count: number }>(
      issues.map((issue: { check: string }) => [issue.check, issue]),
    );
    expect(byCheck.get("broken-links")?.items).toEqual([
      expect.objectContaining({ url: `${server.url}/missing`, status: 404, sources: [`${server.url}/`] }),
    ]);
    expect(byCheck.get("duplicate-title")?.items[0]).toMatchObject({
      title: "Same title",
      pages: expect.arrayContaining([`${server.url}/a`, `${server.url}/b`]),
    });
    // Every finding has its fingerprint (its identity across crawls).
    expect(byCheck.get("orphan-pages")?.items).toEqual([
      { url: `${server.url}/orphan`, fingerprint: expect.stringMatching(/^[0-9a-f]{32}$/) },
    ]);
    expect(byCheck.get("redirected-links")?.items[0]).toMatchObject({ url: `${server.url}/old` });
    expect(byCheck.get("sitemap-errors")?.items).toEqual([
      expect.objectContaining({ url: `${server.url}/old` }),
    ]);
    expect(byCheck.get("nofollow-internal-links")).toBeUndefined(); // /hidden was not fetched: not judged
    expect(crawl.issues.high).toBe(1);

    // Every analysed page is a report of the project.
    const reports = (
      await call(api, "GET", "/api/v1/reports?project=127.0.0.1&per_page=100", { key })
    ).json();
    expect(reports.meta.total).toBe(5);

    // CSV, the event stream, isolation.
    const csv = await api.app.inject({
      method: "GET",
      url: `/api/v1/crawls/${crawl.id}/pages`,
      headers: { authorization: `Bearer ${key}`, accept: "text/csv" },
    });
    expect(csv.headers["content-type"]).toBe("text/csv; charset=utf-8");
    const lines = csv.body.trim().split("\r\n");
    expect(lines[0]).toBe(
      "url,status_code,content_type,depth,inlinks,outlinks,in_sitemap,indexable,canonical,title,redirect_to,report_id,score,result,excluded,error",
    );
    expect(lines).toHaveLength(pages.length + 1);
    const events = await api.app.inject({
      method: "GET",
      url: `/api/v1/crawls/${crawl.id}/events`,
      headers: { authorization: `Bearer ${key}` },
    });
    expect(events.headers["content-type"]).toBe("text/event-stream; charset=utf-8");
    expect(events.body).toMatch(/^event: complete\ndata: \{"id":\d+,"object":"crawl"/);
    for (const path of ["", "/pages", "/issues", "/events"]) {
      expect((await call(api, "GET", `/api/v1/crawls/${crawl.id}${path}`, { key: other })).statusCode).toBe(
        404,
      );
    }
    // Finished: cancelling is a conflict; deleting keeps the reports.
    expect((await call(api, "POST", `/api/v1/crawls/${crawl.id}/cancel`, { key })).statusCode).toBe(409);
    expect((await call(api, "DELETE", `/api/v1/crawls/${crawl.id}`, { key })).json()).toMatchObject({
      deleted: true,
    });
    expect((await call(api, "GET", "/api/v1/reports?project=127.0.0.1", { key })).json().meta.total).toBe(5);
  });

  it("keeps a failing page's failure in its report's history, and marks the reports it makes as the crawl's", async () => {
    let up = true;
    const send = (response: ServerResponse, status: number, body: string) => {
      response.writeHead(status, { "content-type": "text/html; charset=utf-8" });
      response.end(body);
    };
    const flaky = await startServer({
      "/": (_request, response) => send(response, 200, page("Start", '<a href="/flaky">Flaky</a>')),
      "/flaky": (_request, response) => send(response, up ? 200 : 500, page("Flaky", "<p>Sometimes.</p>")),
    });
    try {
      const user = await api.newUser();
      const stored = await call(api, "POST", "/api/v1/reports", {
        key: user,
        form: { url: `${flaky.url}/flaky` },
      });
      expect(stored.statusCode).toBe(201);
      const reportId = stored.json().data.id;
      up = false;
      const created = await call(api, "POST", "/api/v1/crawls", {
        key: user,
        json: { url: `${flaky.url}/`, sitemaps: 0 },
      });
      const done = await waitForEndFor(created.json().data.id, user);
      expect(done.pages).toMatchObject({ analysed: 1, failed: 1 });

      const history = async (id: number) =>
        (await call(api, "GET", `/api/v1/reports/${id}/analyses`, { key: user }))
          .json()
          .data.map((analysis: { status: string; trigger: string }) => [analysis.status, analysis.trigger]);
      expect(await history(reportId)).toEqual([
        ["failed", "crawl"],
        ["complete", "create"],
      ]);
      const report = (await call(api, "GET", `/api/v1/reports/${reportId}`, { key: user })).json().data;
      expect(report).toMatchObject({ status: "failed", error: { reason: "http-status" }, analyses: 2 });
      expect(report.score).toEqual(expect.any(Number)); // it still shows its last complete analysis

      const pages = (await call(api, "GET", `/api/v1/crawls/${done.id}/pages`, { key: user })).json()
        .data as Array<{
        url: string;
        report_id: number | null;
      }>;
      const start = pages.find((entry) => entry.url === `${flaky.url}/`);
      expect(await history(start?.report_id ?? 0)).toEqual([["complete", "crawl"]]);
      const made = (await call(api, "GET", `/api/v1/reports/${start?.report_id}`, { key: user })).json().data;
      expect(made.status).toBe("complete");
    } finally {
      await flaky.close();
    }
  });

  it("judges the crawl's result by the operator's bands", async () => {
    const folder = await mkdtemp(join(tmpdir(), "pagegrade-bands-"));
    const scoringFile = join(folder, "scoring.json");
    await writeFile(scoringFile, JSON.stringify({ bands: { good: 100, decent: 100 } }));
    const strict = await startApi(kind, {
      PAGEGRADE_SCORING_FILE: scoringFile,
      PAGEGRADE_CRAWL_DELAY_MS: "0",
    });
    try {
      const user = await strict.newUser();
      const created = await call(strict, "POST", "/api/v1/crawls", {
        key: user,
        json: { url: `${server.url}/deep/1`, sitemaps: 0 },
      });
      const id = created.json().data.id;
      let crawl = { status: "queued", score: null as number | null, result: null as string | null };
      await eventually(
        async () => {
          crawl = (await call(strict, "GET", `/api/v1/crawls/${id}`, { key: user })).json().data;
          return crawl.status === "complete";
        },
        "the crawl to finish",
        30_000,
      );
      // A score the default bands call decent or good (50 and over) is bad under these.
      expect(crawl.score).toBeGreaterThanOrEqual(50);
      expect(crawl.score).toBeLessThan(100);
      expect(crawl.result).toBe("bad");
    } finally {
      await strict.close();
      await rm(folder, { recursive: true, force: true });
    }
  });

  it("fetches only what include and exclude allow, and stops at max_pages and max_depth", async () => {
    const limited = await call(api, "POST", "/api/v1/crawls", {
      key: other,
      json: { url: `${server.url}/`, include: ["/a$", "/deep/*"], sitemaps: 0 },
    });
    const done = await waitForEndFor(limited.json().data.id, other);
    const pages = (
      await call(api, "GET", `/api/v1/crawls/${done.id}/pages?per_page=100`, { key: other })
    ).json().data as Array<{ url: string; excluded: string | null; status_code: number | null }>;
    const fetched = pages
      .filter((entry) => entry.status_code !== null)
      .map((entry) => new URL(entry.url).pathname);
    expect(fetched.sort()).toEqual(["/", "/a", "/deep/1"]);
    expect(pages.find((entry) => entry.url.endsWith("/b"))?.excluded).toBe("pattern");

    // A form body, as the specification's clients send: its integers arrive as decimal strings.
    const shallow = await call(api, "POST", "/api/v1/crawls", {
      key: other,
      form: { url: `${server.url}/`, max_pages: "2", max_depth: "3", sitemaps: "0" },
    });
    expect(shallow.statusCode, shallow.body).toBe(202);
    const small = await waitForEndFor(shallow.json().data.id, other);
    expect(small.pages.analysed + small.pages.failed).toBeLessThanOrEqual(2);
    const smallPages = (
      await call(api, "GET", `/api/v1/crawls/${small.id}/pages?per_page=100`, { key: other })
    ).json().data as Array<{ excluded: string | null }>;
    expect(smallPages.some((entry) => entry.excluded === "limit")).toBe(true);
  });

  const waitForEndFor = (id: number, as: string) => endedCrawl(api, as, id);

  it("refuses bad fields with 422s naming them, more crawls than allowed with 429, and cancels a queued one", async () => {
    const idle = await startApi(kind, { PAGEGRADE_WORKERS: "0", PAGEGRADE_CRAWLS_PER_USER: "1" });
    try {
      const user = await idle.newUser();
      for (const [body, field] of [
        [{ url: "ftp://x.example/" }, "url"],
        [{ url: `${server.url}/`, max_pages: 0 }, "max_pages"],
        [{ url: `${server.url}/`, max_depth: 51 }, "max_depth"],
        [{ url: `${server.url}/`, include: ["no-slash"] }, "include"],
        [{ url: `${server.url}/`, exclude: Array.from({ length: 21 }, (_, i) => `/p${i}`) }, "exclude"],
        [{ url: `${server.url}/`, mode: "browser" }, "mode"],
        [{ url: `${server.url}/`, privacy: 2 }, "privacy"],
      ] as const) {
        const response = await call(idle, "POST", "/api/v1/crawls", { key: user, json: body });
        expect(response.statusCode, JSON.stringify(body)).toBe(422);
        expect(Object.keys(response.json().errors)).toEqual([field]);
      }
      const first = await call(idle, "POST", "/api/v1/crawls", {
        key: user,
        json: { url: `${server.url}/` },
      });
      expect(first.statusCode).toBe(202);
      const second = await call(idle, "POST", "/api/v1/crawls", {
        key: user,
        json: { url: `${server.url}/` },
      });
      expect(second.statusCode).toBe(429);
      expect(second.headers["retry-after"]).toBe("60");
      expect(second.json()).toMatchObject({
        limit: { name: "crawls", max: 1, window_seconds: null },
        retry_after: 60,
        detail: "Too many crawls queued or running: at most 1 at once per user. Try again in 60 seconds.",
      });
      const cancelled = await call(idle, "POST", `/api/v1/crawls/${first.json().data.id}/cancel`, {
        key: user,
      });
      expect(cancelled.json().data.status).toBe("cancelled");
      expect(
        (await call(idle, "POST", "/api/v1/crawls", { key: user, json: { url: `${server.url}/` } }))
          .statusCode,
      ).toBe(202);
      const listed = (await call(idle, "GET", "/api/v1/crawls?status=cancelled", { key: user })).json();
      expect(listed.meta.total).toBe(1);
    } finally {
      await idle.close();
    }
  });
});
