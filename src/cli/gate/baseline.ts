/**
 * The baseline of `pagegrade analyze --baseline`: a report saved earlier with `--json`, read back and checked
 * to be one (the fields the diff rules read, with their types), so a wrong file is a clear usage error rather
 * than a silently empty comparison.
 */
import { readFileSync } from "node:fs";
import type { DiffSide } from "../../analysis/analysis-diff.js";
import type { CheckResult } from "../../analysis/judge.js";
import { UsageError } from "../../errors.js";

const statuses = new Set(["pass", "warn", "fail", "na", "info", "error"]);

/** A saved report as a diff side; a saved report has no stored id, so its id is 0. */
export interface Baseline {
  url: string;
  side: DiffSide;
}

export function loadBaseline(path: string): Baseline {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    throw new UsageError(`cannot read the baseline file "${path}"`);
  }
  let report: unknown;
  try {
    report = JSON.parse(text);
  } catch {
    throw new UsageError(
      `the baseline file "${path}" is not JSON; save one with "pagegrade analyze <url> --json"`,
    );
  }
  const problem = reportProblem(report);
  if (problem !== null) {
    throw new UsageError(
      `the baseline file "${path}" is not a pagegrade report (${problem}); save one with "pagegrade analyze <url> --json"`,
    );
  }
  const valid = report as {
    url: string;
    score: number;
    result: string;
    generated_at: string;
    categories: Record<string, number | null>;
    results: Record<string, CheckResult>;
  };
  return {
    url: valid.url,
    side: {
      id: 0,
      score: valid.score,
      result: valid.result,
      generated_at: valid.generated_at,
      categories: valid.categories,
      results: valid.results,
    },
  };
}

/** What makes the value not a saved report, or null when it is one. */
function reportProblem(report: unknown): string | null {
  if (!isObject(report)) return "it is not a JSON object";
  for (const field of ["url", "result", "generated_at"]) {
    if (typeof report[field] !== "string") return `"${field}" is missing or not a string`;
  }
  if (typeof report.score !== "number") return `"score" is missing or not a number`;
  if (!isObject(report.categories)) return `"categories" is missing or not an object`;
  for (const [name, value] of Object.entries(report.categories)) {
    if (value !== null && typeof value !== "number") return `"categories.${name}" is not a number or null`;
  }
  if (!isObject(report.results)) return `"results" is missing or not an object`;
  for (const [id, result] of Object.entries(report.results)) {
    if (!isObject(result)) return `"results.${id}" is not an object`;
    if (typeof result.status !== "string" || !statuses.has(result.status)) {
      return `"results.${id}.status" is not a check status`;
    }
    if (typeof result.category !== "string" || typeof result.importance !== "string") {
      return `"results.${id}" lacks its category or importance`;
    }
    if (result.details !== undefined && !(isObject(result.details) && Array.isArray(result.details.items))) {
      return `"results.${id}.details.items" is not a list`;
    }
  }
  return null;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
