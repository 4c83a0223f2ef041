/**
 * The site gate's rules (`pagegrade crawl --baseline / --budget`), pure functions of two saved crawls:
 * - against a baseline, a finding is new when the crawl has a site-issue fingerprint the baseline lacks about
 *   URLs the baseline's crawl reached (else it is coverage, not new: crawls/finding-coverage.ts), or a
 *   page check is worse on a URL than in the baseline (the rule of a report's diff, `verdictChange`); only
 *   those at or above the `--fail-on` importance fail the gate;
 * - a budget caps findings: a site check's findings are its items, a page check's the pages where it fails or
 *   warns, a category or an importance adds up its checks'; and sets the lowest site score.
 */

import { verdictChange } from "../../analysis/analysis-diff.js";
import { isChange, type OtherCrawl, subjectUrls } from "../../crawls/finding-coverage.js";
import type { SiteBudget } from "./site-budget.js";
import { pageCheckInfo, type SiteSnapshot } from "./site-snapshot.js";

export const importances = ["high", "medium", "low"] as const;
export type Importance = (typeof importances)[number];

/** One finding the baseline did not have, with the line that names it. */
export interface NewFinding {
  check: string;
  importance: string;
  /** The finding's identity: a site finding's fingerprint, or `url` for a page check. */
  key: string;
  line: string;
}

const rank = (importance: string) => {
  const index = importances.indexOf(importance as Importance);
  return index === -1 ? importances.length : index;
};

/** Whether a finding of this importance counts at the `failOn` level (at or above it). */
export function atOrAbove(importance: string, failOn: Importance): boolean {
  return rank(importance) <= rank(failOn);
}

/** Every finding of `current` absent from `baseline`, of any importance, site findings first. */
export function newFindings(baseline: SiteSnapshot, current: SiteSnapshot): NewFinding[] {
  const known = new Set(
    baseline.issues.flatMap((issue) => issue.items.map((item) => `${issue.check}\n${item.fingerprint}`)),
  );
  const seen = baselineSeen(baseline);
  const found: NewFinding[] = [];
  for (const issue of current.issues) {
    for (const item of issue.items) {
      if (known.has(`${issue.check}\n${item.fingerprint}`)) continue;
      if (!isChange(item, seen)) continue;
      const subject =
        typeof item.url === "string" ? item.url : Array.isArray(item.pages) ? item.pages.join(" ") : "";
      found.push({
        check: issue.check,
        importance: issue.importance,
        key: item.fingerprint,
        line: `new ${issue.check} finding (${issue.importance}): ${subject}`,
      });
    }
  }
  const before = new Map(baseline.pages.map((page) => [page.url, page.checks]));
  for (const page of current.pages) {
    const was = before.get(page.url);
    if (!was) continue;
    for (const [check, status] of Object.entries(page.checks)) {
      const previous = was[check] ?? "pass";
      if (verdictChange(previous, status) !== "regressed") continue;
      const { importance } = pageCheckInfo(check);
      found.push({
        check,
        importance,
        key: page.url,
        line: `${check} (${importance}) got worse on ${page.url}: ${previous} → ${status}`,
      });
    }
  }
  return found;
}

/** How many of the crawl's findings the baseline's crawl could not have seen (their URLs not reached then). */
export function newlyChecked(baseline: SiteSnapshot, current: SiteSnapshot): number {
  const known = new Set(
    baseline.issues.flatMap((issue) => issue.items.map((item) => `${issue.check}\n${item.fingerprint}`)),
  );
  const seen = baselineSeen(baseline);
  let count = 0;
  for (const issue of current.issues)
    for (const item of issue.items)
      if (!known.has(`${issue.check}\n${item.fingerprint}`) && !isChange(item, seen)) count++;
  return count;
}

/**
 * What the baseline's crawl could see: the URLs it reached and came upon; for a baseline saved without them, its
 * analysed pages and its findings' URLs stand in for the reached ones.
 */
function baselineSeen(baseline: SiteSnapshot): OtherCrawl {
  if (baseline.reached) {
    const reached = new Set(baseline.reached);
    const known = new Set([...reached, ...(baseline.left_out ?? [])]);
    return { reached: (url) => reached.has(url), knows: (url) => known.has(url) };
  }
  const reached = new Set([
    ...baseline.pages.map((page) => page.url),
    ...baseline.issues.flatMap((issue) => issue.items.flatMap(subjectUrls)),
  ]);
  return { reached: (url) => reached.has(url) };
}

/** How many findings the crawl has, by check (site checks: items; page checks: pages failing or warning). */
export function findingCounts(
  current: SiteSnapshot,
): Array<{ check: string; category: string; importance: string; count: number }> {
  return [
    ...current.issues.map((issue) => ({
      check: issue.check,
      category: issue.category,
      importance: issue.importance,
      count: issue.items.length,
    })),
    ...current.checks.map((check) => ({
      check: check.check,
      category: check.category,
      importance: check.importance,
      count: check.pages,
    })),
  ];
}

/** One line per breach of the budget; empty when the crawl keeps within it. */
export function siteBudgetBreaches(budget: SiteBudget, current: SiteSnapshot): string[] {
  const breaches: string[] = [];
  const score = current.crawl.score;
  if (budget.score !== undefined && (score === null || score < budget.score)) {
    breaches.push(`site score ${score ?? "none"} is below the minimum ${budget.score}`);
  }
  const counts = findingCounts(current);
  const total = (keep: (count: (typeof counts)[number]) => boolean) =>
    counts.filter(keep).reduce((sum, count) => sum + count.count, 0);
  for (const [check, most] of Object.entries(budget.checks)) {
    const found = total((count) => count.check === check);
    if (found > most) breaches.push(`check ${check} has ${found} findings; at most ${most} allowed`);
  }
  for (const [category, most] of Object.entries(budget.categories)) {
    const found = total((count) => count.category === category);
    if (found > most) breaches.push(`category ${category} has ${found} findings; at most ${most} allowed`);
  }
  for (const [importance, most] of Object.entries(budget.importance)) {
    const found = total((count) => count.importance === importance);
    if (found > most) breaches.push(`${importance}-importance findings: ${found}; at most ${most} allowed`);
  }
  return breaches;
}
