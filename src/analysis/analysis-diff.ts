/**
 * What changed between two analyses of the same page: the score, each category and every check whose status
 * or evidence differs, classified as regressed / fixed / improved / changed / added / removed. A pure function
 * of two analyses (no storage), so the API's diff endpoint, the web page, the webhook and the command line's
 * regression gate all apply the very same rules.
 *
 * Evidence items are compared as whole values through a canonical JSON form (object keys sorted), so key order
 * never counts as a change; duplicates count (two identical items are two pieces of evidence). Only the items
 * an analysis lists are compared: the `truncated` count says how many more there were, but not which, so a
 * change hidden beyond the listed items is not reported and a different `truncated` count alone is no change.
 */

import { catalogue } from "./catalogue.js";
import type { CheckImportance, CheckStatus, EvidenceItem } from "./checks/check.js";
import type { CheckResult } from "./judge.js";
import type { Result } from "./score.js";

/** One side of a diff: the parts of a complete analysis the rules look at. */
export interface DiffSide {
  id: number;
  score: number;
  result: Result | string;
  generated_at: string;
  categories: Record<string, number | null>;
  results: Record<string, CheckResult>;
}

export type CheckChange = "regressed" | "fixed" | "improved" | "changed" | "added" | "removed";

export interface CheckDiff {
  id: string;
  title: string;
  category: string;
  importance: string;
  change: CheckChange;
  /** The status on the `from` side; null when the check is `added`. */
  from: CheckStatus | null;
  /** The status on the `to` side; null when the check is `removed`. */
  to: CheckStatus | null;
  evidence: { added: EvidenceItem[]; removed: EvidenceItem[] };
}

export interface CategoryDiff {
  from: number | null;
  to: number | null;
  /** to − from, or null when either side has no score for the category. */
  change: number | null;
}

export interface AnalysisDiff {
  object: "diff";
  report_id: number;
  from: { id: number; score: number; result: string; generated_at: string } | null;
  to: { id: number; score: number; result: string; generated_at: string };
  score_change: number | null;
  categories: Record<string, CategoryDiff>;
  checks: CheckDiff[];
}

const changeOrder: readonly CheckChange[] = ["regressed", "fixed", "improved", "changed", "added", "removed"];
const importanceOrder: readonly string[] = ["high", "medium", "low", "info"];
/** Statuses that carry a verdict; a move between two of them is graded, anything else is `changed`. */
const rank: Partial<Record<CheckStatus, number>> = { pass: 2, warn: 1, fail: 0 };
const titles = new Map(catalogue.map((entry) => [entry.id, entry.title]));

/**
 * The diff between two analyses. With `from` null (the first analysis of a report) there is nothing to compare:
 * `from` and `score_change` are null, `checks` is empty, and every category of `to` is listed with `from` and
 * `change` null, so clients always find the same keys.
 */
export function diffAnalyses(reportId: number, from: DiffSide | null, to: DiffSide): AnalysisDiff {
  return {
    object: "diff",
    report_id: reportId,
    from: from === null ? null : headline(from),
    to: headline(to),
    score_change: from === null ? null : to.score - from.score,
    categories: diffCategories(from?.categories ?? null, to.categories),
    checks: from === null ? [] : diffChecks(from.results, to.results),
  };
}

function headline(side: DiffSide) {
  return { id: side.id, score: side.score, result: side.result, generated_at: side.generated_at };
}

/** Every category of either side; one present on a single side has null on the other and a null change. */
function diffCategories(
  from: Record<string, number | null> | null,
  to: Record<string, number | null>,
): Record<string, CategoryDiff> {
  const categories: Record<string, CategoryDiff> = {};
  for (const name of new Set([...Object.keys(to), ...Object.keys(from ?? {})])) {
    const before = from?.[name] ?? null;
    const after = to[name] ?? null;
    categories[name] = {
      from: before,
      to: after,
      change: before === null || after === null ? null : after - before,
    };
  }
  return categories;
}

