/**
 * A crawl's shared audit (`/crawls/{id}/audit`), for the client it is handed to: the site score, what to fix first
 * (first, so a phone's first screen holds it), the score over the project's crawls, what changed against the
 * crawl before, and every issue with its pages on a page of its own (`/crawls/{id}/audit/issues/{check}`, paged).
 * Nothing of the owner's account and no link into a private page: the pages are named, not linked.
 */
import { checkTitle } from "../../analysis/check-titles.js";
import type { AuditContents, IssuePages } from "../../crawls/crawl-audits.js";
import type { Fix } from "../../crawls/fix-first.js";
import { listedSiteIssueObject } from "../../crawls/present.js";
import { html, type SafeHtml } from "../html.js";
import { pager } from "./crawl-findings.js";
import { fixFirstList } from "./fix-first.js";
import { day } from "./history.js";
import { crawlScoreChart, latestCrawlChanges } from "./project-dashboard.js";
import { itemRow } from "./site-issues.js";
import { stacked } from "./stacked-table.js";

/** Fixes the audit page lists first; every issue follows in the issues card. */
export const auditFixesShown = 10;
/** Pages or findings per page of an issue's list. */
export const auditItemsPerPage = 25;

export function auditPath(crawlId: number): string {
  return `/crawls/${crawlId}/audit`;
}

/** Where an issue's pages are listed on the shared audit. */
export function auditIssueHref(crawlId: number, fix: Pick<Fix, "check">): string {
  return `${auditPath(crawlId)}/issues/${encodeURIComponent(fix.check)}`;
}

export function auditBody({ crawl, trend, fixes, changes }: AuditContents): SafeHtml {
  return html`<article class="audit">
  <h1>Site audit of <span class="key">${crawl.project}</span></h1>
  <p class="muted">${crawl.url} · ${crawl.finished_at ? `crawled ${day(crawl.finished_at)}` : "crawl not finished"} · ${crawl.analysed} ${crawl.analysed === 1 ? "page" : "pages"} analysed${crawl.finished_at ? html` · <a href="${auditPath(crawl.id)}.pdf" download>Download the audit (PDF)</a>` : ""}</p>
  <section class="card audit-score">
    ${crawl.score === null ? html`<p>No page was analysed.</p>` : html`<p class="score result-${crawl.result ?? ""}">Site score <strong>${crawl.score}</strong> (${crawl.result ?? ""}), the mean of its pages' scores.</p>`}
    <p class="issue-counts"><a href="#site-issues">Site issues</a>: <span class="badge status-fail">${crawl.issues_high} high</span> <span class="badge status-warn">${crawl.issues_medium} medium</span> <span class="badge status-info">${crawl.issues_low} low</span></p>
  </section>
  <section class="card" id="fix-first" aria-labelledby="fix-first-heading">
    <h2 id="fix-first-heading">Fix first</h2>
    ${fixFirstList(crawl.id, fixes.slice(0, auditFixesShown), fixes.length, auditIssueHref)}
  </section>
  ${trend.length > 0 ? html`<section class="card"><h2>Site score over ${trend.length === 1 ? "one crawl" : `the last ${trend.length} crawls`}</h2>${crawlScoreChart(trend, false)}</section>` : ""}
  ${changes ? latestCrawlChanges(changes, null) : ""}
  <section class="card" id="site-issues" aria-labelledby="issues-heading">
    <h2 id="issues-heading">Every issue</h2>
    ${
      fixes.length === 0
        ? html`<p>Nothing failed or warned in this crawl.</p>`
        : stacked(html`<table>
      <thead><tr><th scope="col">Issue</th><th scope="col">Importance</th><th scope="col">Pages</th></tr></thead>
      <tbody>${fixes.map(
        (fix) => html`<tr>
        <td><a href="${auditIssueHref(crawl.id, fix)}">${fix.title}</a> <span class="muted">(${fix.kind === "page_check" ? "page check" : "site issue"})</span></td>
        <td>${fix.importance}</td>
        <td>${fix.pages}</td>
      </tr>`,
      )}</tbody>
    </table>`)
    }
  </section>
</article>`;
}

export function auditIssueBody(
  contents: Pick<AuditContents, "crawl">,
  fix: Fix,
  list: IssuePages,
  page: number,
): SafeHtml {
  const { crawl } = contents;
  const path = auditIssueHref(crawl.id, fix);
  const back = html`<p class="muted"><a href="${auditPath(crawl.id)}">Site audit of ${crawl.project}</a> · ${fix.importance} · ${fix.pages} ${fix.pages === 1 ? "page" : "pages"}</p>`;
  const howToFix = fix.how_to_fix
    ? html`<section class="card"><h2>How to fix</h2><p>${fix.how_to_fix}</p></section>`
    : "";
  if (list.kind === "page_check") {
    return html`<article class="audit">
  <h1>${checkTitle(list.check)}</h1>
  ${back}
  ${howToFix}
  <section class="card">
    ${stacked(html`<table>
      <thead><tr><th scope="col">Page</th><th scope="col">Status</th><th scope="col">Message</th></tr></thead>
      <tbody>${list.rows.map(
        (row) => html`<tr>
        <td><span class="key">${row.url}</span></td>
        <td><span class="result-${row.status === "fail" ? "bad" : "decent"}">${row.status}</span></td>
        <td>${row.message}</td>
      </tr>`,
      )}</tbody>
    </table>`)}
    ${pager(path, {}, page, list.total, auditItemsPerPage, list.total === 1 ? "page" : "pages")}
  </section>
</article>`;
  }
  // A group's first pages and a chain's first URLs with their counts; the whole lists are the owner's (signed in).
  const issue = listedSiteIssueObject(list.issue, null);
  const shown = issue.items.slice((page - 1) * auditItemsPerPage, page * auditItemsPerPage);
  return html`<article class="audit">
  <h1>${issue.title}</h1>
  ${back}
  <p>${issue.message}</p>
  ${howToFix}
  <section class="card">
    ${stacked(html`<table>
      <thead><tr><th scope="col">Page</th><th scope="col">Details</th><th scope="col">Linked from</th></tr></thead>
      <tbody>${shown.map((item) => itemRow(item))}</tbody>
    </table>`)}
    ${pager(path, {}, page, issue.items.length, auditItemsPerPage, issue.items.length === 1 ? "finding" : "findings")}
    ${issue.truncated ? html`<p class="muted">The first ${issue.items.length} of ${issue.count} findings are listed.</p>` : ""}
  </section>
</article>`;
}
