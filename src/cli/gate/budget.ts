/**
 * The budget of `pagegrade analyze --budget`: minimum scores and checks that must pass, read from a JSON file
 * and validated strictly (every unknown field, category or check id is an error naming it, so a typo never
 * silently disables a rule), then applied to a report as one line per breach.
 *
 *   {"score": 80, "categories": {"seo": 90, "security": 70}, "checks": ["image-alt", "title"]}
 *
 * Every field is optional. A check named in `checks` must have the status `pass`: `warn`, `fail`, and also
 * `na`, `info` or `error` (the check did not confirm anything) are breaches. A category with a minimum but no
 * score (none of its checks applied) is a breach too.
 */
import { readFileSync } from "node:fs";
import type { AnalysisReport } from "../../analysis/analyse.js";
import { catalogue } from "../../analysis/catalogue.js";
import { UsageError } from "../../errors.js";

export interface Budget {
  score?: number;
  categories: Record<string, number>;
  checks: string[];
}

const categories = [...new Set(catalogue.map((entry) => entry.category))];
const checkIds = new Set(catalogue.map((entry) => entry.id));
const fields = ["score", "categories", "checks"];

export function loadBudget(path: string): Budget {
  return loadBudgetFile(path, parseBudget);
}

/** Reads a budget file and checks it with `parse`; every refusal is a usage error naming the file. */
export function loadBudgetFile<T>(path: string, parse: (raw: unknown) => T): T {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    throw new UsageError(`cannot read the budget file "${path}"`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`the budget file "${path}" is not valid JSON: ${(error as Error).message}`);
  }
  try {
    return parse(raw);
  } catch (error) {
    if (error instanceof BudgetError) throw new UsageError(`the budget file "${path}": ${error.message}`);
    throw error;
  }
}

/** A budget that breaks a rule; the message names the offending key. */
export class BudgetError extends Error {}

/** Validates a parsed budget; throws with a message naming the offending field. */
export function parseBudget(raw: unknown): Budget {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw new BudgetError(`must be a JSON object with any of ${fields.map((f) => `"${f}"`).join(", ")}`);
  }
  const record = raw as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (!fields.includes(key)) {
      throw new BudgetError(
        `unknown field "${key}"; the fields are ${fields.map((f) => `"${f}"`).join(", ")}`,
      );
    }
  }
  const budget: Budget = { categories: {}, checks: [] };
  if (record.score !== undefined) budget.score = minimum(record.score, "score");
  if (record.categories !== undefined) {
    const given = record.categories;
    if (typeof given !== "object" || given === null || Array.isArray(given)) {
      throw new BudgetError(`"categories" must be an object of category → minimum score`);
    }
    for (const [name, value] of Object.entries(given)) {
      if (!categories.includes(name)) {
        throw new BudgetError(
          `"categories.${name}": unknown category; the categories are ${categories.join(", ")}`,
        );
      }
      budget.categories[name] = minimum(value, `categories.${name}`);
    }
  }
  if (record.checks !== undefined) {
    if (!Array.isArray(record.checks)) throw new BudgetError(`"checks" must be a list of check ids`);
    record.checks.forEach((id: unknown, index) => {
      if (typeof id !== "string") throw new BudgetError(`"checks[${index}]" must be a check id (a string)`);
      if (!checkIds.has(id)) {
        throw new BudgetError(
          `"checks[${index}]": unknown check "${id}" (see GET /api/v1/checks for the ids)`,
        );
      }
      if (budget.checks.includes(id)) throw new BudgetError(`"checks[${index}]": "${id}" is listed twice`);
      budget.checks.push(id);
    });
  }
  return budget;
}

function minimum(value: unknown, field: string): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0 || value > 100) {
    throw new BudgetError(`"${field}" must be a whole number from 0 to 100, got ${JSON.stringify(value)}`);
  }
  return value;
}

/** One sentence per breach of the budget by the report; empty when the report keeps within it. */
export function budgetBreaches(budget: Budget, report: AnalysisReport): string[] {
  const breaches: string[] = [];
  if (budget.score !== undefined && report.score < budget.score) {
    breaches.push(`score ${report.score} is below the minimum ${budget.score}`);
  }
  for (const [name, min] of Object.entries(budget.categories)) {
    const value = (report.categories as Record<string, number | null>)[name] ?? null;
    if (value === null) breaches.push(`category ${name} has no score (no check applied); minimum ${min}`);
    else if (value < min) breaches.push(`category ${name} score ${value} is below the minimum ${min}`);
  }
  for (const id of budget.checks) {
    const result = report.results[id];
    if (result === undefined) breaches.push(`check ${id} did not run; it must pass`);
    else if (result.status !== "pass") breaches.push(`check ${id} is ${result.status}; it must pass`);
  }
  return breaches;
}
