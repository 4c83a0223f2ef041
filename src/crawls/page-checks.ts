/**
 * What a crawl keeps of a page's check results for its roll-up and comparisons: the checks that failed or warned
 * and the page's URL pattern (`urlTemplate`), the unit of "one fix clears N pages"; and, read back from the
 * page's analysis when its affected pages are listed, a check's message and first evidence items
 * (`checkEvidence`). Pure functions of the results: nothing here reads or writes.
 */
import type { CheckResults } from "../analysis/judge.js";

/** Evidence items kept per page and check (the API's `check_page.items`). */
export const keptEvidenceItems = 5;

export interface PageCheck {
  check: string;
  status: "fail" | "warn";
}

/** A check's message and its first evidence items (a JSON array), as a crawl lists its affected pages. */
export interface CheckEvidence {
  message: string;
  items: string;
}

/**
 * A page's URL path pattern: `/` for the root, a one-segment path as itself (`/about`), otherwise the first
 * segment followed by `/*` (`/blog/2024/post` → `/blog/*`). The query string does not count.
 */
export function urlTemplate(url: string): string {
  const path = new URL(url).pathname;
  const rest = path.slice(1);
  if (rest === "") return "/";
  const slash = rest.indexOf("/");
  return slash === -1 ? path : `/${rest.slice(0, slash)}/*`;
}

/** The checks that failed or warned, in the results' order. */
export function failedChecksOf(results: CheckResults): PageCheck[] {
  const kept: PageCheck[] = [];
  for (const [check, result] of Object.entries(results)) {
    if (result.status !== "fail" && result.status !== "warn") continue;
    kept.push({ check, status: result.status });
  }
  return kept;
}

/**
 * The check's message and first evidence items in the page's results; an empty message and no items when the
 * results say nothing of it (or are no longer stored: the report deleted, or the analysis beyond its history).
 */
export function checkEvidence(results: CheckResults | null, check: string): CheckEvidence {
  const result = results?.[check];
  if (!result) return { message: "", items: "[]" };
  return {
    message: result.message,
    items: JSON.stringify(result.details?.items.slice(0, keptEvidenceItems) ?? []),
  };
}
