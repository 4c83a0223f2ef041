/**
 * A crawl's findings as pages, from the same listings as the API (`CrawlFindings`): the page checks rolled up for
 * the crawl page (each check linking to its affected pages), a check's affected pages (paged, with a CSV link),
 * and the internal links (a short list on the crawl page, and their own paged page filtered by target, source
 * or target status, with a CSV link carrying the same filters). Every URL, anchor text and message is the
 * crawled site's text, escaped like all page text.
 */
import { catalogue } from "../../analysis/catalogue.js";
import { checkTitle } from "../../analysis/check-titles.js";
import type { CheckPageRow } from "../../crawls/check-rollup-store.js";
import type { CrawlRollupRow } from "../../crawls/crawl-findings.js";
import type { LinkRow } from "../../crawls/crawl-link-store.js";
import type { CrawlRow } from "../../crawls/crawl-store.js";
import { linkObject } from "../../crawls/findings-present.js";
import { html, type SafeHtml } from "../html.js";
import { listPageLink } from "../list-query.js";
import { ignoredNotice } from "./list-controls.js";
import { stacked } from "./stacked-table.js";

/** Checks shown on the crawl page, pages per page of a check's listing, links per page of the links listing. */
export const rollupShown = 10;
export const checkPagesPerPage = 30;
export const linksPerPage = 30;
/** Links listed on the crawl page itself, before "every link". */
export const linksOnCrawlPage = 10;

/** The links listing's filters as the query string holds them ("" when unset). */
export interface LinkFilterState {
  to: string;
  from: string;
  status: string;
}

const checkPagesPath = (crawlId: number, check: string) =>
  `/crawls/${crawlId}/checks/${encodeURIComponent(check)}/pages`;

const howToFix = new Map(catalogue.map((entry) => [entry.id, entry.how_to_fix]));

/**
 * The crawl page's "Page checks": the roll-up by priority, `rollupShown` rows a page (`?checks=2` and on, the
 * page's other filters kept), each linking to the pages that fail or warn on it.
 */
export function checkRollupTable(
  crawlId: number,
  rows: CrawlRollupRow[],
  total: number,
  page = 1,
  query: Record<string, string | undefined> = {},
): SafeHtml {
  if (total === 0) return html`<p>No page check failed or warned on the crawl's pages.</p>`;
  const lastPage = Math.max(1, Math.ceil(total / rollupShown));
  const kept = Object.fromEntries(
    Object.entries(query).filter(
      (entry): entry is [string, string] => entry[0] !== "checks" && typeof entry[1] === "string",
    ),
  );
  const link = (to: number) => {
    const search = new URLSearchParams({ ...kept, ...(to > 1 ? { checks: String(to) } : {}) }).toString();
    return `/crawls/${crawlId}${search ? `?${search}` : ""}#page-checks`;
  };
  return html`<p class="muted">By priority: importance × pages (a warning counts half). ${total} ${total === 1 ? "check" : "checks"} failed or warned somewhere.</p>
  <p><a href="/crawls/${crawlId}/checks.csv" download>Download every check rolled up (CSV)</a></p>
  ${stacked(html`<table class="check-rollup">
    <thead><tr><th scope="col">Check</th><th scope="col">Importance</th><th scope="col">Failed</th><th scope="col">Warned</th><th scope="col">Where</th></tr></thead>
    <tbody>${rows.map(
      (row) => html`<tr>
      <td><a href="${checkPagesPath(crawlId, row.check)}">${checkTitle(row.check)}</a> <code class="muted check-id">${row.check}</code></td>
      <td>${row.importance}</td>
      <td>${row.fail}</td>
      <td>${row.warn}</td>
      <td>${row.templates
        .slice(0, 3)
        .map((template) => `${template.pattern} (${template.pages})`)
        .join(", ")}</td>
    </tr>`,
    )}</tbody>
  </table>`)}
  ${
    lastPage > 1
      ? html`<nav class="pagination" aria-label="Pages of the page checks">
    ${page > 1 ? html`<a href="${link(page - 1)}" rel="prev">Previous</a>` : ""}
    <span>Page ${page} of ${lastPage} · ${total} checks</span>
    ${page < lastPage ? html`<a href="${link(page + 1)}" rel="next">Next</a>` : ""}
  </nav>`
      : ""
  }`;
}

export interface CheckPagesView {
  crawl: CrawlRow;
  check: string;
  rows: CheckPageRow[];
  total: number;
  page: number;
}

