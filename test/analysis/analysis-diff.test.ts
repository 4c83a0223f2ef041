import { describe, expect, it } from "vitest";
import {
  canonicalJson,
  type DiffSide,
  diffAnalyses,
  isRegression,
} from "../../src/analysis/analysis-diff.js";
import { catalogue } from "../../src/analysis/catalogue.js";
import type { CheckImportance, CheckStatus, EvidenceItem } from "../../src/analysis/checks/check.js";
import type { CheckResult } from "../../src/analysis/judge.js";

function result(
  status: CheckStatus,
  importance: CheckImportance = "medium",
  items?: EvidenceItem[],
  category: CheckResult["category"] = "seo",
): CheckResult {
  const checkResult: CheckResult = {
    category,
    importance,
    status,
    passed: status === "pass" ? true : status === "warn" || status === "fail" ? false : null,
    value: null,
    message: `${status}.`,
  };
  if (items) checkResult.details = { items, truncated: 0 };
  return checkResult;
}

function side(
  id: number,
  score: number,
  results: Record<string, CheckResult>,
  categories: Record<string, number | null> = { seo: score },
): DiffSide {
  return {
    id,
    score,
    result: score >= 80 ? "good" : "decent",
    generated_at: `2026-01-0${id}T00:00:00.000Z`,
    categories,
    results,
  };
}

const title = (id: string) => catalogue.find((entry) => entry.id === id)?.title;

describe("diffAnalyses", () => {
  it("classifies every status move by the contract's rules", () => {
    const moves: [CheckStatus, CheckStatus, string][] = [
      ["pass", "warn", "regressed"],
      ["pass", "fail", "regressed"],
      ["warn", "fail", "regressed"],
      ["warn", "pass", "fixed"],
      ["fail", "pass", "fixed"],
      ["fail", "warn", "improved"],
      ["pass", "na", "changed"],
      ["na", "fail", "changed"],
      ["info", "pass", "changed"],
      ["fail", "error", "changed"],
      ["error", "info", "changed"],
    ];
    for (const [before, after, expected] of moves) {
      const diff = diffAnalyses(
        1,
        side(1, 80, { title: result(before) }),
        side(2, 80, { title: result(after) }),
      );
      expect(diff.checks, `${before} → ${after}`).toEqual([
        {
          id: "title",
          title: title("title"),
          category: "seo",
          importance: "medium",
          change: expected,
          from: before,
          to: after,
          evidence: { added: [], removed: [] },
        },
      ]);
    }
  });

  it("leaves out checks whose status and evidence are the same", () => {
    const items = [{ src: "/a.png", html: '<img src="/a.png">' }];
    const diff = diffAnalyses(
      1,
      side(1, 80, { "image-alt": result("fail", "high", items), title: result("pass") }),
      side(2, 80, { "image-alt": result("fail", "high", [...items]), title: result("pass") }),
    );
    expect(diff.checks).toEqual([]);
  });

  it("reports evidence that appeared and disappeared under an unchanged status as changed", () => {
    const a = { src: "/a.png", html: '<img src="/a.png">' };
    const b = { src: "/b.png", html: '<img src="/b.png">' };
    const c = { src: "/c.png", html: '<img src="/c.png">' };
    const diff = diffAnalyses(
      1,
      side(1, 70, { "image-alt": result("fail", "high", [a, b]) }),
      side(2, 70, { "image-alt": result("fail", "high", [b, c]) }),
    );
    expect(diff.checks).toHaveLength(1);
    expect(diff.checks[0]).toMatchObject({
      id: "image-alt",
      change: "changed",
      from: "fail",
      to: "fail",
      evidence: { added: [c], removed: [a] },
    });
  });

  it("lists the evidence of a regression and of a fix", () => {
    const a = { src: "/a.png", html: '<img src="/a.png">' };
    const regressed = diffAnalyses(
      1,
      side(1, 90, { "image-alt": result("pass", "high") }),
      side(2, 80, { "image-alt": result("fail", "high", [a]) }),
    );
    expect(regressed.checks[0]?.evidence).toEqual({ added: [a], removed: [] });
    const fixed = diffAnalyses(
      1,
      side(1, 80, { "image-alt": result("fail", "high", [a]) }),
      side(2, 90, { "image-alt": result("pass", "high") }),
    );
    expect(fixed.checks[0]).toMatchObject({ change: "fixed", evidence: { added: [], removed: [a] } });
  });

  it("compares evidence as whole values whatever their key order, counting duplicates", () => {
    const diff = diffAnalyses(
      1,
      side(1, 70, { "image-alt": result("fail", "high", [{ src: "/a.png", html: "<img>" }]) }),
      side(2, 70, { "image-alt": result("fail", "high", [{ html: "<img>", src: "/a.png" }]) }),
    );
    expect(diff.checks).toEqual([]);
    const twice = diffAnalyses(
      1,
      side(1, 70, { "image-alt": result("fail", "high", [{ src: "/a.png" }]) }),
      side(2, 70, { "image-alt": result("fail", "high", [{ src: "/a.png" }, { src: "/a.png" }]) }),
    );
    expect(twice.checks[0]?.evidence).toEqual({ added: [{ src: "/a.png" }], removed: [] });
    const retyped = diffAnalyses(
      1,
      side(1, 70, { "image-alt": result("fail", "high", [{ width: 1 }]) }),
      side(2, 70, { "image-alt": result("fail", "high", [{ width: "1" }]) }),
    );
    expect(retyped.checks[0]?.evidence).toEqual({ added: [{ width: "1" }], removed: [{ width: 1 }] });
    expect(canonicalJson({ b: 1, a: { d: 2, c: 3 } })).toBe('{"a":{"c":3,"d":2},"b":1}');
  });

  it("compares only the listed evidence, not the truncated count", () => {
    const listed = [{ src: "/a.png" }];
    const before = result("fail", "high", listed);
    const after = result("fail", "high", listed);
    if (before.details) before.details.truncated = 3;
    if (after.details) after.details.truncated = 9;
    expect(
      diffAnalyses(1, side(1, 70, { "image-alt": before }), side(2, 70, { "image-alt": after })).checks,
    ).toEqual([]);
  });

  it("reports a check on one side only as added or removed, with null for the missing status", () => {
    const diff = diffAnalyses(
      1,
      side(1, 80, { "old-check": result("fail", "low", [{ url: "/x" }]) }),
      side(2, 80, { "llms-txt": result("warn", "info", undefined, "miscellaneous") }),
    );
    expect(diff.checks).toEqual([
      {
        id: "llms-txt",
        title: title("llms-txt"),
        category: "miscellaneous",
        importance: "info",
        change: "added",
        from: null,
        to: "warn",
        evidence: { added: [], removed: [] },
      },
      {
        id: "old-check",
        title: "old-check",
        category: "seo",
        importance: "low",
        change: "removed",
        from: "fail",
        to: null,
        evidence: { added: [], removed: [{ url: "/x" }] },
      },
    ]);
  });

  it("orders by kind of change, then importance high to low, then id", () => {
    const before = {
      z: result("pass", "low"),
      y: result("pass", "high"),
      x: result("pass", "high"),
      w: result("fail", "medium"),
      v: result("fail", "high"),
      u: result("fail", "info"),
      t: result("pass", "low"),
      s: result("warn", "low"),
    };
    const after = {
      z: result("fail", "low"),
      y: result("warn", "high"),
      x: result("fail", "high"),
      w: result("pass", "medium"),
      v: result("warn", "high"),
      u: result("pass", "info"),
      t: result("na", "low"),
      r: result("pass", "high"),
    };
    const diff = diffAnalyses(1, side(1, 80, before), side(2, 80, after));
    expect(diff.checks.map((check) => `${check.change} ${check.importance} ${check.id}`)).toEqual([
      "regressed high x",
      "regressed high y",
      "regressed low z",
      "fixed medium w",
      "fixed info u",
      "improved high v",
      "changed low t",
      "added high r",
      "removed low s",
    ]);
  });

  it("gives the headline, score change and every category's change", () => {
    const diff = diffAnalyses(
      42,
      side(7, 86, {}, { seo: 91, performance: 80, security: null, miscellaneous: 70 }),
      side(9, 80, {}, { seo: 85, performance: 80, security: 60, rendered: 50 }),
    );
    expect(diff).toEqual({
      object: "diff",
      report_id: 42,
      from: { id: 7, score: 86, result: "good", generated_at: "2026-01-07T00:00:00.000Z" },
      to: { id: 9, score: 80, result: "good", generated_at: "2026-01-09T00:00:00.000Z" },
      score_change: -6,
      categories: {
        seo: { from: 91, to: 85, change: -6 },
        performance: { from: 80, to: 80, change: 0 },
        security: { from: null, to: 60, change: null },
        rendered: { from: null, to: 50, change: null },
        miscellaneous: { from: 70, to: null, change: null },
      },
      checks: [],
    });
  });

  it("with no earlier analysis has a null from, a null score change and no checks", () => {
    const diff = diffAnalyses(3, null, side(1, 75, { title: result("fail") }, { seo: 75, security: null }));
    expect(diff).toEqual({
      object: "diff",
      report_id: 3,
      from: null,
      to: { id: 1, score: 75, result: "decent", generated_at: "2026-01-01T00:00:00.000Z" },
      score_change: null,
      categories: {
        seo: { from: null, to: 75, change: null },
        security: { from: null, to: null, change: null },
      },
      checks: [],
    });
  });
});

