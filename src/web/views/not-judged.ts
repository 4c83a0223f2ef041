/**
 * Honest empty states on the report page: a category whose checks did not run on this analysis (accessibility
 * and the lab metrics are measured only with the page rendered in a browser) says so and how to get them, never
 * "Nothing to fix here."; a category judged in part names the checks left unmeasured. The "To fix" list shows
 * every category at once, so these notes follow it, one per category concerned.
 */
import { notRendered } from "../../analysis/check-needs.js";
import { categoryNames } from "../../analysis/checks/check.js";
import type { CheckResult } from "../../analysis/judge.js";
import { html, type SafeHtml } from "../html.js";

type Finding = [id: string, result: CheckResult];

const howToRender =
  'Analyse the page again in rendered mode ("mode": "rendered" in the API, or a crawl read “Rendered in Chromium”) to judge them.';

/** The checks that were not measured because the analysis did not render the page. */
export function unrenderedChecks(results: Finding[]): string[] {
  return results
    .filter(([, result]) => result.status === "na" && result.message === notRendered)
    .map(([id]) => id);
}

/** Whether no check gave a verdict (pass, warn or fail): nothing was judged. */
export function nothingJudged(results: Finding[]): boolean {
  return !results.some(([, result]) => ["pass", "warn", "fail"].includes(result.status));
}

/**
 * What an empty "To fix" list says: "Nothing to fix" only when something was judged; nothing at all when the
 * checks were left unjudged for want of rendering (the notes below say so); else that none of them applies.
 */
export function emptyState(results: Finding[], scope: string): SafeHtml | "" {
  if (!nothingJudged(results)) return html`<p class="all-clear">Nothing to fix${scope}.</p>`;
  if (unrenderedChecks(results).length > 0) return "";
  return html`<p class="not-judged">Not judged: none of these checks applies to this page.</p>`;
}

/**
 * One note per category (all, or the chosen one) with checks left unmeasured for want of rendering: "not
 * judged" when none of its checks gave a verdict, else the unmeasured checks by name; each says how to get them.
 */
export function notJudgedNotes(
  results: Record<string, CheckResult>,
  category: string,
  titleOf: (id: string) => string,
): SafeHtml[] {
  return Object.keys(categoryNames)
    .filter((name) => !category || name === category)
    .flatMap((name) => {
      const entries = Object.entries(results).filter(([, result]) => result.category === name);
      const unrendered = unrenderedChecks(entries);
      if (unrendered.length === 0) return [];
      const label = categoryNames[name];
      return [
        nothingJudged(entries)
          ? html`<p class="not-judged" id="not-judged-${name}">${label}: not judged in this analysis. These checks need the page rendered in a browser, and it was analysed as served. ${howToRender}</p>`
          : html`<p class="muted not-measured" id="not-judged-${name}">${label}: not measured in this analysis (they need the page rendered in a browser): ${unrendered.map(titleOf).join(", ")}. ${howToRender}</p>`,
      ];
    });
}
