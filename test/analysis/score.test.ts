import { describe, expect, it } from "vitest";
import type { Category, CheckImportance, CheckStatus } from "../../src/analysis/checks/check.js";
import type { CheckResults } from "../../src/analysis/judge.js";
import { resultOf, score } from "../../src/analysis/score.js";
import { defaultScoring, parseScoringOverrides, resolveScoring } from "../../src/analysis/scoring-config.js";

const results = (...entries: Array<[Category, CheckImportance, CheckStatus]>): CheckResults =>
  Object.fromEntries(
    entries.map(([category, importance, status], index) => [
      `check-${index}`,
      { category, importance, status, passed: null, value: null, message: "" },
    ]),
  );

describe("score", () => {
  it("is the weighted mean of pass 1, warn 0.5, fail 0 with weights 10/5/1", () => {
    // high pass 10 + medium warn 2.5 + low fail 0 = 12.5 of 16 → 78
    const scored = score(
      results(["seo", "high", "pass"], ["seo", "medium", "warn"], ["security", "low", "fail"]),
      defaultScoring,
      false,
    );
    expect(scored.score).toBe(78);
    expect(scored.result).toBe("decent");
    expect(scored.categories).toEqual({
      seo: 83,
      performance: null,
      security: 0,
      miscellaneous: null,
      accessibility: null,
    });
  });
  it("leaves na, info and error out of the score but counts them in the summary", () => {
    const scored = score(
      results(
        ["seo", "high", "pass"],
        ["seo", "high", "na"],
        ["seo", "high", "error"],
        ["seo", "info", "info"],
      ),
      defaultScoring,
      false,
    );
    expect(scored.score).toBe(100);
    expect(scored.summary).toEqual({
      checks: 4,
      passed: 1,
      warnings: 0,
      failed: 0,
      issues: { high: 0, medium: 0, low: 0 },
      gates: [],
      costliest: [],
    });
  });
  it("counts issues by importance", () => {
    const scored = score(
      results(
        ["seo", "high", "fail"],
        ["seo", "medium", "warn"],
        ["seo", "low", "warn"],
        ["seo", "low", "pass"],
      ),
      defaultScoring,
      false,
    );
    expect(scored.summary.issues).toEqual({ high: 1, medium: 1, low: 1 });
  });
  it("caps a page no crawler may index at 79", () => {
    expect(score(results(["seo", "high", "pass"]), defaultScoring, true)).toMatchObject({
      score: 79,
      result: "decent",
    });
  });
  it("maps scores to bands, which an operator can move", () => {
    expect([
      resultOf(80, defaultScoring),
      resultOf(79, defaultScoring),
      resultOf(50, defaultScoring),
      resultOf(49, defaultScoring),
    ]).toEqual(["good", "decent", "decent", "bad"]);
    const strict = resolveScoring(parseScoringOverrides({ bands: { good: 90 } }));
    expect(resultOf(85, strict)).toBe("decent");
    expect(strict.bands.decent).toBe(50);
  });
  it("rejects unknown or invalid overrides with a precise message", () => {
    expect(() => parseScoringOverrides({ weights: { hihg: 3 } })).toThrow('unknown setting "weights.hihg"');
    expect(() => parseScoringOverrides({ thresholds: { maxLinks: -1 } })).toThrow(
      "thresholds.maxLinks must be a non-negative number",
    );
  });
});
