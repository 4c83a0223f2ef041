/**
 * How often a crawl's part counts its progress: four times a second while counting is cheap, less often as the
 * frontier grows and a count takes longer (at most a hundredth of the crawl's time), never less than every 5 s.
 */
import { describe, expect, it } from "vitest";
import { countIntervalAfter } from "../../src/crawls/crawler.js";

describe("countIntervalAfter", () => {
  it("counts every 250 ms while a count takes up to 2.5 ms", () => {
    expect(countIntervalAfter(0)).toBe(250);
    expect(countIntervalAfter(1)).toBe(250);
    expect(countIntervalAfter(2.5)).toBe(250);
  });

  it("waits a hundred times a slower count's duration", () => {
    expect(countIntervalAfter(4)).toBe(400);
    expect(countIntervalAfter(30)).toBe(3_000);
  });

  it("counts at least every 5 s however slow a count is", () => {
    expect(countIntervalAfter(50)).toBe(5_000);
    expect(countIntervalAfter(2_000)).toBe(5_000);
  });
});
