import { readFileSync } from "node:fs";
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Analyzer } from "../../src/analysis/analyse.js";
import { buildApp } from "../../src/app.js";
import { loadAnalysisConfig, loadServiceConfig } from "../../src/config.js";
import { call, freshDatabase, startApi, type TestApi } from "../helpers/api.js";
import { html, type LocalServer, startServer } from "../helpers/local-server.js";
import { awayFromWindowEdge } from "../helpers/rate-window.js";
import { WebClient } from "../helpers/web-client.js";

/**
 * Quotas on every door and secrets kept out of storage, as a hostile tester would probe them on SQLite: the
 * web forms, re-runs, crawl starts, pings, PDFs, sign-ups and event streams hit the same limits as the API
 * (429, Retry-After, a message naming the limit); a freshly made API key or webhook secret is nowhere in the
 * database's bytes (main file and WAL); cookies are Secure behind a trusted TLS proxy; a missing encryption
 * key is said at start-up.
 */
describe("quotas on every door", () => {
  beforeEach(() => awayFromWindowEdge());
  let api: TestApi;
  let site: LocalServer;
  let receiver: LocalServer;
  const refused = { web: 0, api: 0 };

  beforeAll(async () => {
    site = await startServer({
      "/": html('<!doctype html><html lang="en"><title>A page for quotas</title><p>Hello</p></html>'),
    });
    receiver = await startServer({ "/hook": (_request, response) => response.end("ok") });
    api = await startApi("sqlite", {
      PAGEGRADE_ANALYSIS_RATE_LIMIT: "3",
      PAGEGRADE_CRAWL_START_RATE_LIMIT: "2",
      PAGEGRADE_CRAWLS_PER_USER: "10",
      PAGEGRADE_PING_RATE_LIMIT: "2",
      PAGEGRADE_PDF_RATE_LIMIT: "2",
      PAGEGRADE_SIGNUP_RATE_LIMIT: "3",
      PAGEGRADE_CRAWL_DELAY_MS: "0",
    });
  });
  afterAll(async () => {
    console.log(`quotas: ${refused.web} web and ${refused.api} API requests refused with 429`);
    await api?.close();
    await site?.close();
    await receiver?.close();
  });

  /** A signed-up web user (from its own address, so sign-ups per address do not interfere) and its API key. */
  let users = 0;
  const webUser = async () => {
    users++;
    const client = new WebClient(api.app, `203.0.113.${users}`);
    await client.signUp(`quota-${users}@example.com`);
    const key = await client.createApiKey();
    return { client, key };
  };

  /** A refused page: 429, Retry-After, and a readable message naming the limit and its number. */
  const expectRefusedPage = (
    response: { statusCode: number; headers: Record<string, unknown>; body: string },
    message: string,
  ) => {
    expect(response.statusCode).toBe(429);
    expect(Number(response.headers["retry-after"])).toBeGreaterThan(0);
    expect(String(response.headers["content-type"])).toContain("text/html");
    expect(response.body).toContain(message);
    refused.web++;
  };

  /** A refused API call: a 429 problem naming the limit, its number and window, and when to retry. */
  const expectRefusedProblem = (
    response: { statusCode: number; headers: Record<string, unknown>; json(): Record<string, unknown> },
    name: string,
    max: number,
  ) => {
    expect(response.statusCode).toBe(429);
    const retryAfter = Number(response.headers["retry-after"]);
    expect(retryAfter).toBeGreaterThan(0);
    const body = response.json();
    expect(body.limit).toMatchObject({ name, max });
    expect(body.retry_after).toBe(retryAfter);
    expect(String(body.detail)).toContain(`at most ${max}`);
    refused.api++;
  };

  it("counts analyses from the web form against the same per-user limit as the API", async () => {
    const { client, key } = await webUser();
    for (let index = 0; index < 3; index++) {
      const created = await client.post("/reports", { url: `${site.url}/`, privacy: "0", duplicate: "1" });
      expect(created.statusCode).toBe(303);
    }
    const fourth = await client.post("/reports", { url: `${site.url}/`, privacy: "0", duplicate: "1" });
    expectRefusedPage(fourth, "Too many analyses: at most 3 per minute per user.");
    // The API sees the same count: the web form's analyses used the user's budget.
    const throughApi = await call(api, "POST", "/api/v1/reports", { key, form: { url: `${site.url}/` } });
    expectRefusedProblem(throughApi, "analyses", 3);
    expect(throughApi.headers["ratelimit-policy"]).toBe('"analyses";q=3;w=60');
  });

  it("counts re-runs from the manage page as analyses", async () => {
    const { client } = await webUser();
    const created = await client.post("/reports", { url: `${site.url}/`, privacy: "0" });
    const id = String(created.headers.location).split("/").pop();
    expect((await client.post(`/reports/${id}/rerun`)).statusCode).toBe(303);
    expect((await client.post(`/reports/${id}/rerun`)).statusCode).toBe(303);
    expectRefusedPage(await client.post(`/reports/${id}/rerun`), "Too many analyses: at most 3 per minute");
  });

  it("limits crawl starts per user, from the pages and the API alike", async () => {
    const { client, key } = await webUser();
    for (let index = 0; index < 2; index++) {
      const started = await client.post("/crawls", { url: `${site.url}/`, max_pages: "1" });
      expect(started.statusCode).toBe(303);
    }
    expectRefusedPage(
      await client.post("/crawls", { url: `${site.url}/`, max_pages: "1" }),
      "Too many crawl starts: at most 2 per minute per user.",
    );
    const throughApi = await call(api, "POST", "/api/v1/crawls", { key, form: { url: `${site.url}/` } });
    expectRefusedProblem(throughApi, "crawl-starts", 2);
  });

  it("charges a crawl start only once the crawl is valid: refused crawls (422) use up no start, on both doors", async () => {
    const { client, key } = await webUser();
    // Valid to the schema, refused by the service (two projects in one list): before, each of these used a start.
    const twoProjects = ["https://a.example/", "https://b.example/"];
    for (let index = 0; index < 3; index++) {
      const refusedCrawl = await call(api, "POST", "/api/v1/crawls", { key, json: { urls: twoProjects } });
      expect(refusedCrawl.statusCode, refusedCrawl.body).toBe(422);
      const refusedForm = await client.post("/crawls", { urls: twoProjects.join("\n") });
      expect(refusedForm.statusCode).toBe(422);
    }
    const first = await call(api, "POST", "/api/v1/crawls", {
      key,
      form: { url: `${site.url}/`, max_pages: "1" },
    });
    expect(first.statusCode, first.body).toBe(202);
    expect((await client.post("/crawls", { url: `${site.url}/`, max_pages: "1" })).statusCode).toBe(303);
    // The two valid ones spent the budget of 2.
    const third = await call(api, "POST", "/api/v1/crawls", { key, form: { url: `${site.url}/` } });
    expectRefusedProblem(third, "crawl-starts", 2);
  });

  it("refuses a crawl past the crawls a user may have queued or running, naming that limit on both doors", async () => {
    // No job workers: a started crawl stays queued, so the user's one place stays taken.
    const idle = await startApi("sqlite", { PAGEGRADE_WORKERS: "0", PAGEGRADE_CRAWLS_PER_USER: "1" });
    try {
      const client = new WebClient(idle.app, "203.0.113.200");
      await client.signUp("crawls-at-once@example.com");
      const key = await client.createApiKey();
      expect((await client.post("/crawls", { url: `${site.url}/`, max_pages: "1" })).statusCode).toBe(303);
      const page = await client.post("/crawls", { url: `${site.url}/`, max_pages: "1" });
      expectRefusedPage(
        page,
        "Too many crawls queued or running: at most 1 at once per user. Try again in 60",
      );
      const throughApi = await call(idle, "POST", "/api/v1/crawls", { key, form: { url: `${site.url}/` } });
      expectRefusedProblem(throughApi, "crawls", 1);
      expect(throughApi.json().limit).toEqual({ name: "crawls", max: 1, window_seconds: null });
    } finally {
      await idle.close();
    }
  });

  it("limits webhook pings per user, from the pages and the API alike", async () => {
    const { client, key } = await webUser();
    const added = await client.post("/account/webhooks", { url: `${receiver.url}/hook` });
    expect(added.statusCode).toBe(200);
    const id = /href="\/account\/webhooks\/(\d+)"/.exec(added.body)?.[1] as string;
    expect((await client.post(`/account/webhooks/${id}/ping`)).statusCode).toBe(303);
    expect((await client.post(`/account/webhooks/${id}/ping`)).statusCode).toBe(303);
    expectRefusedPage(
      await client.post(`/account/webhooks/${id}/ping`),
      "Too many webhook pings: at most 2 per minute per user.",
    );
    expectRefusedProblem(await call(api, "POST", `/api/v1/webhooks/${id}/ping`, { key }), "pings", 2);
  });

  it("limits anonymous PDFs of a public report per client address, and signed-in PDFs per user", async () => {
    const { client, key } = await webUser();
    const created = await client.post("/reports", { url: `${site.url}/`, privacy: "0" });
    const id = String(created.headers.location).split("/").pop();
    const stranger = new WebClient(api.app, "198.51.100.40");
    const statuses: number[] = [];
    for (let index = 0; index < 3; index++)
      statuses.push((await stranger.get(`/reports/${id}.pdf`)).statusCode);
    // The first two are printed (200, or 503 while the printer is busy); the third is refused before printing.
    expect(statuses.slice(0, 2).every((status) => status !== 429)).toBe(true);
    expectRefusedPage(
      await stranger.get(`/reports/${id}.pdf`),
      "Too many PDFs: at most 2 per minute per client address.",
    );
    // Another address has its own count.
    expect((await new WebClient(api.app, "198.51.100.41").get(`/reports/${id}.pdf`)).statusCode).not.toBe(
      429,
    );
    // Through the API the caller is counted per user; the count comes before the report is looked up.
    expect((await call(api, "GET", "/api/v1/reports/999999/pdf", { key })).statusCode).toBe(404);
    expect((await call(api, "GET", "/api/v1/reports/999999/pdf", { key })).statusCode).toBe(404);
    expectRefusedProblem(await call(api, "GET", "/api/v1/reports/999999/pdf", { key }), "pdfs", 2);
  });

  it("limits sign-ups per client address", async () => {
    const address = "198.51.100.50";
    const signUp = (index: number, from = address) =>
      new WebClient(api.app, from).post("/register", {
        email: `signup-${index}-${from}@example.com`,
        password: "correct horse battery",
      });
    // A form with mistakes is not a sign-up and is not counted.
    const mistaken = await new WebClient(api.app, address).post("/register", {
      email: "nope",
      password: "x",
    });
    expect(mistaken.statusCode).toBe(422);
    for (let index = 0; index < 3; index++) expect((await signUp(index)).statusCode).toBe(303);
    const fourth = await signUp(3);
    expectRefusedPage(fourth, "Too many sign-ups: at most 3 per hour per client address.");
    expect(fourth.body).not.toContain("new-api-key");
    const accounts = await api.database.store.db
      .selectFrom("users")
      .select("email")
      .where("email", "like", `signup-%-${address}@example.com`)
      .execute();
    expect(accounts).toHaveLength(3);
    expect((await signUp(4, "198.51.100.51")).statusCode).toBe(303);
  });
});

