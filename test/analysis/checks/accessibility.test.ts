/**
 * The accessibility checks from axe-core's audit as the renderer hands it over: verdicts as Lighthouse gives
 * them (fail with every failing node, na when inapplicable, pass otherwise, info or na for its informative
 * audits, error when axe failed on a rule or did not finish), `na` in raw mode, the weights → importance
 * mapping, and the rule list equal to the installed axe-core's metadata and to the corpus verdicts' columns.
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { AccessibilityOutcome } from "../../../src/analysis/checks/accessibility/axe-audit.js";
import {
  accessibilityChecks,
  importanceOfWeight,
} from "../../../src/analysis/checks/accessibility/axe-checks.js";
import { lighthouseAxeRules } from "../../../src/analysis/checks/accessibility/lighthouse-rules.js";
import { judge } from "../../../src/analysis/judge.js";
import { score } from "../../../src/analysis/score.js";
import { defaultScoring } from "../../../src/analysis/scoring-config.js";
import type { PageSnapshot } from "../../../src/analysis/snapshot.js";
import { corpusDir, corpusRequired } from "../../helpers/corpus.js";
import { doc, pageFrom } from "../../helpers/page.js";

const node = {
  selector: "#photo",
  snippet: '<img src="/photo.png" id="photo">',
  summary: "Fix any of the following",
};

function renderedWith(accessibility: AccessibilityOutcome): PageSnapshot {
  const page = pageFrom(doc("<p>x</p>"));
  return {
    ...page,
    rendered: {
      metrics: null,
      failedRequests: [],
      failedRequestCount: 0,
      consoleProblems: [],
      consoleProblemCount: 0,
      accessibility,
      rawDocument: page.document,
    },
  };
}

const audit = (changes: Partial<Extract<AccessibilityOutcome, { audit: unknown }>["audit"]> = {}) => ({
  audit: { axeVersion: "4.14.1", violations: {}, review: {}, inapplicable: [], errors: {}, ...changes },
});

describe("accessibility checks", () => {
  it("fail with every failing node, na when inapplicable, pass otherwise", () => {
    const results = judge(
      renderedWith(
        audit({
          violations: { "image-alt": { nodes: [node, { ...node, selector: "#logo" }], count: 2 } },
          inapplicable: ["video-caption", "td-headers-attr"],
          // axe's "needs review" is not a failure for a scored rule.
          review: { "color-contrast": { nodes: [node], count: 1 } },
        }),
      ),
      accessibilityChecks,
      defaultScoring.thresholds,
    );
    expect(results["a11y-image-alt"]).toMatchObject({
      status: "fail",
      importance: "high",
      category: "accessibility",
      value: 2,
      message: "2 elements fail: Images must have alternative text.",
      details: { items: [node, { ...node, selector: "#logo" }], truncated: 0 },
    });
    expect(results["a11y-td-headers-attr"]?.status).toBe("na");
    expect(results["a11y-video-caption"]?.status).toBe("na");
    expect(results["a11y-color-contrast"]).toMatchObject({ status: "pass", value: 0 });
    expect(results["a11y-label"]?.status).toBe("pass");
  });

  it("gives Lighthouse's informative audits info with what axe flagged, else na", () => {
    const flagged = judge(
      renderedWith(
        audit({
          review: { "duplicate-id-aria": { nodes: [node], count: 1 } },
          violations: { bypass: { nodes: [node], count: 1 } },
        }),
      ),
      accessibilityChecks,
      defaultScoring.thresholds,
    );
    expect(flagged["a11y-duplicate-id-aria"]).toMatchObject({
      status: "info",
      value: 1,
      details: { items: [node] },
    });
    expect(flagged["a11y-bypass"]).toMatchObject({ status: "info", value: 1 });
    expect(flagged["a11y-video-caption"]?.status).toBe("na");
    expect(flagged["a11y-form-field-multiple-labels"]?.status).toBe("na");
  });

  it("says it could not check when axe failed on a rule or did not finish", () => {
    const ruleError = judge(
      renderedWith(audit({ errors: { "color-contrast": "boom" } })),
      accessibilityChecks,
      defaultScoring.thresholds,
    );
    expect(ruleError["a11y-color-contrast"]).toMatchObject({
      status: "error",
      message: "Could not check: axe-core failed on this rule (boom).",
    });
    expect(ruleError["a11y-image-alt"]?.status).toBe("pass");
    const timedOut = judge(
      renderedWith({ problem: "axe-core did not finish within 10 s" }),
      accessibilityChecks,
      defaultScoring.thresholds,
    );
    for (const check of accessibilityChecks) {
      expect(timedOut[check.id]).toMatchObject({
        status: "error",
        message: "Could not check: axe-core did not finish within 10 s.",
      });
    }
  });

  it("are na in raw mode, and the category is null", () => {
    const results = judge(pageFrom(doc("<img src=a.png>")), accessibilityChecks, defaultScoring.thresholds);
    expect(new Set(Object.values(results).map((result) => result.status))).toEqual(new Set(["na"]));
    expect(score(results, defaultScoring, false).categories.accessibility).toBeNull();
  });

  it("scores the category from the checks that pass and fail", () => {
    const results = judge(
      renderedWith(audit({ violations: { "image-alt": { nodes: [node], count: 1 } } })),
      accessibilityChecks,
      defaultScoring.thresholds,
    );
    const counted = accessibilityChecks.filter((check) =>
      ["pass", "fail"].includes(results[check.id]?.status ?? ""),
    );
    const weights = defaultScoring.weights;
    const total = counted.reduce(
      (sum, check) => sum + weights[check.importance as "high" | "medium" | "low"],
      0,
    );
    expect(score(results, defaultScoring, false).categories.accessibility).toBe(
      Math.round((100 * (total - weights.high)) / total),
    );
  });

  it("map Lighthouse's weights to importance: 10 high, 7 medium, 3 and 1 low", () => {
    expect([10, 7, 3, 1].map((weight) => importanceOfWeight(weight as 10 | 7 | 3 | 1))).toEqual([
      "high",
      "medium",
      "low",
      "low",
    ]);
    expect(accessibilityChecks).toHaveLength(57);
    expect(new Set(accessibilityChecks.map((check) => check.id)).size).toBe(57);
  });

  it("carry the installed axe-core's own titles and descriptions", () => {
    const axe = createRequire(import.meta.url)("axe-core") as {
      getRules(): Array<{ ruleId: string; help: string; description: string }>;
    };
    const byId = new Map(axe.getRules().map((rule) => [rule.ruleId, rule]));
    for (const rule of lighthouseAxeRules) {
      expect(byId.get(rule.rule), rule.rule).toMatchObject({
        help: rule.help,
        description: rule.description,
      });
    }
  });

  it.skipIf(!corpusRequired && !existsSync(join(corpusDir, "..", "lighthouse-a11y-verdicts.tsv")))(
    "cover every audit Lighthouse's recorded verdicts score (a column with a pass or a fail)",
    () => {
      const [header, ...rows] = readFileSync(join(corpusDir, "..", "lighthouse-a11y-verdicts.tsv"), "utf8")
        .trim()
        .split("\n")
        .map((line) => line.split("\t"));
      const columns = (header ?? []).slice(2);
      const listed = lighthouseAxeRules.map((rule) => rule.rule);
      expect(columns.slice(0, listed.length)).toEqual(listed);
      // Lighthouse's informative audits are never pass there.
      for (const rule of lighthouseAxeRules.filter((entry) => entry.informative)) {
        const column = columns.indexOf(rule.rule) + 2;
        expect(rows.some((row) => row[column] === "pass")).toBe(false);
      }
    },
  );
});
