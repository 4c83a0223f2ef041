import { describe, expect, it } from "vitest";
import { retryDelayMs } from "../../src/jobs/backoff.js";

describe("retry delays", () => {
  it("double with every failed attempt, between half and all of the nominal delay", () => {
    const backoff = { delayMs: 1_000, maxDelayMs: 60_000 };
    expect([1, 2, 3, 4].map((attempt) => retryDelayMs(attempt, backoff, () => 0))).toEqual([
      500, 1_000, 2_000, 4_000,
    ]);
    expect([1, 2, 3, 4].map((attempt) => retryDelayMs(attempt, backoff, () => 1))).toEqual([
      1_000, 2_000, 4_000, 8_000,
    ]);
  });

  it("spread jobs that failed together", () => {
    const delays = new Set(Array.from({ length: 50 }, () => retryDelayMs(3, { delayMs: 1_000 })));
    expect(delays.size).toBeGreaterThan(10);
    for (const delay of delays) {
      expect(delay).toBeGreaterThanOrEqual(2_000);
      expect(delay).toBeLessThanOrEqual(4_000);
    }
  });

  it("never exceed the cap", () => {
    expect(retryDelayMs(30, { delayMs: 1_000, maxDelayMs: 10_000 }, () => 1)).toBe(10_000);
  });
});
