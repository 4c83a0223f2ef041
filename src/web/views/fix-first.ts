/**
 * "Fix first" on the crawl page and the project page: the crawl's page checks and site issues in one ranking
 * (crawls/fix-first.ts), each linking to its pages: a page check to the pages where it failed or warned, a site
 * issue to its findings opened on the crawl page.
 */
import type { Fix } from "../../crawls/fix-first.js";
import { html, type SafeHtml } from "../html.js";

/** Fixes the crawl page and the project page list. */
export const fixFirstShown = 5;

/** Where a fix's pages are listed. */
export function fixHref(crawlId: number, fix: Fix): string {
  return fix.kind === "page_check"
    ? `/crawls/${crawlId}/checks/${encodeURIComponent(fix.check)}/pages`
    : `/crawls/${crawlId}?open=${encodeURIComponent(fix.check)}#issue-${encodeURIComponent(fix.check)}`;
}

/**
 * The first `fixes` of the ranking as a list (the caller cuts it), with a line saying what it ranks by; each
 * links to its pages (`href`: the owner's pages by default, the audit's pages on a shared audit).
 */
export function fixFirstList(
  crawlId: number,
  fixes: Fix[],
  total: number,
  href: (crawlId: number, fix: Fix) => string = fixHref,
): SafeHtml {
  if (fixes.length === 0) return html`<p>Nothing failed or warned in this crawl.</p>`;
  return html`<p class="muted">Page checks and site issues together, by priority (importance × pages affected)${total > fixes.length ? `: the first ${fixes.length} of ${total}` : ""}.</p>
<ol class="fix-first">${fixes.map(
    (fix) =>
      html`<li><a href="${href(crawlId, fix)}"><strong>${fix.title}</strong></a> <span class="muted">(${fix.importance}, ${fix.kind === "page_check" ? "page check" : "site issue"})</span>: ${fix.pages} ${fix.pages === 1 ? "page" : "pages"}${
        fix.templates.length > 0
          ? html` <span class="muted">— ${fix.templates
              .slice(0, 3)
              .map((template) => `${template.pattern} (${template.pages})`)
              .join(", ")}</span>`
          : ""
      }${fix.how_to_fix ? html`<br><span class="how-to-fix">${fix.how_to_fix}</span>` : ""}</li>`,
  )}</ol>`;
}

/** The crawl page's card. */
export function fixFirstSection(crawlId: number, fixes: Fix[], total: number): SafeHtml {
  return html`<section class="card" id="fix-first" aria-labelledby="fix-first-heading"><h2 id="fix-first-heading">Fix first</h2>${fixFirstList(crawlId, fixes, total)}</section>`;
}
