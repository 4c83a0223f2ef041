/**
 * One user's slow work does not hold up another's, on the embedded queue (SQLite) with default settings: user A
 * pings a webhook whose receiver (a real HTTP server on 127.0.0.1) answers only after 20 s, six times, and
 * crawls sites whose robots.txt asks for `Crawl-delay: 60`; user B's asynchronous report completes no more than
 * 2 s later than on the idle service (measured first, on the same machine), and B's small crawl takes no longer
 * than it does on the idle service. npm run test:jobs.
 */
import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { AccountService } from "../../src/accounts/account-service.js";
import { freshDatabase, type TestDatabase } from "../helpers/api.js";
import { distributedSetup } from "../helpers/distributed-setup.js";
import { eventually } from "../helpers/job-queues.js";
import { html, type LocalServer, startServer } from "../helpers/local-server.js";
import { type ServiceProcess, startServiceProcess, startWorkerProcess } from "../helpers/service-process.js";

const env = {
  PAGEGRADE_ALLOW_PRIVATE_NETWORKS: "1",
  PAGEGRADE_RATE_LIMIT: "0",
  PAGEGRADE_ANALYSIS_RATE_LIMIT: "0",
  // Quotas count what one user does; this suite measures scheduling, with more pings and crawls than they allow.
  PAGEGRADE_PING_RATE_LIMIT: "0",
  PAGEGRADE_CRAWL_START_RATE_LIMIT: "0",
};

const page = (title: string, links = "") =>
  html(
    `<!doctype html><html lang="en"><head><title>${title}, a page of the fairness test site</title></head><body><h1>${title}</h1>${links}</body></html>`,
  );

/** A site of three pages, /, /a and /b; with `crawlDelay`, its robots.txt asks for that many seconds. */
function smallSite(crawlDelay?: number): Promise<LocalServer> {
  const robots =
    crawlDelay === undefined ? "User-agent: *\nAllow: /\n" : `User-agent: *\nCrawl-delay: ${crawlDelay}\n`;
  return startServer({
    "/robots.txt": (_request, response) => {
      response.writeHead(200, { "content-type": "text/plain" }).end(robots);
    },
    "/": page("Home", '<a href="/a">A</a> <a href="/b">B</a>'),
    "/a": page("Page A", '<a href="/">Home</a>'),
    "/b": page("Page B", '<a href="/">Home</a>'),
  });
}