describe("event streams per user", () => {
  let api: TestApi;
  let base: string;
  let site: LocalServer;

  beforeAll(async () => {
    site = await startServer({ "/": html("<!doctype html><title>Streamed</title>") });
    // No workers: the crawl stays queued, so its event stream stays open until the client leaves.
    api = await startApi("sqlite", { PAGEGRADE_EVENT_STREAMS_PER_USER: "2", PAGEGRADE_WORKERS: "0" });
    base = await api.app.listen({ host: "127.0.0.1", port: 0 });
  });
  afterAll(async () => {
    await api?.close();
    await site?.close();
  });

  const startCrawl = async (key: string) => {
    const started = await call(api, "POST", "/api/v1/crawls", { key, form: { url: `${site.url}/` } });
    expect(started.statusCode).toBe(202);
    return started.json().data.id as number;
  };
  const open = (key: string, crawl: number, signal: AbortSignal) =>
    fetch(`${base}/api/v1/crawls/${crawl}/events`, { headers: { authorization: `Bearer ${key}` }, signal });

  it("holds a few streams open per user and refuses more with 429 until one closes", async () => {
    const key = await api.newUser();
    const crawl = await startCrawl(key);
    const streams = [new AbortController(), new AbortController()];
    try {
      for (const stream of streams) expect((await open(key, crawl, stream.signal)).status).toBe(200);
      const third = await open(key, crawl, AbortSignal.timeout(10_000));
      expect(third.status).toBe(429);
      expect(Number(third.headers.get("retry-after"))).toBeGreaterThan(0);
      const problem = (await third.json()) as Record<string, unknown>;
      expect(problem.limit).toEqual({ name: "event-streams", max: 2, window_seconds: null });
      expect(String(problem.detail)).toContain("Too many open event streams: at most 2 at once per user.");

      // Another user is not affected.
      const otherKey = await api.newUser();
      const other = new AbortController();
      expect((await open(otherKey, await startCrawl(otherKey), other.signal)).status).toBe(200);
      other.abort();

      // A closed stream gives its place back.
      streams[0]?.abort();
      let status = 0;
      for (let attempt = 0; attempt < 50 && status !== 200; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        const again = await open(key, crawl, AbortSignal.timeout(10_000));
        status = again.status;
        if (status === 200) await again.body?.cancel();
      }
      expect(status).toBe(200);
    } finally {
      for (const stream of streams) stream.abort();
    }
  });
});