function diffChecks(from: Record<string, CheckResult>, to: Record<string, CheckResult>): CheckDiff[] {
  const diffs: CheckDiff[] = [];
  for (const id of new Set([...Object.keys(from), ...Object.keys(to)])) {
    const before = from[id];
    const after = to[id];
    const described = (after ?? before) as CheckResult;
    const evidence = diffEvidence(before?.details?.items ?? [], after?.details?.items ?? []);
    const change = classify(before?.status ?? null, after?.status ?? null, evidence);
    if (change === null) continue;
    diffs.push({
      id,
      title: titles.get(id) ?? id,
      category: described.category,
      importance: described.importance,
      change,
      from: before?.status ?? null,
      to: after?.status ?? null,
      evidence,
    });
  }
  return diffs.sort(
    (a, b) =>
      changeOrder.indexOf(a.change) - changeOrder.indexOf(b.change) ||
      importanceRank(a.importance) - importanceRank(b.importance) ||
      (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
}

function importanceRank(importance: string): number {
  const index = importanceOrder.indexOf(importance as CheckImportance);
  return index === -1 ? importanceOrder.length : index;
}

/** The kind of change between two statuses, or null when neither the status nor the evidence changed. */
function classify(
  before: CheckStatus | null,
  after: CheckStatus | null,
  evidence: { added: EvidenceItem[]; removed: EvidenceItem[] },
): CheckChange | null {
  if (before === null) return "added";
  if (after === null) return "removed";
  if (before === after) {
    return evidence.added.length > 0 || evidence.removed.length > 0 ? "changed" : null;
  }
  return verdictChange(before, after) ?? "changed";
}

/**
 * The change between two different statuses that both carry a verdict (pass, warn, fail): `fixed` when it now
 * passes, `regressed` when it got worse, `improved` otherwise; null when either has no verdict (na, error, …).
 * Comparing two crawls' pages applies the same rule.
 */
export function verdictChange(before: string, after: string): "regressed" | "fixed" | "improved" | null {
  const was = rank[before as CheckStatus];
  const now = rank[after as CheckStatus];
  if (was === undefined || now === undefined || was === now) return null;
  if (now === 2) return "fixed";
  return now < was ? "regressed" : "improved";
}

/** Items present on one side and not the other, as multisets of canonical values, each side in its own order. */
export function diffEvidence(
  before: readonly EvidenceItem[],
  after: readonly EvidenceItem[],
): { added: EvidenceItem[]; removed: EvidenceItem[] } {
  const unmatched = new Map<string, number>();
  for (const item of before) {
    const key = canonicalJson(item);
    unmatched.set(key, (unmatched.get(key) ?? 0) + 1);
  }
  const added: EvidenceItem[] = [];
  for (const item of after) {
    const key = canonicalJson(item);
    const left = unmatched.get(key) ?? 0;
    if (left > 0) unmatched.set(key, left - 1);
    else added.push(item);
  }
  const removed: EvidenceItem[] = [];
  for (const item of before) {
    const key = canonicalJson(item);
    const left = unmatched.get(key) ?? 0;
    if (left > 0) {
      unmatched.set(key, left - 1);
      removed.push(item);
    }
  }
  return { added, removed };
}

/** JSON with object keys sorted at every depth, so equal values have one spelling whatever their key order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner !== null && typeof inner === "object" && !Array.isArray(inner)
      ? Object.fromEntries(
          Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : inner,
  );
}

/** When a diff counts as a regression; see {@link isRegression}. */
export interface RegressionRule {
  /** Only `regressed` checks of these importances count; omit for every importance. */
  importances?: readonly string[];
  /** A fall of the overall score by at least this many points counts too; omit to ignore the score. */
  scoreDrop?: number;
}

/**
 * Whether a diff regressed. With no rule: any check whose change is `regressed` (the command line's gate).
 * The `report.regressed` webhook uses `{ importances: ["high"], scoreDrop: PAGEGRADE_REGRESSION_SCORE_DROP }`.
 * A diff with no `from` side never regressed.
 */
export function isRegression(diff: AnalysisDiff, rule: RegressionRule = {}): boolean {
  if (diff.from === null) return false;
  const { importances, scoreDrop } = rule;
  if (scoreDrop !== undefined && diff.score_change !== null && -diff.score_change >= scoreDrop) return true;
  return diff.checks.some(
    (check) =>
      check.change === "regressed" && (importances === undefined || importances.includes(check.importance)),
  );
}