describe("one user's slow jobs do not delay another's (SQLite, default settings)", () => {
  const children: ChildProcess[] = [];
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function service(): Promise<{ api: ServiceProcess; database: TestDatabase }> {
    const database = await freshDatabase("sqlite");
    cleanups.push(() => database.drop());
    const api = await startServiceProcess({ ...env, DATABASE_URL: database.url });
    children.push(api.child);
    return { api, database };
  }

  async function userKey(database: TestDatabase): Promise<string> {
    const email = `${randomBytes(4).toString("hex")}@example.com`;
    return (await new AccountService(database.store).createUser(email, null)).key;
  }

  async function call(api: ServiceProcess, key: string, path: string, body?: unknown, prefer?: string) {
    const response = await fetch(`${api.url}/api/v1${path}`, {
      method: body === undefined ? "GET" : "POST",
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...(prefer ? { prefer } : {}),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as { data: Record<string, unknown> } };
  }

  /** Milliseconds from B's asynchronous POST of a report to the report being complete. */
  async function timeAsyncReport(api: ServiceProcess, key: string, url: string): Promise<number> {
    const startedAt = Date.now();
    const created = await call(api, key, "/reports", { url }, "respond-async");
    expect(created.status).toBe(202);
    const id = created.body.data.id;
    await eventually(
      async () => (await call(api, key, `/reports/${id}`)).body.data.status === "complete",
      "B's report to complete",
      30_000,
    );
    return Date.now() - startedAt;
  }

  /** Milliseconds from a crawl's POST to its completion; fails past `timeoutMs`. */
  async function timeCrawl(api: ServiceProcess, key: string, url: string, timeoutMs: number) {
    const startedAt = Date.now();
    const created = await call(api, key, "/crawls", { url, sitemaps: 0 });
    expect(created.status).toBe(202);
    const id = created.body.data.id;
    await eventually(
      async () => (await call(api, key, `/crawls/${id}`)).body.data.status === "complete",
      "the crawl to complete",
      timeoutMs,
    );
    return Date.now() - startedAt;
  }

  it("six pings to a receiver answering after 20 s delay B's asynchronous report by less than 2 s", {
    timeout: 120_000,
  }, async () => {
    const { api, database } = await service();
    const hooks: Array<() => void> = [];
    const receiver = await startServer({
      "/hook": (request, response) => {
        request.resume();
        const timer = setTimeout(() => response.writeHead(204).end(), 20_000);
        hooks.push(() => clearTimeout(timer));
      },
    });
    const site = await smallSite();
    cleanups.push(
      async () => {
        for (const stop of hooks) stop();
        await receiver.close();
      },
      () => site.close(),
    );
    const a = await userKey(database);
    const b = await userKey(database);
    const alone = await timeAsyncReport(api, b, `${site.url}/b`);
    const hook = await call(api, a, "/webhooks", { url: `${receiver.url}/hook` });
    expect(hook.status).toBe(201);
    for (let n = 0; n < 6; n++) {
      expect((await call(api, a, `/webhooks/${hook.body.data.id}/ping`, {})).status).toBe(202);
    }
    await eventually(() => receiver.requests.length >= 4, "the receiver to hold four pings", 10_000);

    const took = await timeAsyncReport(api, b, `${site.url}/a`);
    expect(took - alone).toBeLessThan(2_000);

    // The receiver's slowness costs a delivery PAGEGRADE_WEBHOOK_TIMEOUT_SECONDS (15 s), not 20 s.
    const deliveries = async () =>
      (await call(api, a, `/webhooks/${hook.body.data.id}/deliveries`)).body.data as unknown as Array<{
        attempts: number;
        last_error: string | null;
      }>;
    // Every attempt that has ended was cut at the budget (none reports a failed connection).
    const timedOut = "The receiver did not answer within 15 s.";
    let ended: Array<string | null> = [];
    await eventually(
      async () => {
        ended = (await deliveries()).map((delivery) => delivery.last_error).filter((error) => error !== null);
        return ended.length > 0;
      },
      "a ping's attempt to end at the 15 s budget",
      25_000,
    );
    expect(new Set(ended)).toEqual(new Set([timedOut]));
  });

  it("crawls waiting out a Crawl-delay of 60 s delay B's report by less than 2 s and B's crawl not at all", {
    timeout: 180_000,
  }, async () => {
    const { api, database } = await service();
    const patient = [await smallSite(60), await smallSite(60)];
    const quick = await smallSite();
    cleanups.push(async () => {
      for (const site of [...patient, quick]) await site.close();
    });
    const a = await userKey(database);
    const b = await userKey(database);
    // B's report and crawl on the idle service: their own work.
    const reportAlone = await timeAsyncReport(api, b, `${quick.url}/a?asked=alone`);
    const alone = await timeCrawl(api, b, `${quick.url}/`, 60_000);

    // A's two crawls (two parts each): each reads robots.txt, then must wait 60 s before its next request to
    // the site (the delay counts between all of a crawl's request starts, robots.txt's included); their parts
    // wait as delayed jobs, holding no slot.
    for (const site of patient)
      expect((await call(api, a, "/crawls", { url: `${site.url}/`, sitemaps: 0 })).status).toBe(202);
    await eventually(
      () => patient.some((site) => site.requests.includes("/robots.txt")),
      "A's crawls to read robots.txt",
      20_000,
    );
    await new Promise((resolve) => setTimeout(resolve, 1_500)); // their parts now wait for the next request

    const reportTook = await timeAsyncReport(api, b, `${quick.url}/b?asked=alone`);
    expect(reportTook - reportAlone).toBeLessThan(2_000);
    const crawlTook = await timeCrawl(api, b, `${quick.url}/`, 30_000);
    expect(crawlTook).toBeLessThan(Math.max(2 * alone, alone + 5_000));
    // A's crawls still honour the delay: one of their pages each at most so far.
    for (const site of patient) {
      expect(site.requests.filter((path) => ["/", "/a", "/b"].includes(path)).length).toBeLessThanOrEqual(1);
    }
  });
});

/**
 * Crawl parts take turns: user A's list crawl of a slow site (each page answers after 2 s) holds both crawl slots;
 * B's 3-page crawl of a fast site, started 1 s later, starts and completes within 10 s, because each of A's parts
 * gives its slot back after its slice (PAGEGRADE_CRAWL_SLICE_SECONDS, 5 s) and the fair queue gives it to B. Before
 * the slices, B waited for A's whole crawl (20 pages at 2 s over two parts: over 20 s). On the embedded queue
 * (SQLite, one process) and on BullMQ with two worker processes of one crawl slot each.
 */
describe("crawl parts take turns between users", () => {
  const children: ChildProcess[] = [];
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  const slowPageMs = 2_000;
  const slowPages = 20;

  /** A site whose pages /slow/N answer after `slowPageMs`; robots.txt at once. */
  async function slowSite(): Promise<LocalServer> {
    const timers = new Set<NodeJS.Timeout>();
    const site = await startServer(
      {
        "/robots.txt": (_request, response) => {
          response.writeHead(200, { "content-type": "text/plain" }).end("User-agent: *\nAllow: /\n");
        },
      },
      {
        fallback: (request, response) => {
          const timer = setTimeout(() => {
            timers.delete(timer);
            response
              .writeHead(200, { "content-type": "text/html; charset=utf-8" })
              .end(
                `<!doctype html><html lang="en"><head><title>Slow page ${request.url}</title></head><body><h1>Slow</h1></body></html>`,
              );
          }, slowPageMs);
          timers.add(timer);
        },
      },
    );
    cleanups.push(async () => {
      for (const timer of timers) clearTimeout(timer);
      await site.close();
    });
    return site;
  }

  async function userKey(database: TestDatabase): Promise<string> {
    const email = `${randomBytes(4).toString("hex")}@example.com`;
    return (await new AccountService(database.store).createUser(email, null)).key;
  }

  async function request(base: string, key: string, method: string, path: string, body?: unknown) {
    const response = await fetch(`${base}/api/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as { data: Record<string, unknown> } };
  }

  /** A's slow list crawl, then B's small crawl 1 s later: B's milliseconds from its POST to start and to end. */
  async function bBesideA(base: string, database: TestDatabase) {
    const slow = await slowSite();
    const quick = await smallSite();
    cleanups.push(() => quick.close());
    const a = await userKey(database);
    const b = await userKey(database);
    const urls = Array.from({ length: slowPages }, (_, n) => `${slow.url}/slow/${n}`);
    const listCrawl = await request(base, a, "POST", "/crawls", { urls });
    expect(listCrawl.status).toBe(202);
    await eventually(
      () => slow.requests.filter((path) => path.startsWith("/slow/")).length >= 2,
      "A's crawl to fetch with both parts",
      20_000,
    );
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const postedAt = Date.now();
    const small = await request(base, b, "POST", "/crawls", { url: `${quick.url}/`, sitemaps: 0 });
    expect(small.status).toBe(202);
    let startedIn = Number.NaN;
    await eventually(
      async () => {
        const shown = (await request(base, b, "GET", `/crawls/${small.body.data.id}`)).body.data;
        if (Number.isNaN(startedIn) && shown.status !== "queued") startedIn = Date.now() - postedAt;
        return shown.status === "complete";
      },
      "B's crawl to complete",
      40_000,
    );
    const endedIn = Date.now() - postedAt;
    const aState = (await request(base, a, "GET", `/crawls/${listCrawl.body.data.id}`)).body.data;
    await request(base, a, "POST", `/crawls/${listCrawl.body.data.id}/cancel`);
    console.log(
      `crawl turns: B's crawl started in ${startedIn} ms, complete in ${endedIn} ms; A's crawl then ${aState.status} with ${(aState.pages as { analysed: number }).analysed} of ${slowPages} pages`,
    );
    return { startedIn, endedIn, aStatus: aState.status };
  }

  it("embedded queue (SQLite): B's crawl starts and completes within 10 s beside A's slow list crawl", {
    timeout: 90_000,
  }, async () => {
    const database = await freshDatabase("sqlite");
    cleanups.push(() => database.drop());
    const api = await startServiceProcess({ ...env, DATABASE_URL: database.url });
    children.push(api.child);
    const { startedIn, endedIn, aStatus } = await bBesideA(api.url, database);
    expect(aStatus).toBe("running"); // A's crawl was still going: B did not wait for its end
    expect(startedIn).toBeLessThan(10_000);
    expect(endedIn).toBeLessThan(10_000);
  });

  it("BullMQ, two workers of one crawl slot each: B's crawl starts and completes within 10 s beside A's", {
    timeout: 120_000,
  }, async () => {
    const { database, shared, drop } = await distributedSetup();
    cleanups.push(drop);
    const api = await startServiceProcess({ ...env, ...shared, PAGEGRADE_WORKERS: "0" });
    children.push(api.child);
    for (let n = 0; n < 2; n++) {
      children.push(startWorkerProcess({ ...env, ...shared, PAGEGRADE_CRAWL_WORKERS: "1" }));
    }
    await new Promise((resolve) => setTimeout(resolve, 1_500)); // both listening before the parts arrive
    const { startedIn, endedIn, aStatus } = await bBesideA(api.url, database);
    expect(aStatus).toBe("running");
    expect(startedIn).toBeLessThan(10_000);
    expect(endedIn).toBeLessThan(10_000);
  });
});
