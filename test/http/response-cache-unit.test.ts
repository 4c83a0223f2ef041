import type { FastifyRequest } from "fastify";
import { describe, expect, it } from "vitest";
import { acceptsGzip, ResponseCache } from "../../src/http/response-cache.js";

const entry = (version: number, size: number) => ({
  version,
  body: Buffer.alloc(size, 1),
  headers: { "content-type": "application/json" },
});

describe("ResponseCache", () => {
  it("answers only for the version an entry was made at, and drops a stale one", () => {
    const cache = new ResponseCache(1000);
    cache.set("a", entry(3, 10));
    expect(cache.get("a", 3)?.body.length).toBe(10);
    expect(cache.get("a", 4)).toBeUndefined();
    expect(cache.get("a", 3)).toBeUndefined();
  });

  it("stays within its bytes, dropping the least recently used first", () => {
    const cache = new ResponseCache(800);
    cache.set("a", entry(1, 100));
    cache.set("b", entry(1, 100));
    cache.get("a", 1);
    for (const name of ["c", "d", "e", "f", "g", "h", "i"]) cache.set(name, entry(1, 100));
    expect(cache.get("b", 1)).toBeUndefined();
    expect(cache.get("a", 1)).toBeDefined();
    expect(cache.get("h", 1)).toBeDefined();
    // An entry larger than an eighth of the cache is not kept at all.
    cache.set("big", entry(1, 101));
    expect(cache.get("big", 1)).toBeUndefined();
  });

  it("keeps nothing when turned off", () => {
    const cache = new ResponseCache(0);
    cache.set("a", entry(1, 1));
    expect(cache.get("a", 1)).toBeUndefined();
  });
});

describe("acceptsGzip", () => {
  const request = (value?: string) =>
    ({ headers: value === undefined ? {} : { "accept-encoding": value } }) as FastifyRequest;
  it.each([
    ["gzip", true],
    ["gzip, deflate, br", true],
    ["br;q=1.0, GZIP;q=0.5", true],
    ["*", true],
    ["gzip;q=0", false],
    ["gzip; q=0.000", false],
    ["br", false],
    ["identity", false],
    [undefined, false],
  ])("%s → %s", (value, expected) => {
    expect(acceptsGzip(request(value))).toBe(expected);
  });
});
