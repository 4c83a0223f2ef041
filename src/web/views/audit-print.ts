/**
 * A crawl's audit as a printed document, for its PDF (src/web/pdf/audit-printer.ts): a cover (the site, the date,
 * the site score and its trend chart), the contents, what to fix first, what changed against the crawl before,
 * and every issue with its first pages (the counts complete), linking only within the document; plus Chromium's
 * header (the site and the date) and the report PDF's footer (page numbers). Page text stays text: everything
 * goes through the html template.
 */
import type { Brand } from "../../branding/brandings.js";
import type { AuditContents, IssuePages } from "../../crawls/crawl-audits.js";
import type { Fix } from "../../crawls/fix-first.js";
import { listedSiteIssueObject } from "../../crawls/present.js";
import { html, type SafeHtml, trusted } from "../html.js";
import { auditFixesShown } from "./audit.js";
import { listedNote } from "./crawl-findings.js";
import { fixFirstList } from "./fix-first.js";
import { day } from "./history.js";
import { crawlScoreChart, latestCrawlChanges } from "./project-dashboard.js";
import { printedBrandLogo, templateStyle } from "./report-print.js";
import { itemRow } from "./site-issues.js";

/** Pages or findings each issue lists in the PDF; its count stays complete. */
export const printedIssueItems = 25;

export interface AuditPrintView extends AuditContents {
  /** Each fix's first pages, in the ranking's order. */
  lists: Array<{ fix: Fix; list: IssuePages | undefined }>;
  /** The owner's name and logo, on the cover and in the header. */
  brand: Brand;
}

const anchor = (_crawlId: number, fix: Pick<Fix, "check">) => `#issue-${fix.check}`;

export function auditPrintDocument(view: AuditPrintView, css: string): SafeHtml {
  const { crawl, trend, fixes, changes, lists, brand } = view;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>Site audit of ${crawl.project}</title>
<style>${trusted(css)}</style>
</head>
<body>
<article class="report audit-print">
  <section class="audit-cover">
    ${printedBrandLogo(brand)}
    <p class="muted">${brand.name}</p>
    <h1>Site audit of <span class="key">${crawl.project}</span></h1>
    <p class="key">${crawl.url}</p>
    <p>${crawl.finished_at ? `Crawled ${day(crawl.finished_at)}` : "Crawl not finished"} · ${crawl.analysed} ${crawl.analysed === 1 ? "page" : "pages"} analysed</p>
    ${crawl.score === null ? html`<p>No page was analysed.</p>` : html`<p class="score result-${crawl.result ?? ""}">Site score <strong>${crawl.score}</strong> (${crawl.result ?? ""})</p>`}
    <p>Site issues: ${crawl.issues_high} high · ${crawl.issues_medium} medium · ${crawl.issues_low} low</p>
    ${trend.length > 0 ? crawlScoreChart(trend, false) : ""}
  </section>
  <nav class="toc" aria-label="Contents">
    <h2>Contents</h2>
    <ol>
      <li><a href="#fix-first">Fix first</a></li>
      ${changes ? html`<li><a href="#latest-changes">What changed since the previous crawl</a></li>` : ""}
      <li><a href="#issues">Every issue</a>
        <ol>${fixes.map((fix) => html`<li><a href="${anchor(crawl.id, fix)}">${fix.title}</a> (${fix.pages})</li>`)}</ol>
      </li>
    </ol>
  </nav>
  <section class="card" id="fix-first"><h2>Fix first</h2>${fixFirstList(crawl.id, fixes.slice(0, auditFixesShown), fixes.length, anchor)}</section>
  ${changes ? latestCrawlChanges(changes, null) : ""}
  <section class="card" id="issues">
    <h2>Every issue</h2>
    ${fixes.length === 0 ? html`<p>Nothing failed or warned in this crawl.</p>` : lists.map(({ fix, list }) => printedIssue(fix, list))}
  </section>
</article>
</body>
</html>`;
}

function printedIssue(fix: Fix, list: IssuePages | undefined): SafeHtml {
  return html`<section class="audit-issue" id="issue-${fix.check}">
  <h3>${fix.title}</h3>
  <p class="muted">${fix.importance} · ${fix.kind === "page_check" ? "page check" : "site issue"} · ${fix.pages} ${fix.pages === 1 ? "page" : "pages"}</p>
  ${fix.how_to_fix ? html`<p>${fix.how_to_fix}</p>` : ""}
  ${list ? issueItems(list) : ""}
</section>`;
}

function issueItems(list: IssuePages): SafeHtml {
  if (list.kind === "page_check") {
    return html`<ul class="evidence">${list.rows.map(
      (row) =>
        html`<li><span class="key">${row.url}</span> <span class="muted">${row.status}${row.message ? ` · ${row.message}` : ""}</span></li>`,
    )}</ul>${listedNote(list.rows.length, list.total)}`;
  }
  const issue = listedSiteIssueObject(list.issue, null);
  const shown = issue.items.slice(0, printedIssueItems);
  return html`<table class="evidence">
    <thead><tr><th scope="col">Page</th><th scope="col">Details</th><th scope="col">Linked from</th></tr></thead>
    <tbody>${shown.map((item) => itemRow(item))}</tbody>
  </table>${listedNote(shown.length, issue.count)}`;
}

/** Chromium's header template: the site and the crawl's date on every page. */
export function auditPrintHeader({ crawl }: Pick<AuditContents, "crawl">, brandName: string): SafeHtml {
  return html`<div style="${templateStyle} display: flex; justify-content: space-between; gap: 6mm; align-items: flex-start;">
  <span style="word-break: break-all; max-height: 2.9em; overflow: hidden;">Site audit of ${crawl.project}</span>
  <span style="white-space: nowrap;">${brandName} · ${day(crawl.finished_at ?? crawl.created_at)}</span>
</div>`;
}
