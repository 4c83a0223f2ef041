/**
 * The settings that say how a crawl runs: PAGEGRADE_CRAWL_WORKERS (crawl parts a process runs at once) is
 * validated against PAGEGRADE_WORKERS and honoured by the process running the jobs, and `max_pages` bounds the
 * URLs fetched, those that answered an error or could not be fetched included (the contract: it bounds fetches).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { ConfigError, loadServiceConfig } from "../../src/config.js";
import { call, startApi, type TestApi } from "../helpers/api.js";
import { eventually } from "../helpers/job-queues.js";
import { startServer } from "../helpers/local-server.js";

describe("PAGEGRADE_CRAWL_WORKERS", () => {
  const crawlWorkers = (env: Record<string, string>) => loadServiceConfig(env).crawlWorkers;

  it("defaults to 2, or to PAGEGRADE_WORKERS when that is smaller", () => {
    expect(crawlWorkers({})).toBe(2);
    expect(crawlWorkers({ PAGEGRADE_WORKERS: "1" })).toBe(1);
    expect(crawlWorkers({ PAGEGRADE_WORKERS: "8" })).toBe(2);
    expect(crawlWorkers({ PAGEGRADE_WORKERS: "8", PAGEGRADE_CRAWL_WORKERS: "8" })).toBe(8);
    // A process that runs no jobs (an API process) keeps the value; it only matters where jobs run.
    expect(crawlWorkers({ PAGEGRADE_WORKERS: "0", PAGEGRADE_CRAWL_WORKERS: "6" })).toBe(6);
  });

  it("refuses a value that is not a whole number of at least 1, or above PAGEGRADE_WORKERS", () => {
    for (const [value, message] of [
      ["0", 'PAGEGRADE_CRAWL_WORKERS must be a whole number of at least 1, got "0"'],
      ["two", 'PAGEGRADE_CRAWL_WORKERS must be a whole number of at least 1, got "two"'],
      [
        "5",
        'PAGEGRADE_CRAWL_WORKERS must be at most PAGEGRADE_WORKERS (4): crawl parts run in the shared workers, got "5"',
      ],
    ] as const) {
      expect(() => crawlWorkers({ PAGEGRADE_CRAWL_WORKERS: value }), value).toThrow(ConfigError);
      expect(() => crawlWorkers({ PAGEGRADE_CRAWL_WORKERS: value }), value).toThrow(message);
    }
  });
});

describe("PAGEGRADE_CRAWL_SLICE_SECONDS and PAGEGRADE_CRAWL_SLICE_PAGES", () => {
  it("default to a turn of 5 s or 500 pages, and refuse anything but a whole number of at least 1", () => {
    expect(loadServiceConfig({}).crawls.slice).toEqual({ ms: 5_000, pages: 500 });
    const set = { PAGEGRADE_CRAWL_SLICE_SECONDS: "2", PAGEGRADE_CRAWL_SLICE_PAGES: "10" };
    expect(loadServiceConfig(set).crawls.slice).toEqual({ ms: 2_000, pages: 10 });
    expect(() => loadServiceConfig({ PAGEGRADE_CRAWL_SLICE_SECONDS: "0" })).toThrow(ConfigError);
    expect(() => loadServiceConfig({ PAGEGRADE_CRAWL_SLICE_PAGES: "many" })).toThrow(ConfigError);
  });
});

/** Pages /p/0 … /p/(count-1), each answering after `delayMs` and linking to the next three; counts pages in flight. */
async function slowSite(count: number, delayMs: number) {
  const state = { inFlight: 0, mostInFlight: 0 };
  const server = await startServer(
    {},
    {
      fallback: (request: IncomingMessage, response: ServerResponse) => {
        const match = /^\/p\/(\d+)$/.exec(request.url ?? "");
        if (!match) return response.writeHead(404).end();
        const n = Number(match[1]);
        state.inFlight++;
        state.mostInFlight = Math.max(state.mostInFlight, state.inFlight);
        const links = [n + 1, n + 2, n + 3]
          .filter((k) => k < count)
          .map((k) => `<a href="/p/${k}">Page ${k}</a>`);
        setTimeout(() => {
          state.inFlight--;
          response
            .writeHead(200, { "content-type": "text/html; charset=utf-8" })
            .end(
              `<!doctype html><html lang="en"><title>Page ${n} of the guide</title><h1>Page ${n}</h1>${links.join(" ")}</html>`,
            );
        }, delayMs);
      },
    },
  );
  return { server, state };
}

