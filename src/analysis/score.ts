/**
 * Score: the weighted mean of check scores (pass 1, warn 0.5, fail 0; na, info and error do not count) as
 * 0–100, the same per category, the gate for pages no major crawler may index, and the result band.
 */
import { type Category, type CheckStatus, categories } from "./checks/check.js";
import type { CheckResults } from "./judge.js";
import type { Scoring } from "./scoring-config.js";

export type Result = "good" | "decent" | "bad";

export interface Summary {
  checks: number;
  passed: number;
  warnings: number;
  failed: number;
  /** Warned and failed checks by importance. */
  issues: { high: number; medium: number; low: number };
}

export interface Scored {
  score: number;
  result: Result;
  categories: Record<Category, number | null>;
  summary: Summary;
}

const statusScores: Partial<Record<CheckStatus, number>> = { pass: 1, warn: 0.5, fail: 0 };

export function score(results: CheckResults, scoring: Scoring, notIndexable: boolean): Scored {
  const totals = { weight: 0, earned: 0 };
  const perCategory = new Map(categories.map((category) => [category, { weight: 0, earned: 0 }]));
  const summary: Summary = {
    checks: 0,
    passed: 0,
    warnings: 0,
    failed: 0,
    issues: { high: 0, medium: 0, low: 0 },
  };

  for (const result of Object.values(results)) {
    summary.checks++;
    if (result.status === "pass") summary.passed++;
    if (result.status === "warn") summary.warnings++;
    if (result.status === "fail") summary.failed++;
    const statusScore = statusScores[result.status];
    if (result.importance === "info" || statusScore === undefined) continue;
    if (result.status !== "pass") summary.issues[result.importance]++;
    const weight = scoring.weights[result.importance];
    totals.weight += weight;
    totals.earned += weight * statusScore;
    const bucket = perCategory.get(result.category);
    if (bucket) {
      bucket.weight += weight;
      bucket.earned += weight * statusScore;
    }
  }

  let overall = percentage(totals) ?? 0;
  if (notIndexable) overall = Math.min(overall, scoring.notIndexableCap);
  const byCategory = Object.fromEntries(
    categories.map((category) => [category, percentage(perCategory.get(category))]),
  );
  return {
    score: overall,
    result: resultOf(overall, scoring),
    categories: byCategory as Record<Category, number | null>,
    summary,
  };
}

export function resultOf(value: number, scoring: Scoring): Result {
  if (value >= scoring.bands.good) return "good";
  if (value >= scoring.bands.decent) return "decent";
  return "bad";
}

function percentage(totals: { weight: number; earned: number } | undefined): number | null {
  if (!totals || totals.weight === 0) return null;
  return Math.round((100 * totals.earned) / totals.weight);
}
