/**
 * A crawl's site issues on its page: one collapsed row per issue (importance, title, how many findings), most
 * important first; opening one shows its message and a paged table of its items, each with its pages, its other
 * facts and the pages linking to it. The open issue and its table page live in the query string (`open`,
 * `items`), so paging works without JavaScript.
 */
import type { CrawlIssueRow } from "../../crawls/crawl-store.js";
import { findingPath, wholeListLinkKeys } from "../../crawls/finding-url-lists.js";
import { listedSiteIssueObject } from "../../crawls/present.js";
import { type HtmlValue, html, type SafeHtml } from "../html.js";
import { findingParts } from "./finding-parts.js";
import { stacked } from "./stacked-table.js";

/** Items per page of an issue's table, and sources listed per item before "and N more". */
export const issueItemsPerPage = 25;
const sourcesShown = 5;
const importanceOrder = ["high", "medium", "low"];

export interface IssueTableState {
  /** The check id of the issue shown open, or "". */
  open: string;
  /** Its table's page, from 1. */
  items: number;
}

export function siteIssuesSection(crawlId: number, rows: CrawlIssueRow[], state: IssueTableState): SafeHtml {
  const issues = rows
    .map((row) => listedSiteIssueObject(row, findingPath))
    .sort((a, b) => importanceOrder.indexOf(a.importance) - importanceOrder.indexOf(b.importance));
  return html`<section class="card" id="site-issues" aria-labelledby="site-issues-heading">
  <h2 id="site-issues-heading">Site issues</h2>
  <p><a href="/crawls/${crawlId}/issues.csv" download>Download the site issues (CSV)</a></p>
  ${
    issues.length === 0
      ? html`<p>No site check found anything.</p>`
      : issues.map((issue) => {
          const open = state.open === issue.check;
          const page = open ? state.items : 1;
          const lastPage = Math.max(1, Math.ceil(issue.items.length / issueItemsPerPage));
          const shown = issue.items.slice((page - 1) * issueItemsPerPage, page * issueItemsPerPage);
          const link = (to: number) =>
            `/crawls/${crawlId}?open=${encodeURIComponent(issue.check)}&items=${to}#issue-${issue.check}`;
          return html`<details class="site-issue importance-${issue.importance}" id="issue-${issue.check}"${open ? html` open` : ""}>
    <summary><span class="badge importance-badge">${issue.importance}</span> <strong>${issue.title}</strong> <span class="issue-count">${issue.count} ${issue.count === 1 ? "finding" : "findings"}</span></summary>
    <p>${issue.message}</p>
    ${stacked(html`<table>
      <thead><tr><th scope="col">Page</th><th scope="col">Details</th><th scope="col">Linked from</th></tr></thead>
      <tbody>${shown.map((item) => itemRow(item))}</tbody>
    </table>`)}
    ${
      lastPage > 1
        ? html`<nav class="pagination" aria-label="Pages of ${issue.title}">
      ${page > 1 ? html`<a href="${link(page - 1)}" rel="prev">Previous</a>` : ""}
      <span>Page ${page} of ${lastPage}</span>
      ${page < lastPage ? html`<a href="${link(page + 1)}" rel="next">Next</a>` : ""}
    </nav>`
        : ""
    }
    ${issue.truncated ? html`<p class="muted">Only the first ${issue.items.length} of ${issue.count} are shown here; <a href="/crawls/${crawlId}/issues.csv" download>the CSV</a> lists every one.</p>` : ""}
    <p><a href="/crawls/${crawlId}?issue=${encodeURIComponent(issue.check)}#pages">Show the pages concerned in the pages table</a></p>
  </details>`;
        })
  }
</section>`;
}

/** One finding: its page or group of pages, its other facts, and the pages linking to it. */
export function itemRow(item: Record<string, unknown>): SafeHtml {
  const { urls, facts, sources } = findingParts(item, wholeListKeys);
  const list = (values: string[]): HtmlValue =>
    values.map((url, index) => html`${index > 0 ? html`<br>` : ""}<span class="key">${url}</span>`);
  return html`<tr>
    <td>${list(urls)}${cutListNote(item)}</td>
    <td>${facts.join(" · ")}</td>
    <td>${list(sources.slice(0, sourcesShown))}${sources.length > sourcesShown ? html`<br><span class="muted">and ${sources.length - sourcesShown} more</span>` : ""}</td>
  </tr>`;
}

/** The keys of a finding whose URL list the issue table cut (finding-url-lists.ts), shown as one note. */
const wholeListKeys = ["page_count", ...wholeListLinkKeys];

/**
 * Where a finding's URL list was cut: a link to the whole of it, or where its reader cannot open that (the shared
 * audit), how many were left out; nothing for a finding shown whole.
 */
export function cutListNote(item: Record<string, unknown>): SafeHtml | "" {
  if (typeof item.pages_url === "string")
    return html`<br><a href="${item.pages_url}">All ${String(item.page_count)} pages of this group</a>`;
  if (typeof item.chain_url === "string")
    return html`<br><a href="${item.chain_url}">The whole chain (${String(item.hop_count)} hops)</a>`;
  if (typeof item.page_count === "number" && Array.isArray(item.pages))
    return html`<br><span class="muted">and ${item.page_count - item.pages.length} more (${item.page_count} pages in all)</span>`;
  if (typeof item.hop_count === "number" && Array.isArray(item.chain))
    return html`<br><span class="muted">The chain's first ${item.chain.length} of ${item.hop_count + 1} URLs are listed</span>`;
  return "";
}