async function crawlToTheEnd(api: TestApi, key: string, body: Record<string, unknown>) {
  const started = await call(api, "POST", "/api/v1/crawls", { key, json: body });
  expect(started.statusCode, started.body).toBe(202);
  const id = started.json().data.id as number;
  const read = async () => (await call(api, "GET", `/api/v1/crawls/${id}`, { key })).json().data;
  await eventually(async () => (await read()).status === "complete", "the crawl to complete", 25_000);
  return { id, crawl: await read() };
}

describe("crawl settings in a running service (SQLite, the embedded queue)", () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function service(env: Record<string, string>): Promise<TestApi> {
    const api = await startApi("sqlite", { PAGEGRADE_CRAWL_DELAY_MS: "0", PAGEGRADE_WORKERS: "4", ...env });
    cleanups.push(() => api.close());
    return api;
  }

  it("runs at most PAGEGRADE_CRAWL_WORKERS of a crawl's parts at once", async () => {
    const pages = 8;
    for (const [crawlWorkers, expected] of [
      ["1", (most: number) => expect(most).toBe(1)],
      ["3", (most: number) => expect(most).toBeGreaterThan(1)],
    ] as const) {
      const { server, state } = await slowSite(pages, 150);
      cleanups.push(() => server.close());
      // Three parts, each sending one request at a time: the site sees as many at once as parts run.
      const api = await service({
        PAGEGRADE_CRAWL_HOST_CONCURRENCY: "3",
        PAGEGRADE_CRAWL_WORKERS: crawlWorkers,
      });
      const { crawl } = await crawlToTheEnd(api, await api.newUser(), {
        url: `${server.url}/p/0`,
        sitemaps: 0,
        max_depth: 50,
      });
      expect(crawl.pages.analysed).toBe(pages);
      expected(state.mostInFlight);
    }
  });

  it("counts URLs that answered an error or could not be fetched against max_pages", async () => {
    const fetched: string[] = [];
    const page = (body: string) => (request: IncomingMessage, response: ServerResponse) => {
      fetched.push(request.url ?? "");
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      response.end(
        `<!doctype html><html lang="en"><title>A page of the shop</title><h1>Shop</h1>${body}</html>`,
      );
    };
    const gone = (request: IncomingMessage, response: ServerResponse) => {
      fetched.push(request.url ?? "");
      response.writeHead(404, { "content-type": "text/html" }).end("gone");
    };
    // The broken connection: the socket closes before any answer.
    const broken = (request: IncomingMessage, response: ServerResponse) => {
      fetched.push(request.url ?? "");
      response.socket?.destroy();
    };
    const server = await startServer({
      "/": page(
        '<a href="/gone-1">1</a> <a href="/gone-2">2</a> <a href="/broken">3</a> <a href="/a">A</a> <a href="/b">B</a>',
      ),
      "/gone-1": gone,
      "/gone-2": gone,
      "/broken": broken,
      "/a": page("<p>A.</p>"),
      "/b": page("<p>B.</p>"),
    });
    cleanups.push(() => server.close());
    const api = await service({ PAGEGRADE_CRAWL_HOST_CONCURRENCY: "1" });
    const key = await api.newUser();
    const { id, crawl } = await crawlToTheEnd(api, key, { url: `${server.url}/`, sitemaps: 0, max_pages: 4 });
    // The start page and the first three links in the frontier's order: the two 404s and the broken one.
    expect(fetched).toEqual(["/", "/gone-1", "/gone-2", "/broken"]);
    expect({ analysed: crawl.pages.analysed, failed: crawl.pages.failed }).toEqual({
      analysed: 1,
      failed: 3,
    });
    const listed = (await call(api, "GET", `/api/v1/crawls/${id}/pages?per_page=100`, { key })).json()
      .data as Array<{
      url: string;
      excluded: string | null;
    }>;
    expect(
      listed
        .filter((entry) => entry.excluded === "limit")
        .map((entry) => new URL(entry.url).pathname)
        .sort(),
    ).toEqual(["/a", "/b"]);
  });
});