describe("secrets kept out of storage", () => {
  let api: TestApi;
  let receiver: LocalServer;

  beforeAll(async () => {
    receiver = await startServer({ "/hook": (_request, response) => response.end("ok") });
    api = await startApi("sqlite", { PAGEGRADE_ENCRYPTION_KEY: "a".repeat(64) });
  });
  afterAll(async () => {
    await api?.close();
    await receiver?.close();
  });

  /** Every byte of the SQLite database: the main file, the WAL and the shared-memory index. */
  const databaseBytes = () => {
    const path = api.database.url.slice("sqlite:".length);
    return [path, `${path}-wal`, `${path}-shm`].map((file) => {
      try {
        return readFileSync(file);
      } catch {
        return Buffer.alloc(0);
      }
    });
  };
  const stored = (secret: string) => databaseBytes().some((bytes) => bytes.includes(secret));

  it("never writes a new API key or webhook secret to the database file or its WAL", async () => {
    const client = new WebClient(api.app, "198.51.100.60");
    // Sign-up makes no key (its answer is a redirect); the account page's button makes the first one.
    await client.signUp("secret-keeper@example.com");
    const first = await client.createApiKey();
    const regenerated = await client.post("/account/key");
    expect(regenerated.statusCode).toBe(200);
    const second = /id="new-api-key">(pgk_[A-Za-z0-9_-]{43})</.exec(regenerated.body)?.[1] as string;
    expect(second).toBeDefined();
    expect(second).not.toBe(first);
    const added = await client.post("/account/webhooks", { url: `${receiver.url}/hook` });
    const secret = /id="webhook-secret">(whsec_[^<]+)</.exec(added.body)?.[1] as string;
    expect(secret).toBeDefined();
    // The key works, and it is shown once only.
    const account = await api.app.inject({
      method: "GET",
      url: "/api/v1/account",
      headers: { authorization: `Bearer ${second}` },
    });
    expect(account.statusCode).toBe(200);
    expect((await client.get("/account")).body).not.toContain(second);

    // The grep is proven able to find what is stored: the e-mail is in the same bytes.
    expect(stored("secret-keeper@example.com")).toBe(true);
    for (const value of [first, second, secret]) expect(stored(value)).toBe(false);
  });
});

