/**
 * The check roll-up's rules, a pure function of the stored counts: a check's `priority` is its importance's
 * weight (high 10, medium 5, low 1) × (fail + warn / 2), rounded; the list runs by priority, highest first, then
 * by check id. Category and importance come from the catalogue.
 */
import { catalogue } from "../analysis/catalogue.js";
import type { CheckCounts } from "./check-rollup-store.js";

export const importanceWeights: Record<string, number> = { high: 10, medium: 5, low: 1 };

export interface CheckRollup {
  check: string;
  category: string;
  importance: string;
  fail: number;
  warn: number;
  pages: number;
  priority: number;
}

/** A roll-up row with its URL patterns, most affected pages first. */
export type CheckRollupWithTemplates = CheckRollup & { templates: Array<{ pattern: string; pages: number }> };

const entries = new Map(catalogue.map((entry) => [entry.id, entry]));

/** Whether the id names a page check (the catalogue's). */
export function isPageCheck(id: string): boolean {
  return entries.has(id);
}

/** weight × (fail + warn / 2), rounded half up, in integers: (weight × (2 fail + warn) + 1) / 2, floored. */
export function priorityOf(importance: string, fail: number, warn: number): number {
  const weight = importanceWeights[importance] ?? 0;
  return Math.floor((weight * (2 * fail + warn) + 1) / 2);
}

export function rollupOf(counts: CheckCounts[]): CheckRollup[] {
  return counts
    .map(({ check_id, fail, warn }) => {
      const entry = entries.get(check_id);
      const importance = entry?.importance ?? "low";
      return {
        check: check_id,
        category: entry?.category ?? "miscellaneous",
        importance,
        fail,
        warn,
        pages: fail + warn,
        priority: priorityOf(importance, fail, warn),
      };
    })
    .sort((a, b) => b.priority - a.priority || (a.check < b.check ? -1 : a.check > b.check ? 1 : 0));
}
