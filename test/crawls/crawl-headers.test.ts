/**
 * Crawls behind a login (`headers`), raw mode, through the API: the headers reach every request to the crawl's
 * own host (pages, robots.txt, sitemaps, host probes) and nothing else, proved by a second host on 127.0.0.2
 * that records what it receives (a redirect to it, a sitemap listed on it, a link to it); their values are
 * never shown (API, web page), never stored in the clear, never logged, and a scheduled re-run sends them again.
 * Refusals: more than 5, hop-by-hop names and Host, names outside Cookie/Authorization/X-…, no encryption key.
 */
import { execFile } from "node:child_process";
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import { PassThrough } from "node:stream";
import { promisify } from "node:util";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, startApi, type TestApi } from "../helpers/api.js";
import { eventually } from "../helpers/job-queues.js";
import { type LocalServer, startServer } from "../helpers/local-server.js";
import { WebClient } from "../helpers/web-client.js";

const run = promisify(execFile);
const bin = new URL("../../bin/pagegrade.js", import.meta.url).pathname;

const secretCookie = "session=cookie-value-7f3a9c";
const secretToken = "token-value-51be0d";
const encryptionKey = "a".repeat(64);

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
}

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><title>${title}</title></head><body><h1>${title}</h1>${body}</body></html>`;

function recording(log: Received[], routes: Record<string, (response: ServerResponse) => void>) {
  return (request: IncomingMessage, response: ServerResponse) => {
    const path = new URL(request.url ?? "/", "http://x").pathname;
    log.push({ path, headers: request.headers });
    const route = routes[path];
    if (route) route(response);
    else {
      response.writeHead(404, { "content-type": "text/plain" });
      response.end("not here");
    }
  };
}

const htmlOf = (text: string) => (response: ServerResponse) => {
  response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
  response.end(text);
};
const xmlOf = (text: string) => (response: ServerResponse) => {
  response.writeHead(200, { "content-type": "application/xml" });
  response.end(text);
};
const redirectTo = (location: string) => (response: ServerResponse) => {
  response.writeHead(302, { location });
  response.end();
};

describe("a crawl behind a login", () => {
  let api: TestApi;
  let site: LocalServer;
  let other: LocalServer;
  let key: string;
  const onSite: Received[] = [];
  const onOther: Received[] = [];
  const logs: string[] = [];

  beforeAll(async () => {
    let otherUrl = "";
    let siteUrl = "";
    other = await startServer(
      {},
      {
        host: "127.0.0.2",
        fallback: recording(onOther, {
          "/landing": htmlOf(page("Elsewhere", "<p>Another host.</p>")),
          "/sitemap-b.xml": xmlOf(
            '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"></urlset>',
          ),
          "/moved-sitemap.xml": xmlOf(
            '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"></urlset>',
          ),
        }),
      },
    );
    otherUrl = other.url;
    site = await startServer(
      {},
      {
        fallback: recording(onSite, {
          "/": htmlOf(
            page(
              "Members area",
              `<a href="/a">A</a> <a href="/away">Away</a> <a href="${otherUrl}/linked">Linked</a>`,
            ),
          ),
          "/a": htmlOf(page("Page A", '<a href="/">Home</a>')),
          "/b": htmlOf(page("Page B", '<a href="/">Home</a>')),
          "/away": (response) => redirectTo(`${otherUrl}/landing`)(response),
          "/robots.txt": (response) => {
            response.writeHead(200, { "content-type": "text/plain" });
            response.end(`User-agent: *\nAllow: /\nSitemap: ${siteUrl}/sitemap-index.xml\n`);
          },
          "/sitemap-index.xml": (response) =>
            xmlOf(
              `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${siteUrl}/sitemap-a.xml</loc></sitemap><sitemap><loc>${otherUrl}/sitemap-b.xml</loc></sitemap><sitemap><loc>${siteUrl}/sitemap-moved.xml</loc></sitemap></sitemapindex>`,
            )(response),
          "/sitemap-a.xml": (response) =>
            xmlOf(
              `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${siteUrl}/b</loc></url></urlset>`,
            )(response),
          "/sitemap-moved.xml": (response) => redirectTo(`${otherUrl}/moved-sitemap.xml`)(response),
        }),
      },
    );
    siteUrl = site.url;
    const logStream = new PassThrough();
    logStream.on("data", (chunk: Buffer) => logs.push(chunk.toString("utf8")));
    api = await startApi(
      "sqlite",
      {
        PAGEGRADE_CRAWL_DELAY_MS: "0",
        PAGEGRADE_ENCRYPTION_KEY: encryptionKey,
        PAGEGRADE_SCHEDULE_INTERVALS: "daily=1,weekly=3600",
        PAGEGRADE_ALLOWED_ADDRESSES: "127.0.0.2",
        LOG_LEVEL: "debug",
      },
      { logStream },
    );
    key = await api.newUser();
  });
  afterAll(async () => {
    await api?.close();
    await site?.close();
    await other?.close();
  });

  const crawlsOf = async () =>
    (await call(api, "GET", "/api/v1/crawls?sort=asc&per_page=100", { key })).json().data as Array<
      Record<string, unknown> & { id: number; status: string }
    >;

  it("sends the headers to the crawl's host only, shows their names only, and sends them again on schedule", async () => {
    const created = await call(api, "POST", "/api/v1/crawls", {
      key,
      json: {
        url: `${site.url}/`,
        schedule: "daily",
        headers: { Cookie: secretCookie, "X-Test-Token": secretToken },
      },
    });
    expect(created.statusCode).toBe(202);
    const crawl = created.json().data;
    expect(crawl.header_names).toEqual(["Cookie", "X-Test-Token"]);
    expect(crawl).not.toHaveProperty("headers");
    expect(created.body).not.toContain("cookie-value");
    expect(created.body).not.toContain(secretToken);

    // Two runs: the first and the one its schedule started.
    await eventually(
      async () => (await crawlsOf()).filter((run) => run.status === "complete").length >= 2,
      "two complete runs",
      30_000,
    );
    const runs = (await crawlsOf()).filter((run) => run.status === "complete");
    for (const run of runs) expect(run.header_names).toEqual(["Cookie", "X-Test-Token"]);

    // Every request to the crawl's host carried both headers: pages, robots.txt, sitemaps and host probes.
    const paths = new Set(onSite.map((request) => request.path));
    for (const path of [
      "/",
      "/a",
      "/b",
      "/away",
      "/robots.txt",
      "/sitemap-index.xml",
      "/sitemap-a.xml",
      "/sitemap-moved.xml",
      "/llms.txt",
      "/favicon.ico",
    ]) {
      expect(paths, path).toContain(path);
    }
    expect(
      paths.has("/pagegrade-missing-") || [...paths].some((path) => path.startsWith("/pagegrade-missing-")),
    ).toBe(true);
    for (const request of onSite) {
      expect(request.headers.cookie, request.path).toBe(secretCookie);
      expect(request.headers["x-test-token"], request.path).toBe(secretToken);
    }
    // Each path the first run asked for was asked for again by the scheduled run (twice in all at least).
    expect(onSite.filter((request) => request.path === "/").length).toBeGreaterThanOrEqual(2);
    expect(onSite.filter((request) => request.path === "/robots.txt").length).toBeGreaterThanOrEqual(2);

    // The other host got requests (a sitemap listed there, a sitemap redirected there), never the headers;
    // a redirect to it is recorded, not followed, and a link to it is never fetched.
    const otherPaths = onOther.map((request) => request.path);
    expect(otherPaths).toContain("/sitemap-b.xml");
    expect(otherPaths).toContain("/moved-sitemap.xml");
    expect(otherPaths).not.toContain("/linked");
    for (const request of onOther) {
      expect(request.headers.cookie, request.path).toBeUndefined();
      expect(request.headers["x-test-token"], request.path).toBeUndefined();
      expect(JSON.stringify(request.headers)).not.toContain(secretToken);
    }
  });

  it("never shows, stores in the clear or logs the values", async () => {
    const [first] = await crawlsOf();
    expect(first).toBeDefined();
    const id = (first as { id: number }).id;
    const shown = [
      (await call(api, "GET", `/api/v1/crawls/${id}`, { key })).body,
      (await call(api, "GET", "/api/v1/crawls", { key })).body,
      (await call(api, "GET", `/api/v1/crawls/${id}/pages`, { key })).body,
    ];
    for (const body of shown) {
      expect(body).not.toContain("cookie-value");
      expect(body).not.toContain(secretToken);
    }
    const rows = await sql<{ headers: string | null; header_names: string }>`
      select headers, header_names from crawls`.execute(api.database.store.db);
    expect(rows.rows.length).toBeGreaterThanOrEqual(2);
    for (const row of rows.rows) {
      expect(row.headers).toMatch(/^v1:/);
      expect(row.headers).not.toContain("cookie-value");
      expect(row.headers).not.toContain(secretToken);
      expect(Buffer.from((row.headers ?? "").slice(3), "base64").toString("latin1")).not.toContain(
        secretToken,
      );
      expect(JSON.parse(row.header_names)).toEqual(["Cookie", "X-Test-Token"]);
    }
    const logged = logs.join("");
    expect(logged.length).toBeGreaterThan(0);
    expect(logged).not.toContain("cookie-value");
    expect(logged).not.toContain(secretToken);
  });

  it("refuses headers it may not send, naming the field", async () => {
    const refused = async (headers: unknown) => {
      const response = await call(api, "POST", "/api/v1/crawls", {
        key,
        json: { url: `${site.url}/`, headers },
      });
      expect(response.statusCode, JSON.stringify(headers)).toBe(422);
      expect(Object.keys(response.json().errors)).toEqual(["headers"]);
      return response.json().errors.headers[0] as string;
    };
    expect(
      await refused(Object.fromEntries([1, 2, 3, 4, 5, 6].map((n) => [`X-Header-${n}`, "v"]))),
    ).toContain("at most 5");
    expect(await refused({ Host: "example.com" })).toContain("Host");
    expect(await refused({ Connection: "close" })).toContain("Connection");
    expect(await refused({ "Transfer-Encoding": "chunked" })).toContain("Transfer-Encoding");
    expect(await refused({ "Proxy-Authorization": "Basic x" })).toContain("Proxy-Authorization");
    expect(await refused({ "Accept-Language": "fr" })).toContain("only Cookie, Authorization and X-");
    expect(await refused({ "X-Bad": "one\r\nInjected: two" })).toContain("line breaks");
    expect(await refused({ "Bad Name": "v" })).toContain("not a header name");
    expect(await refused(["Cookie a=b"])).toContain("Name: value");
    expect(await refused({ "x-a": "1", "X-A": "2" })).toContain("twice");
  });

  it("takes repeated form fields written Name: value", async () => {
    const response = await api.app.inject({
      method: "POST",
      url: "/api/v1/crawls",
      headers: {
        authorization: `Bearer ${key}`,
        accept: "application/json",
        "content-type": "application/x-www-form-urlencoded",
      },
      payload: new URLSearchParams([
        ["url", `${site.url}/`],
        ["max_pages", "1"],
        ["sitemaps", "0"],
        ["headers", "Authorization: Bearer abc"],
        ["headers", "X-Tenant: 42"],
      ]).toString(),
    });
    expect(response.statusCode).toBe(202);
    expect(response.json().data.header_names).toEqual(["Authorization", "X-Tenant"]);
  });
});

describe("headers from the web form and the command line", () => {
  let api: TestApi;
  let site: LocalServer;
  const received: Received[] = [];

  beforeAll(async () => {
    site = await startServer(
      {},
      {
        fallback: recording(received, {
          "/": htmlOf(page("Members area", '<a href="/a">A</a>')),
          "/a": htmlOf(page("Page A", '<a href="/">Home</a>')),
        }),
      },
    );
    api = await startApi("sqlite", {
      PAGEGRADE_CRAWL_DELAY_MS: "0",
      PAGEGRADE_ENCRYPTION_KEY: encryptionKey,
    });
  });
  afterAll(async () => {
    await api?.close();
    await site?.close();
  });

  it("takes them from the form, one per line, and shows only their names", async () => {
    const owner = new WebClient(api.app);
    await owner.signUp("login@example.com");
    const refused = await owner.post("/crawls", {
      url: `${site.url}/`,
      headers: `Cookie: ${secretCookie}\nHost: example.com`,
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toContain("The Host header cannot be set");
    expect(refused.body).not.toContain("cookie-value");
    const started = await owner.post("/crawls", {
      url: `${site.url}/`,
      max_pages: "5",
      headers: `Cookie: ${secretCookie}\r\nX-Test-Token: ${secretToken}\r\n`,
    });
    expect(started.statusCode).toBe(303);
    const path = started.headers.location as string;
    await eventually(
      async () => !(await owner.get(path)).body.includes('http-equiv="refresh"'),
      "the crawl",
      20_000,
    );
    const shown = await owner.get(path);
    expect(shown.body).toContain("sends Cookie, X-Test-Token");
    expect(shown.body).not.toContain("cookie-value");
    expect(shown.body).not.toContain(secretToken);
    expect((await owner.get("/crawls")).body).not.toContain(secretToken);
    const home = received.filter((request) => request.path === "/");
    expect(home.length).toBeGreaterThan(0);
    for (const request of home) expect(request.headers["x-test-token"]).toBe(secretToken);
  });

  it("takes them from pagegrade crawl --header, repeatable", async () => {
    received.length = 0;
    const { stdout } = await run(
      process.execPath,
      [
        bin,
        "crawl",
        `${site.url}/`,
        "--header",
        `Cookie: ${secretCookie}`,
        "--header",
        `X-Test-Token: ${secretToken}`,
        "--no-sitemaps",
      ],
      { env: { ...process.env, PAGEGRADE_ALLOW_PRIVATE_NETWORKS: "1", PAGEGRADE_CRAWL_DELAY_MS: "0" } },
    );
    expect(stdout).not.toContain(secretToken);
    expect(received.map((request) => request.path)).toEqual(
      expect.arrayContaining(["/", "/a", "/robots.txt"]),
    );
    for (const request of received) {
      expect(request.headers.cookie, request.path).toBe(secretCookie);
      expect(request.headers["x-test-token"], request.path).toBe(secretToken);
    }
    const refused = await run(
      process.execPath,
      [bin, "crawl", `${site.url}/`, "--header", "Host: example.com"],
      {
        env: { ...process.env, PAGEGRADE_ALLOW_PRIVATE_NETWORKS: "1" },
      },
    ).catch((error: { code: number; stderr: string }) => error);
    expect((refused as { code: number }).code).toBe(2);
    expect((refused as { stderr: string }).stderr).toContain("The Host header cannot be set");
  });
});

describe("a server without an encryption key", () => {
  it("refuses a crawl with headers rather than store them in the clear", async () => {
    const api = await startApi("sqlite", { PAGEGRADE_CRAWL_DELAY_MS: "0" });
    try {
      const key = await api.newUser();
      const response = await call(api, "POST", "/api/v1/crawls", {
        key,
        json: { url: "http://127.0.0.1:9/", headers: { Cookie: "a=b" } },
      });
      expect(response.statusCode).toBe(422);
      expect(response.json().errors.headers[0]).toContain("PAGEGRADE_ENCRYPTION_KEY");
    } finally {
      await api.close();
    }
  });
});