describe("cookies behind a proxy", () => {
  const sessionCookieOf = async (api: TestApi) => {
    const response = await api.app.inject({
      method: "GET",
      url: "/register",
      headers: { "x-forwarded-proto": "https", "x-forwarded-for": "198.51.100.70" },
    });
    const csrf = (response.cookies as Array<{ name: string; value: string }>).find(
      (cookie) => cookie.name === "pg_csrf",
    );
    const token = csrf?.value as string;
    const registered = await api.app.inject({
      method: "POST",
      url: "/register",
      headers: {
        "x-forwarded-proto": "https",
        "content-type": "application/x-www-form-urlencoded",
        cookie: `pg_csrf=${token}`,
      },
      payload: new URLSearchParams({
        _csrf: token,
        email: `proxy-${Math.random()}@example.com`,
        password: "correct horse battery",
      }).toString(),
    });
    expect(registered.statusCode).toBeLessThan(400);
    return [...[response.headers["set-cookie"]].flat(), ...[registered.headers["set-cookie"]].flat()].map(
      String,
    );
  };

  it("marks cookies Secure when a trusted proxy says the request came over HTTPS, and not without trust", async () => {
    const trusted = await startApi("sqlite", { PAGEGRADE_TRUST_PROXY: "1" });
    const untrusted = await startApi("sqlite");
    try {
      const behindProxy = await sessionCookieOf(trusted);
      expect(behindProxy.some((cookie) => cookie.startsWith("pg_session="))).toBe(true);
      for (const cookie of behindProxy) expect(cookie).toMatch(/;\s*Secure/i);
      const spoofed = await sessionCookieOf(untrusted);
      expect(spoofed.some((cookie) => cookie.startsWith("pg_session="))).toBe(true);
      for (const cookie of spoofed) expect(cookie).not.toMatch(/;\s*Secure/i);
    } finally {
      await trusted.close();
      await untrusted.close();
    }
  });
});