/** The pages of a crawl where one page check failed or warned, paged. */
export function checkPagesBody({ crawl, check, rows, total, page }: CheckPagesView): SafeHtml {
  const path = checkPagesPath(crawl.id, check);
  return html`<article class="crawl-findings">
  <h1>Pages failing “${checkTitle(check)}” <code class="muted check-id">${check}</code></h1>
  <p class="muted"><a href="/crawls/${crawl.id}#page-checks">Crawl of ${crawl.url}</a> · ${total} ${total === 1 ? "page" : "pages"} failed or warned, failures first</p>
  ${howToFix.has(check) ? html`<section class="card"><h2>How to fix</h2><p>${howToFix.get(check)}</p></section>` : ""}
  <section class="card">
    <p><a href="${path}.csv" download>Download every affected page (CSV)</a></p>
    ${
      rows.length === 0
        ? html`<p>No page of this crawl failed or warned on this check.</p>`
        : stacked(html`<table>
      <thead><tr><th scope="col">Page</th><th scope="col">Status</th><th scope="col">Message</th></tr></thead>
      <tbody>${rows.map(
        (row) => html`<tr>
        <td>${row.report_id === null ? html`<span class="key">${row.url}</span>` : html`<a href="/reports/${row.report_id}">${row.url}</a>`}</td>
        <td><span class="result-${row.status === "fail" ? "bad" : "decent"}">${row.status}</span></td>
        <td>${row.message}</td>
      </tr>`,
      )}</tbody>
    </table>`)
    }
    ${pager(path, {}, page, total, checkPagesPerPage, total === 1 ? "page" : "pages")}
  </section>
</article>`;
}

/** The links as a table: source, target (with its status), anchor text, nofollow. */
export function linksTable(rows: LinkRow[]): SafeHtml {
  if (rows.length === 0) return html`<p>No links match.</p>`;
  return stacked(html`<table class="links">
    <thead><tr><th scope="col">From</th><th scope="col">To</th><th scope="col">Status</th><th scope="col">Anchor text</th><th scope="col">Nofollow</th></tr></thead>
    <tbody>${rows.map((row) => {
      const link = linkObject(row);
      const status = link.target_status;
      return html`<tr>
      <td><span class="key">${link.source}</span></td>
      <td><span class="key">${link.target}</span></td>
      <td>${status === null ? html`<span class="muted">not fetched</span>` : status === "error" || status >= 400 ? html`<span class="result-bad">${status}</span>` : String(status)}</td>
      <td>${link.anchor ?? html`<span class="muted">none</span>`}</td>
      <td>${link.nofollow ? "yes" : "no"}</td>
    </tr>`;
    })}</tbody>
  </table>`);
}

/** The filter form of the links listing (it opens the listing page, whichever page it is on). */
export function linkFilterForm(crawlId: number, filter: LinkFilterState): SafeHtml {
  return html`<form method="get" action="/crawls/${crawlId}/links" class="form-row" role="search" aria-label="Filter the links">
    <div><label for="link-to">Links to (exact URL)</label><input id="link-to" name="to" type="url" value="${filter.to}" maxlength="2048"></div>
    <div><label for="link-from">Links from (exact URL)</label><input id="link-from" name="from" type="url" value="${filter.from}" maxlength="2048"></div>
    <div><label for="link-status">Target status</label><input id="link-status" name="status" value="${filter.status}" size="5" placeholder="404 or error" inputmode="text"></div>
    <div><button type="submit">Show links</button></div>
  </form>`;
}

/** The CSV of every link the filter keeps. */
export function linksCsvPath(crawlId: number, filter: LinkFilterState): string {
  const query = new URLSearchParams(Object.entries(filter).filter(([, value]) => value !== ""));
  const text = query.toString();
  return `/crawls/${crawlId}/links.csv${text ? `?${text}` : ""}`;
}

export interface LinksView {
  crawl: CrawlRow;
  filter: LinkFilterState;
  /** Parameters whose values were not allowed and were ignored. */
  ignored: string[];
  rows: LinkRow[];
  total: number;
  page: number;
}

/** The crawl's internal links, filtered and paged. */
export function linksBody({ crawl, filter, ignored, rows, total, page }: LinksView): SafeHtml {
  return html`<article class="crawl-findings">
  <h1>Links of <span class="key">${crawl.url}</span></h1>
  <p class="muted"><a href="/crawls/${crawl.id}#links">Back to the crawl</a></p>
  <section class="card">
    ${ignoredNotice(ignored)}
    ${linkFilterForm(crawl.id, filter)}
    <p><a href="${linksCsvPath(crawl.id, filter)}" download>Download these links (CSV)</a></p>
    ${linksTable(rows)}
    ${pager(`/crawls/${crawl.id}/links`, { ...filter }, page, total, linksPerPage, total === 1 ? "link" : "links")}
  </section>
</article>`;
}

/** Says a list cut to its first entries how long it is; nothing for a list shown whole. */
export function listedNote(listed: number, total: number): SafeHtml | "" {
  return total > listed ? html`<p class="muted">The first ${listed} of ${total} are listed.</p>` : "";
}

/** Previous and next links of a paged list, with where it stands. */
export function pager(
  path: string,
  state: Record<string, string>,
  page: number,
  total: number,
  perPage: number,
  noun: string,
): SafeHtml {
  const lastPage = Math.max(1, Math.ceil(total / perPage));
  return html`<nav class="pagination" aria-label="Pages of the list">
    ${page > 1 ? html`<a href="${listPageLink(path, state, page - 1)}" rel="prev">Previous</a>` : ""}
    <span>Page ${page} of ${lastPage} · ${total} ${noun}</span>
    ${page < lastPage ? html`<a href="${listPageLink(path, state, page + 1)}" rel="next">Next</a>` : ""}
  </nav>`;
}
