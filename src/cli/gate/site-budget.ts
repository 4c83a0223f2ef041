/**
 * The budget of `pagegrade crawl --budget`: the most findings allowed and the lowest site score, read from a JSON
 * file and validated strictly (every unknown key, check id, category or importance is an error naming it, so a
 * typo never silently disables a limit).
 *
 *   {"score": 70, "max_findings": {"checks": {"broken-links": 0}, "categories": {"security": 10},
 *                                  "importance": {"high": 0, "medium": 25}}}
 */
import { catalogue } from "../../analysis/catalogue.js";
import { siteChecks } from "../../analysis/site-checks/index.js";
import { BudgetError, loadBudgetFile } from "./budget.js";

export interface SiteBudget {
  score?: number;
  checks: Record<string, number>;
  categories: Record<string, number>;
  importance: Record<string, number>;
}

const checkIds = new Set([...catalogue.map((entry) => entry.id), ...siteChecks.map((check) => check.id)]);
const categories = [...new Set([...catalogue.map((entry) => entry.category), "miscellaneous"])];
const importanceNames = ["high", "medium", "low"];

export function loadSiteBudget(path: string): SiteBudget {
  return loadBudgetFile(path, parseSiteBudget);
}

/** Validates a parsed site budget; throws with a message naming the offending key. */
export function parseSiteBudget(raw: unknown): SiteBudget {
  const record = object(raw, "the budget", ["score", "max_findings"]);
  const budget: SiteBudget = { checks: {}, categories: {}, importance: {} };
  if (record.score !== undefined) budget.score = whole(record.score, "score", 100);
  if (record.max_findings === undefined) return budget;
  const most = object(record.max_findings, "max_findings", ["checks", "categories", "importance"]);
  const limits = (
    key: "checks" | "categories" | "importance",
    known: (name: string) => boolean,
    what: string,
  ) => {
    if (most[key] === undefined) return;
    for (const [name, value] of Object.entries(object(most[key], `max_findings.${key}`))) {
      if (!known(name)) throw new BudgetError(`"max_findings.${key}.${name}": unknown ${what}`);
      budget[key][name] = whole(value, `max_findings.${key}.${name}`);
    }
  };
  limits(
    "checks",
    (name) => checkIds.has(name),
    "check (see GET /api/v1/checks and the site checks for the ids)",
  );
  limits(
    "categories",
    (name) => categories.includes(name),
    `category; the categories are ${categories.join(", ")}`,
  );
  limits("importance", (name) => importanceNames.includes(name), "importance; use high, medium or low");
  return budget;
}

function object(value: unknown, field: string, keys?: string[]): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new BudgetError(`"${field}" must be a JSON object`);
  }
  const record = value as Record<string, unknown>;
  if (keys) {
    for (const key of Object.keys(record)) {
      if (!keys.includes(key)) {
        const where = field === "the budget" ? key : `${field}.${key}`;
        throw new BudgetError(`unknown key "${where}"; the keys are ${keys.map((k) => `"${k}"`).join(", ")}`);
      }
    }
  }
  return record;
}

function whole(value: unknown, field: string, max = Number.MAX_SAFE_INTEGER): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0 || value > max) {
    throw new BudgetError(
      `"${field}" must be a whole number from 0${max === 100 ? " to 100" : ""}, got ${JSON.stringify(value)}`,
    );
  }
  return value;
}
