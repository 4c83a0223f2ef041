/**
 * The comparison page of two crawls (`/crawls/{id}/diff`): the score change and regressions first, then the new
 * and resolved site findings (each page linking to its report), the page checks regressed and fixed, and the
 * pages added, removed or changed. Checks are named by their titles, their ids beside them in small type.
 * Server-rendered; no script.
 */
import { checkTitle } from "../../analysis/check-titles.js";
import type { CrawlDiff, SiteIssueChange } from "../../crawls/crawl-diff.js";
import type { CrawlRow } from "../../crawls/crawl-store.js";
import { findingPath, wholeListLinkKeys } from "../../crawls/finding-url-lists.js";
import { type HtmlValue, html, type SafeHtml } from "../html.js";
import { listedNote } from "./crawl-findings.js";
import { findingParts } from "./finding-parts.js";
import { alert } from "./forms.js";
import { cutListNote } from "./site-issues.js";

export interface CrawlDiffView {
  crawl: CrawlRow;
  diff: CrawlDiff;
  /** The report of each page named, for links. */
  reports: Map<string, number>;
}

export function crawlDiffBody({ crawl, diff, reports }: CrawlDiffView): SafeHtml {
  const page = (url: string): SafeHtml => {
    const report = reports.get(url);
    return report === undefined
      ? html`<span class="key">${url}</span>`
      : html`<a href="/reports/${String(report)}">${url}</a>`;
  };
  return html`<article class="crawl-diff">
  <h1>What changed on <span class="key">${diff.project}</span></h1>
  <p class="muted"><a href="/crawls/${String(crawl.id)}">Crawl of ${crawl.url}</a>${diff.from ? html` compared with <a href="/crawls/${String(diff.from.id)}">the crawl finished ${stamp(diff.from.finished_at)} UTC</a>` : ""}</p>
  ${diff.from === null ? html`<section class="card"><p>There is no earlier complete crawl of ${diff.project} to compare this one with.</p></section>` : changes(diff, page)}
</article>`;
}

/** Why the comparison cannot be shown (the crawl is not complete, or `from` is not a crawl to compare with). */
export function crawlDiffRefusal(crawl: CrawlRow, message: string): SafeHtml {
  return html`<article class="crawl-diff">
  <h1>What changed on <span class="key">${crawl.project}</span></h1>
  ${alert(message)}
  <p><a href="/crawls/${String(crawl.id)}">Back to the crawl</a></p>
</article>`;
}

function changes(diff: CrawlDiff, page: (url: string) => SafeHtml): SafeHtml {
  const { regressions } = diff;
  const newCount = diff.site_issues.reduce((total, issue) => total + issue.new_count, 0);
  const resolvedCount = diff.site_issues.reduce((total, issue) => total + issue.resolved_count, 0);
  return html`<section class="card">
  <h2>In short</h2>
  <dl class="facts">
    <div><dt>Site score</dt><dd>${diff.from?.score ?? "–"} → ${diff.to.score ?? "–"}${diff.score_change === null ? "" : ` (${diff.score_change > 0 ? "+" : ""}${diff.score_change})`}</dd></div>
    <div><dt>New findings</dt><dd>${newCount}</dd></div>
    <div><dt>Resolved findings</dt><dd>${resolvedCount}</dd></div>
    <div><dt>Regressions</dt><dd>${regressions.high} high · ${regressions.medium} medium · ${regressions.low} low</dd></div>
    <div><dt>Coverage</dt><dd title="Findings about URLs only one of the two crawls reached: neither new nor resolved">${diff.coverage.newly_checked} newly checked · ${diff.coverage.no_longer_checked} no longer checked</dd></div>
  </dl>
</section>
<section class="card" id="new">
  <h2>New findings</h2>
  ${findingList(diff.site_issues, "new", diff.to.id, page, "No new site finding.")}
</section>
<section class="card" id="resolved">
  <h2>Resolved findings</h2>
  ${findingList(diff.site_issues, "resolved", diff.from?.id ?? diff.to.id, page, "No site finding was resolved.")}
</section>
<section class="card" id="page-checks">
  <h2>Page checks regressed and fixed</h2>
  ${
    diff.page_checks.length === 0
      ? html`<p>No page check got worse or better on the pages both crawls analysed.</p>`
      : diff.page_checks.map(
          (check) => html`<details class="page-check importance-${check.importance}" open>
    <summary><strong>${checkTitle(check.check)}</strong> <code class="muted check-id">${check.check}</code> <span class="muted">${check.importance} · ${check.regressed} regressed · ${check.fixed} fixed</span></summary>
    <ul class="evidence">${check.pages.map((entry) => html`<li>${page(entry.url)} <span class="muted">${entry.from} → ${entry.to}</span></li>`)}</ul>
    ${listedNote(check.pages.length, check.regressed + check.fixed)}
  </details>`,
        )
  }
</section>
<section class="card" id="pages">
  <h2>Pages</h2>
  ${
    diff.pages.added.length +
      diff.pages.removed.length +
      diff.pages.status_changed.length +
      diff.pages.indexability_changed.length ===
    0
      ? html`<p>No page was added or removed, and none changed its status or indexability.</p>`
      : ""
  }
  ${pageList(
    "Added",
    diff.pages.added.map((url) => page(url)),
  )}
  ${pageList(
    "Removed",
    diff.pages.removed.map((url) => page(url)),
  )}
  ${pageList(
    "Status changed",
    diff.pages.status_changed.map(
      (entry) =>
        html`${page(entry.url)} <span class="muted">${entry.from ?? "no answer"} → ${entry.to ?? "no answer"}</span>`,
    ),
  )}
  ${pageList(
    "Indexability changed",
    diff.pages.indexability_changed.map(
      (entry) =>
        html`${page(entry.url)} <span class="muted">${entry.to ? "now indexable" : "no longer indexable"}</span>`,
    ),
  )}
  ${diff.pages.truncated > 0 ? html`<p class="muted">${diff.pages.truncated} more left out (each list shows its first 100).</p>` : ""}
</section>`;
}

