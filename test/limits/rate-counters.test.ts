import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DatabaseRateCounters } from "../../src/limits/database-rate-counters.js";
import { openRateCounters } from "../../src/limits/open-rate-counters.js";
import type { RateCounters } from "../../src/limits/rate-counters.js";
import { RateLimiter } from "../../src/limits/rate-limiter.js";
import { RedisRateCounters } from "../../src/limits/redis-rate-counters.js";
import { freshDatabase, type TestDatabase } from "../helpers/api.js";
import { redisUrl } from "../helpers/redis.js";

/** The same behaviour from every place counters can live: SQLite, PostgreSQL and Redis (the local servers). */
const backends = ["sqlite", "postgres", "redis"] as const;

describe.each(backends)("rate limits with counters in %s", (backend) => {
  let database: TestDatabase;
  let counters: RateCounters;
  const redisPrefix = `pagegrade-test:${randomBytes(6).toString("hex")}:`;
  let clock = Date.UTC(2026, 0, 1, 12, 0, 0);
  const now = () => clock;

  beforeAll(async () => {
    database = await freshDatabase(backend === "postgres" ? "postgres" : "sqlite");
    if (backend === "redis") {
      const redis = new RedisRateCounters(redisUrl, redisPrefix);
      await redis.connect();
      counters = redis;
    } else {
      counters = new DatabaseRateCounters(database.store);
    }
  });
  afterAll(async () => {
    await counters.close();
    await database.drop();
  });

  it("counts hits per key up to the limit, then refuses until the window ends", async () => {
    const limiter = new RateLimiter(counters, "requests", 3, 60, now);
    clock = Date.UTC(2026, 0, 1, 12, 0, 10);
    const verdicts = [];
    for (let hit = 0; hit < 4; hit++) verdicts.push(await limiter.hit("17"));
    expect(verdicts.map((verdict) => [verdict.allowed, verdict.remaining])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
    ]);
    expect(verdicts[3]?.resetSeconds).toBe(50);
    expect(verdicts[3]?.retryAfterSeconds).toBe(50);
    expect((await limiter.hit("18")).allowed).toBe(true);
    expect(await limiter.exhausted("17")).toMatchObject({ allowed: false, remaining: 0, resetSeconds: 50 });
    expect(await limiter.exhausted("18")).toBeNull();

    clock = Date.UTC(2026, 0, 1, 12, 1, 0);
    expect(await limiter.hit("17")).toMatchObject({ allowed: true, remaining: 2, resetSeconds: 60 });
  });

  it("says a key is exhausted once it reaches the limit, before any hit is refused", async () => {
    const limiter = new RateLimiter(counters, "exhaustion", 2, 60, now);
    clock = Date.UTC(2026, 0, 1, 13, 0, 0);
    await limiter.hit("a");
    expect(await limiter.exhausted("a")).toBeNull();
    await limiter.hit("a");
    expect(await limiter.exhausted("a")).toMatchObject({
      allowed: false,
      remaining: 0,
      retryAfterSeconds: 60,
    });
  });

  it("keeps limiters with different names apart", async () => {
    const logins = new RateLimiter(counters, "login-failures", 1, 900, now);
    const passwords = new RateLimiter(counters, "report-passwords", 1, 900, now);
    expect((await logins.hit("10.0.0.1")).allowed).toBe(true);
    expect((await passwords.hit("10.0.0.1")).allowed).toBe(true);
    expect((await logins.hit("10.0.0.1")).allowed).toBe(false);
  });

  it("forgets ended windows", async () => {
    const limiter = new RateLimiter(counters, "sweeping", 1, 60, now);
    clock = Date.UTC(2026, 0, 2, 0, 0, 0);
    await limiter.hit("1");
    const windowStart = clock / 1000;
    expect(await counters.count("sweeping:1", windowStart)).toBe(1);
    clock += 3 * 60_000;
    await limiter.sweep();
    if (backend === "redis") {
      // Redis forgets on its own: the key carries an expiry of two windows.
      const client = new Redis(redisUrl);
      const ttl = await client.ttl(`${redisPrefix}sweeping:1:${windowStart}`);
      client.disconnect();
      expect(ttl).toBeGreaterThan(60);
      expect(ttl).toBeLessThanOrEqual(120);
    } else {
      expect(await counters.count("sweeping:1", windowStart)).toBe(0);
    }
  });
});

describe("choosing the counters", () => {
  it("uses the database unless REDIS_URL is set", async () => {
    const database = await freshDatabase("sqlite");
    const counters = await openRateCounters(database.store, { redisUrl: null, redisKeyPrefix: "x:" });
    expect(counters).toBeInstanceOf(DatabaseRateCounters);
    await database.drop();
  });

  it("refuses to start when Redis cannot be reached, saying where the problem is", async () => {
    const database = await freshDatabase("sqlite");
    await expect(
      openRateCounters(database.store, { redisUrl: "redis://127.0.0.1:1", redisKeyPrefix: "x:" }),
    ).rejects.toThrow(/^cannot reach Redis at REDIS_URL: .*ECONNREFUSED/);
    await database.drop();
  });
});
