import { describe, expect, it } from "vitest";
import type { CheckResult, CheckResults } from "../../src/analysis/judge.js";
import { fairShare, maxResultsBytes, withinReportBudget } from "../../src/analysis/report-budget.js";

const bytesOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

const result = (status: CheckResult["status"], extra: Partial<CheckResult> = {}): CheckResult => ({
  category: "seo",
  importance: "high",
  status,
  passed: status === "pass" ? true : status === "fail" || status === "warn" ? false : null,
  value: null,
  message: "Checked.",
  ...extra,
});

const evidence = (count: number, length: number) => ({
  items: Array.from({ length: count }, (_, index) => ({ element: `${index}:${"\u0001".repeat(length)}` })),
  truncated: 0,
});

describe("a report's size budget", () => {
  it("splits room evenly past the sizes that fit whole", () => {
    expect(fairShare([10, 20, 30], 100)).toBe(Number.POSITIVE_INFINITY);
    expect(fairShare([10, 100, 100], 70)).toBe(30);
    expect(fairShare([50, 50], 0)).toBe(0);
  });

  it("leaves results within the budget exactly as they are", () => {
    const results: CheckResults = { a: result("fail", { details: evidence(3, 100) }), b: result("pass") };
    expect(withinReportBudget(results, 10_000)).toBe(results);
  });

  it("cuts the largest evidence to a fair share, says what it cut, and never touches a verdict", () => {
    const results: CheckResults = {
      small: result("warn", { details: evidence(2, 10) }),
      big: result("fail", { details: evidence(40, 1_000) }),
      bigger: result("fail", { details: evidence(50, 2_000) }),
      fine: result("pass"),
    };
    const cut = withinReportBudget(results, 60_000);
    expect(bytesOf(cut)).toBeLessThanOrEqual(60_000);
    expect(cut.small).toEqual(results.small);
    expect(cut.fine).toEqual(results.fine);
    for (const id of ["big", "bigger"]) {
      const kept = cut[id]?.details?.items.length as number;
      const total = results[id]?.details?.items.length as number;
      expect(kept).toBeGreaterThan(0);
      expect(kept).toBeLessThan(total);
      expect(cut[id]?.details?.items).toEqual(results[id]?.details?.items.slice(0, kept));
      expect(cut[id]?.details?.truncated).toBe(total - kept);
      expect(cut[id]?.cut).toEqual({
        reason: "report-size",
        evidence_items: total - kept,
        message: false,
        value: false,
      });
      expect(cut[id]?.status).toBe("fail");
      expect(cut[id]?.passed).toBe(false);
    }
  });

  it("cuts messages and values too when they alone are over the budget, the strings ending in an ellipsis", () => {
    const long = "\u0001".repeat(60_000);
    const results: CheckResults = Object.fromEntries(
      Array.from({ length: 20 }, (_, index) => [
        `check-${index}`,
        result(index % 2 ? "fail" : "warn", {
          message: long,
          value: { found: [long, long], count: 2 },
          details: evidence(5, 10_000),
        }),
      ]),
    );
    const cut = withinReportBudget(results, 100_000);
    expect(bytesOf(cut)).toBeLessThanOrEqual(100_000);
    for (const [id, kept] of Object.entries(cut)) {
      expect(kept.status).toBe(results[id]?.status);
      expect(kept.message.endsWith("…")).toBe(true);
      expect(kept.details).toEqual({ items: [], truncated: 5 });
      expect(kept.cut).toEqual({ reason: "report-size", evidence_items: 5, message: true, value: true });
      expect((kept.value as { count: number }).count).toBe(2);
    }
  });

  it("holds a document of 118 checks at every per-check bound within the default budget", () => {
    const long = "\u0001".repeat(65_536);
    const results: CheckResults = Object.fromEntries(
      Array.from({ length: 118 }, (_, index) => [
        `check-${index}`,
        result("fail", { message: long, value: [long], details: evidence(5, 13_000) }),
      ]),
    );
    expect(bytesOf(results)).toBeGreaterThan(100_000_000);
    expect(bytesOf(withinReportBudget(results))).toBeLessThanOrEqual(maxResultsBytes);
  });
});
