import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Analyzer } from "../../src/analysis/analyse.js";
import { buildApp } from "../../src/app.js";
import { loadAnalysisConfig, loadServiceConfig } from "../../src/config.js";
import { call, startApi, type TestApi } from "../helpers/api.js";
import { html, type LocalServer, startServer } from "../helpers/local-server.js";
import { awayFromWindowEdge } from "../helpers/rate-window.js";
import { redisUrl, startOwnRedis } from "../helpers/redis.js";

describe("rate limits", () => {
  beforeEach(() => awayFromWindowEdge());
  let api: TestApi;
  let site: LocalServer;

  beforeAll(async () => {
    site = await startServer({ "/": html("<!doctype html><title>A page for limits</title>") });
    api = await startApi("sqlite", {
      PAGEGRADE_RATE_LIMIT: "5",
      PAGEGRADE_ANALYSIS_RATE_LIMIT: "1",
      PAGEGRADE_AUTH_FAILURE_LIMIT: "3",
    });
  });
  afterAll(async () => {
    await api.close();
    await site.close();
  });

  it("counts requests per key and answers 429 with Retry-After past the limit", async () => {
    const key = await api.newUser();
    const otherKey = await api.newUser();
    const remaining: string[] = [];
    for (let index = 0; index < 5; index++) {
      const response = await call(api, "GET", "/api/v1/account", { key });
      expect(response.statusCode).toBe(200);
      remaining.push(String(response.headers["x-ratelimit-remaining"]));
      expect(response.headers["x-ratelimit-limit"]).toBe("5");
      expect(response.headers["ratelimit-policy"]).toBe('"requests";q=5;w=60');
      expect(String(response.headers.ratelimit)).toMatch(/^"requests";r=\d;t=\d+$/);
      expect(Number(response.headers["x-ratelimit-reset"])).toBeGreaterThan(Date.now() / 1000 - 1);
    }
    expect(remaining).toEqual(["4", "3", "2", "1", "0"]);
    const limited = await call(api, "GET", "/api/v1/account", { key });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toBe("Too Many Attempts.");
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
    expect((await call(api, "GET", "/api/v1/account", { key: otherKey })).statusCode).toBe(200);
  });

  it("has a tighter bucket for calls that fetch a page", async () => {
    const key = await api.newUser();
    expect(
      (await call(api, "POST", "/api/v1/reports", { key, form: { url: `${site.url}/` } })).statusCode,
    ).toBe(201);
    const second = await call(api, "POST", "/api/v1/reports", { key, form: { url: `${site.url}/` } });
    expect(second.statusCode).toBe(429);
    expect(second.headers["ratelimit-policy"]).toBe('"analyses";q=1;w=60');
    const id = (await call(api, "GET", "/api/v1/reports", { key })).json().data[0].id;
    expect(
      (await call(api, "PATCH", `/api/v1/reports/${id}`, { key, form: { privacy: "0" } })).statusCode,
    ).toBe(200);
    expect(
      (await call(api, "PATCH", `/api/v1/reports/${id}`, { key, form: { results: "1" } })).statusCode,
    ).toBe(429);
  });

  it("throttles failed authentication per client address", async () => {
    const statuses: number[] = [];
    for (let index = 0; index < 4; index++) {
      statuses.push((await call(api, "GET", "/api/v1/account", { key: `pgk_${"x".repeat(43)}` })).statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
  });
});

describe("rate limits shared through Redis (REDIS_URL)", () => {
  beforeEach(() => awayFromWindowEdge());
  const env = {
    REDIS_URL: redisUrl,
    PAGEGRADE_REDIS_KEY_PREFIX: `pagegrade-test:${randomBytes(6).toString("hex")}:`,
    PAGEGRADE_RATE_LIMIT: "4",
  };
  let api: TestApi;
  let secondAnalyzer: Analyzer;
  let second: TestApi["app"];

  beforeAll(async () => {
    api = await startApi("sqlite", env);
    // A second instance of the service on the same database, as behind a load balancer.
    secondAnalyzer = new Analyzer(loadAnalysisConfig({}));
    second = await buildApp({
      store: api.database.store,
      analyzer: secondAnalyzer,
      config: loadServiceConfig({
        DATABASE_URL: api.database.url,
        PAGEGRADE_ANALYSIS_RATE_LIMIT: "0",
        ...env,
      }),
      logger: false,
    });
    await second.ready();
  });
  afterAll(async () => {
    await second.close();
    await secondAnalyzer.close();
    await api.close();
  });

  it("counts a key's requests across instances, in Redis rather than the database", async () => {
    const key = await api.newUser();
    const statuses: number[] = [];
    for (let index = 0; index < 5; index++) {
      const instance = index % 2 === 0 ? api : { ...api, app: second };
      statuses.push((await call(instance, "GET", "/api/v1/account", { key })).statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
    const rows = await api.database.store.db.selectFrom("rate_limits").selectAll().execute();
    expect(rows).toEqual([]);
  });

  it("reports in /healthz whether Redis answers, and fails closed while it does not", async () => {
    const redis = await startOwnRedis();
    try {
      const own = await startApi("sqlite", { ...env, REDIS_URL: redis.url });
      expect((await own.app.inject({ method: "GET", url: "/healthz" })).statusCode).toBe(200);
      await redis.kill();
      const down = await own.app.inject({ method: "GET", url: "/healthz" });
      expect(down.statusCode).toBe(503);
      expect(down.json()).toEqual({ status: "unavailable" });
      // Counting fails, so the request is refused rather than let through uncounted.
      const refused = await call(own, "GET", "/api/v1/account", { key: await own.newUser() });
      expect(refused.statusCode).toBe(500);
      expect(refused.json().message).toBe("An unexpected error has occurred.");
      await own.close();
    } finally {
      await redis.kill();
    }
  });
});
