/** Retry-After as RFC 9110 defines it: delay-seconds or an HTTP date; anything else is no answer. */
import { describe, expect, it } from "vitest";
import { retryAfterSeconds } from "../../src/analysis/fetch/fetch-failure.js";

describe("retryAfterSeconds", () => {
  const now = Date.parse("2026-11-24T12:00:00Z");

  it("reads delay-seconds and HTTP dates, past dates as no wait", () => {
    expect(retryAfterSeconds("120", now)).toBe(120);
    expect(retryAfterSeconds(" 0 ", now)).toBe(0);
    expect(retryAfterSeconds("Tue, 24 Nov 2026 12:00:30 GMT", now)).toBe(30);
    expect(retryAfterSeconds("Tue, 24 Nov 2026 11:00:00 GMT", now)).toBe(0);
    expect(retryAfterSeconds(["5", "9"], now)).toBe(5);
  });

  it("answers null when the header is missing or not a delay", () => {
    for (const value of [undefined, "", "soon", "-5", "1.5", "99999999999"]) {
      expect(retryAfterSeconds(value, now), String(value)).toBeNull();
    }
  });
});
