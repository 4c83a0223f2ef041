/**
 * Honest empty states on the report page: a category whose checks did not run on this analysis (accessibility
 * and the lab metrics are measured only with the page rendered in a browser) says so and how to get them,
 * instead of "Nothing to fix here."; a category judged in part names the checks left unmeasured.
 */
import { notRendered } from "../../analysis/check-needs.js";
import type { CheckResult } from "../../analysis/judge.js";
import { html, type SafeHtml } from "../html.js";

const howToRender =
  'Analyse the page again in rendered mode ("mode": "rendered" in the API, or a crawl read “Rendered in Chromium”) to judge them.';

/** The category's checks that were not measured because the analysis did not render the page. */
export function unrenderedChecks(results: Array<[string, CheckResult]>): string[] {
  return results
    .filter(([, result]) => result.status === "na" && result.message === notRendered)
    .map(([id]) => id);
}

/** Whether no check of the category gave a verdict (pass, warn or fail): nothing was judged. */
export function nothingJudged(results: Array<[string, CheckResult]>): boolean {
  return !results.some(([, result]) => ["pass", "warn", "fail"].includes(result.status));
}

/**
 * What a category with nothing to act on says: "Nothing to fix here." only when something was judged; else that
 * it was not judged, and how to get it. A note follows when some of its checks need rendering.
 */
export function emptyState(results: Array<[string, CheckResult]>, titleOf: (id: string) => string): SafeHtml {
  const unrendered = unrenderedChecks(results);
  if (nothingJudged(results)) {
    return unrendered.length > 0
      ? html`<p class="not-judged">Not judged in this analysis: these checks need the page rendered in a browser, and it was analysed as served. ${howToRender}</p>`
      : html`<p class="not-judged">Not judged: none of these checks applies to this page.</p>`;
  }
  return html`<p class="all-clear">Nothing to fix here.</p>${unrenderedNote(unrendered, titleOf)}`;
}

/** A judged category's checks left unmeasured for want of rendering, named. */
export function unrenderedNote(unrendered: string[], titleOf: (id: string) => string): SafeHtml | "" {
  if (unrendered.length === 0) return "";
  return html`<p class="muted not-measured">Not measured in this analysis (they need the page rendered in a browser): ${unrendered.map(titleOf).join(", ")}. ${howToRender}</p>`;
}
