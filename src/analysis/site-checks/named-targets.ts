/**
 * What the checks of the pages a page names share (its canonical, its hreflang alternates): which named pages
 * the crawl judged, and what makes one unfit to be named.
 */
import type { SitePage } from "./site-facts.js";
import { isBroken } from "./site-source.js";

/**
 * The page the crawl knows at a named URL, when it judged it: null for a URL it did not fetch, left out, or
 * never reached (no answer and no failure), which are not judged.
 */
export function judgedTarget(targets: ReadonlyMap<string, SitePage>, url: string): SitePage | null {
  const target = targets.get(url);
  if (!target || target.excluded !== null || (target.statusCode === null && target.error === null))
    return null;
  return target;
}

/**
 * What makes a named page unfit, in words, or null: it redirects, is broken, is noindex (when `noindex` counts)
 * or names another URL as canonical.
 */
export function unfitTarget(target: SitePage, counts: { noindex: boolean }): string | null {
  if (target.redirectTo !== null) return `redirects to ${target.redirectTo}`;
  if (isBroken(target))
    return target.statusCode === null ? "cannot be fetched" : `answers ${target.statusCode}`;
  if (counts.noindex && target.noindex) return "is noindex";
  if (target.canonical !== null && target.canonical !== target.url)
    return `names ${target.canonical} as canonical`;
  return null;
}
