/**
 * A crawl behind a login in rendered mode: Chromium adds the crawl's headers to the requests of the crawl's own
 * host only. The page on 127.0.0.1 loads an image, a script, a stylesheet and an iframe from a second host on
 * 127.0.0.2, an image of its own that redirects there, and a frame of its own that loads from there too; the
 * second host records every request and sees none of the headers, while the crawl's host sees them on its
 * document, its subresources and its frame.
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, startApi, type TestApi } from "../helpers/api.js";
import { chromiumPath } from "../helpers/browser.js";
import { eventually } from "../helpers/job-queues.js";
import { type LocalServer, startServer } from "../helpers/local-server.js";

const cookie = "session=rendered-cookie-4e1d";
const token = "rendered-token-93ac";

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
}

function recorder(log: Received[], respond: (path: string, response: ServerResponse) => void) {
  return (request: IncomingMessage, response: ServerResponse) => {
    const path = new URL(request.url ?? "/", "http://x").pathname;
    log.push({ path, headers: request.headers });
    respond(path, response);
  };
}

const pixel = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mP8/x8AAwMCAO+ip1sAAAAASUVORK5CYII=",
  "base64",
);

function serve(path: string, response: ServerResponse, pages: Record<string, string>): void {
  if (pages[path] !== undefined) {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    response.end(pages[path]);
  } else if (path.endsWith(".png")) {
    response.writeHead(200, { "content-type": "image/png" });
    response.end(pixel);
  } else if (path.endsWith(".js")) {
    response.writeHead(200, { "content-type": "text/javascript" });
    response.end("document.documentElement.dataset.ran = '1';");
  } else if (path.endsWith(".css")) {
    response.writeHead(200, { "content-type": "text/css" });
    response.end("body { margin: 0; }");
  } else {
    response.writeHead(404, { "content-type": "text/plain" });
    response.end("not here");
  }
}

describe("a rendered crawl behind a login", () => {
  let api: TestApi;
  let site: LocalServer;
  let other: LocalServer;
  let key: string;
  const onSite: Received[] = [];
  const onOther: Received[] = [];

  beforeAll(async () => {
    other = await startServer(
      {},
      {
        host: "127.0.0.2",
        fallback: recorder(onOther, (path, response) =>
          serve(path, response, {
            "/frame.html":
              '<!doctype html><html lang="en"><title>Frame</title><img src="/in-frame.png" alt=""></html>',
          }),
        ),
      },
    );
    const elsewhere = other.url;
    site = await startServer(
      {},
      {
        fallback: recorder(onSite, (path, response) => {
          if (path === "/bounce.png") {
            response.writeHead(302, { location: `${elsewhere}/bounced.png` });
            response.end();
            return;
          }
          serve(path, response, {
            "/": `<!doctype html><html lang="en"><head><title>Members</title>
              <link rel="stylesheet" href="${elsewhere}/style.css"><script src="${elsewhere}/script.js"></script>
              <script src="/own.js"></script></head><body><h1>Members</h1>
              <img src="/own.png" alt="own"> <img src="${elsewhere}/pixel.png" alt="elsewhere">
              <img src="/bounce.png" alt="bounce">
              <iframe src="${elsewhere}/frame.html" title="elsewhere"></iframe>
              <iframe src="/own-frame.html" title="own"></iframe></body></html>`,
            "/own-frame.html": `<!doctype html><html lang="en"><title>Own frame</title>
              <img src="/own-frame.png" alt=""><img src="${elsewhere}/from-own-frame.png" alt=""></html>`,
          });
        }),
      },
    );
    api = await startApi("sqlite", {
      PAGEGRADE_CRAWL_DELAY_MS: "0",
      PAGEGRADE_ENCRYPTION_KEY: "b".repeat(64),
      PAGEGRADE_ALLOWED_ADDRESSES: "127.0.0.2",
      PAGEGRADE_CHROMIUM_PATH: chromiumPath,
    });
    key = await api.newUser();
  });
  afterAll(async () => {
    await api?.close();
    await site?.close();
    await other?.close();
  });

  it("adds the headers to the crawl's host's requests only", async () => {
    const created = await call(api, "POST", "/api/v1/crawls", {
      key,
      json: {
        url: `${site.url}/`,
        mode: "rendered",
        max_pages: 1,
        sitemaps: 0,
        headers: { Cookie: cookie, "X-Test-Token": token },
      },
    });
    expect(created.statusCode, created.body).toBe(202);
    const id = created.json().data.id as number;
    await eventually(
      async () =>
        ["complete", "failed"].includes(
          (await call(api, "GET", `/api/v1/crawls/${id}`, { key })).json().data.status,
        ),
      "the crawl's end",
      60_000,
    );
    const crawl = (await call(api, "GET", `/api/v1/crawls/${id}`, { key })).json().data;
    expect(crawl.status, JSON.stringify(crawl.error)).toBe("complete");
    expect(crawl.pages.analysed).toBe(1);

    const sitePaths = onSite.map((request) => request.path);
    for (const path of ["/", "/own.png", "/own.js", "/bounce.png", "/own-frame.html", "/own-frame.png"]) {
      expect(sitePaths, path).toContain(path);
    }
    for (const request of onSite) {
      expect(request.headers.cookie, request.path).toBe(cookie);
      expect(request.headers["x-test-token"], request.path).toBe(token);
    }
    const otherPaths = onOther.map((request) => request.path);
    for (const path of [
      "/style.css",
      "/script.js",
      "/pixel.png",
      "/bounced.png",
      "/frame.html",
      "/in-frame.png",
      "/from-own-frame.png",
    ]) {
      expect(otherPaths, path).toContain(path);
    }
    for (const request of onOther) {
      expect(request.headers.cookie, request.path).toBeUndefined();
      expect(request.headers["x-test-token"], request.path).toBeUndefined();
    }
  });
});