describe("isRegression", () => {
  const diffOf = (importance: CheckImportance, beforeScore: number, afterScore: number) =>
    diffAnalyses(
      1,
      side(1, beforeScore, { title: result("pass", importance) }),
      side(2, afterScore, { title: result("fail", importance) }),
    );

  it("by default, any regressed check counts", () => {
    expect(isRegression(diffOf("low", 80, 80))).toBe(true);
    const fixedOnly = diffAnalyses(
      1,
      side(1, 70, { title: result("fail") }),
      side(2, 60, { title: result("pass") }),
    );
    expect(isRegression(fixedOnly)).toBe(false);
    expect(isRegression(diffAnalyses(1, null, side(1, 10, {})))).toBe(false);
  });

  it("can require high importance or a score drop of at least a threshold", () => {
    const rule = { importances: ["high"], scoreDrop: 5 };
    expect(isRegression(diffOf("high", 80, 80), rule)).toBe(true);
    expect(isRegression(diffOf("medium", 80, 76), rule)).toBe(false);
    expect(isRegression(diffOf("medium", 80, 75), rule)).toBe(true);
    const dropOnly = diffAnalyses(1, side(1, 90, {}), side(2, 85, {}));
    expect(isRegression(dropOnly, { scoreDrop: 5 })).toBe(true);
    expect(isRegression(dropOnly)).toBe(false);
    expect(isRegression(diffAnalyses(1, null, side(1, 10, {})), rule)).toBe(false);
  });
});