describe("start-up warnings", () => {
  const startUpLog = async (env: Record<string, string>) => {
    const database = await freshDatabase("sqlite");
    const analyzer = new Analyzer(loadAnalysisConfig({}));
    const logs = new PassThrough();
    let logged = "";
    logs.on("data", (chunk: Buffer) => {
      logged += chunk.toString();
    });
    const config = loadServiceConfig({ DATABASE_URL: database.url, PAGEGRADE_WORKERS: "0", ...env });
    const app = await buildApp({ store: database.store, analyzer, config, logStream: logs });
    await app.ready();
    await app.close();
    await analyzer.close();
    await database.drop();
    return logged
      .trim()
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { level: number; msg: string });
  };

  it("says once, as a warning, that webhook secrets are stored unencrypted without PAGEGRADE_ENCRYPTION_KEY", async () => {
    const without = (await startUpLog({})).filter((line) => line.msg.includes("PAGEGRADE_ENCRYPTION_KEY"));
    expect(without).toHaveLength(1);
    expect(without[0]?.level).toBe(40);
    expect(without[0]?.msg).toContain("webhook signing secrets will be stored unencrypted");
    const withKey = await startUpLog({ PAGEGRADE_ENCRYPTION_KEY: "b".repeat(64) });
    expect(withKey.some((line) => line.msg.includes("PAGEGRADE_ENCRYPTION_KEY"))).toBe(false);
  });
});
