/**
 * Score: the weighted mean of check scores (pass 1, warn 0.5, fail 0; na, info and error do not count) as
 * 0–100, the same per category, the gates that keep a page from `good` (no major crawler may index it, or it
 * fails `https`, `title` or `viewport`: the score is capped), and the result band. The summary says which gates
 * held the page and which three failed or warned checks cost the most, each with the points that fixing it would
 * bring back (the score recomputed with that check passing, gates included).
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
  /** The gates that cap the score below `good` (`indexable`, `https`, `title`, `viewport`); empty when none. */
  gates: string[];
  /** The (at most three) failed or warned checks whose fixing would bring back the most points, most first. */
  costliest: Array<{ check: string; points: number }>;
}

/** The checks whose failure keeps a page from `good`, beside the indexability gate. */
export const gateChecks = ["https", "title", "viewport"] as const;

/** The gate of a page that no major crawler may index. */
export const indexabilityGate = "indexable";

/** How many of the costliest checks a summary names. */
const costliestShown = 3;

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
    gates: [],
    costliest: [],
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

  summary.gates = gatesHolding(results, notIndexable);
  const overall = capped(percentage(totals) ?? 0, summary.gates, scoring);
  summary.costliest = costliest(results, scoring, notIndexable, totals, overall);
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

/**
 * The gates that hold the page: not indexable by any major crawler, and each gate check that fails (but
 * `passing`, a check counted as passed: the costliest checks are each recomputed so, without copying the results).
 */
function gatesHolding(results: CheckResults, notIndexable: boolean, passing?: string): string[] {
  return [
    ...(notIndexable ? [indexabilityGate] : []),
    ...gateChecks.filter((check) => check !== passing && results[check]?.status === "fail"),
  ];
}

function capped(value: number, gates: string[], scoring: Scoring): number {
  return gates.length > 0 ? Math.min(value, scoring.notIndexableCap) : value;
}

/**
 * The failed and warned checks whose passing would raise the score the most (each recomputed alone: its weight
 * earned in full, and its gate lifted when it is one), most points first, then by importance and check id; only
 * checks that bring back at least one point.
 */
function costliest(
  results: CheckResults,
  scoring: Scoring,
  notIndexable: boolean,
  totals: { weight: number; earned: number },
  current: number,
): Summary["costliest"] {
  const gains: Array<{ check: string; points: number; weight: number }> = [];
  for (const [check, result] of Object.entries(results)) {
    const statusScore = statusScores[result.status];
    if (result.importance === "info" || statusScore === undefined || result.status === "pass") continue;
    const weight = scoring.weights[result.importance];
    const fixed = { weight: totals.weight, earned: totals.earned + weight * (1 - statusScore) };
    const gates = gatesHolding(results, notIndexable, check);
    const points = capped(percentage(fixed) ?? 0, gates, scoring) - current;
    if (points > 0) gains.push({ check, points, weight });
  }
  return gains
    .sort((a, b) => b.points - a.points || b.weight - a.weight || (a.check < b.check ? -1 : 1))
    .slice(0, costliestShown)
    .map(({ check, points }) => ({ check, points }));
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