function findingList(
  issues: SiteIssueChange[],
  side: "new" | "resolved",
  /** The crawl the side's findings are of (the later crawl's new ones, the earlier one's resolved ones). */
  crawlId: number,
  page: (url: string) => SafeHtml,
  none: string,
): SafeHtml {
  const shown = issues.filter((issue) => issue[`${side}_count`] > 0);
  if (shown.length === 0) return html`<p>${none}</p>`;
  return html`${shown.map(
    (issue) => html`<details class="site-issue importance-${issue.importance}" open>
    <summary><strong>${checkTitle(issue.check)}</strong> <code class="muted check-id">${issue.check}</code> <span class="muted">${issue.importance} · ${issue[`${side}_count`]} ${side}</span></summary>
    <ul class="evidence">${issue[side].map((item) => html`<li>${findingMarkup(withWebLink(item, crawlId, issue.check), page)}</li>`)}</ul>
    ${listedNote(issue[side].length, issue[`${side}_count`])}
  </details>`,
  )}`;
}

/**
 * The finding with the address of its whole URL list on the web (`findingPath`) instead of the API's, where the
 * comparison cut the list (finding-url-lists.ts).
 */
function withWebLink(item: Record<string, unknown>, crawlId: number, check: string): Record<string, unknown> {
  if (typeof item.fingerprint !== "string") return item;
  const path = findingPath(crawlId, check, item.fingerprint);
  if (typeof item.pages_url === "string") return { ...item, pages_url: path };
  if (typeof item.chain_url === "string") return { ...item, chain_url: path };
  return item;
}

/**
 * One finding: its page or group of pages (linking to their reports; a cut group or chain to its whole list), its
 * other facts, its linking pages.
 */
function findingMarkup(item: Record<string, unknown>, page: (url: string) => SafeHtml): HtmlValue {
  const { urls, facts, sources } = findingParts(item, wholeListLinkKeys);
  return html`${urls.map((url, index) => html`${index > 0 ? ", " : ""}${page(url)}`)}${cutListNote(item)}${facts.length > 0 ? html` <span class="muted">${facts.join(" · ")}</span>` : ""}${sources.length > 0 ? html`<br><span class="muted">linked from </span>${sources.map((url, index) => html`${index > 0 ? ", " : ""}${page(url)}`)}` : ""}`;
}

function pageList(title: string, entries: SafeHtml[]): SafeHtml | "" {
  if (entries.length === 0) return "";
  return html`<h3>${title}</h3><ul class="evidence">${entries.map((entry) => html`<li>${entry}</li>`)}</ul>`;
}

function stamp(at: string | null): string {
  return at === null ? "–" : at.slice(0, 16).replace("T", " ");
}
