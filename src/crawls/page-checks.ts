/**
 * What a crawl keeps of a page's check results for its roll-up: the checks that failed or warned, each with its
 * message and first evidence items, and the page's URL pattern (`urlTemplate`), the unit of "one fix clears N
 * pages". A pure function of the results: nothing here reads or writes.
 */
import type { CheckResults } from "../analysis/judge.js";

/** Evidence items kept per page and check (the API's `check_page.items`). */
export const keptEvidenceItems = 5;

export interface PageCheck {
  check: string;
  status: "fail" | "warn";
  message: string;
  /** JSON array of the first evidence items. */
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
    kept.push({
      check,
      status: result.status,
      message: result.message,
      items: JSON.stringify(result.details?.items.slice(0, keptEvidenceItems) ?? []),
    });
  }
  return kept;
}
