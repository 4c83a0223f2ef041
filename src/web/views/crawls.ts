/**
 * The crawl pages: the list with the form that starts a crawl (a project's crawls over time when filtered by
 * project), and one crawl: live progress while it runs (over its event stream with /assets/crawl-progress.js,
 * or reloading itself without JavaScript), then its summary (crawl-overview.ts), links to its sections, the
 * site issues (site-issues.ts), the page checks rolled up (crawl-findings.ts), the pages table with its filters
 * and CSV downloads, and its links (the first of them, a filter form and a CSV link).
 */
import type { LinkRow } from "../../crawls/crawl-link-store.js";
import type { CrawlOverview } from "../../crawls/crawl-listing-store.js";
import type {
  CrawlIssueRow,
  CrawlPageRow,
  CrawlRow,
  CrawlSummaryRow,
  ListedPageRow,
} from "../../crawls/crawl-store.js";
import { extractedOf, extractionNames } from "../../crawls/present.js";
import { type HtmlValue, html, type SafeHtml } from "../html.js";
import { listPageLink } from "../list-query.js";
import { linkFilterForm, linksCsvPath, linksTable } from "./crawl-findings.js";
import { limitedNote } from "./crawl-limited.js";
import { crawlCharts, crawlStatusNames, crawlSummary } from "./crawl-overview.js";
import { alert, csrfField, notice, option, viewerNote } from "./forms.js";
import { paginationNav } from "./list-controls.js";
import { type IssueTableState, siteIssuesSection } from "./site-issues.js";
import { stacked } from "./stacked-table.js";

export interface CrawlForm {
  url: string;
  max_pages: string;
  max_depth: string;
  include: string;
  exclude: string;
  mode: string;
  /** List mode: the pasted URLs, one per line. */
  urls: string;
  /** Extraction rules as JSON text. */
  extract: string;
  error: string | null;
}

export interface CrawlListView {
  crawls: CrawlSummaryRow[];
  total: number;
  page: number;
  project: string;
  form: CrawlForm;
  renderingAvailable: boolean;
  flash: string | null;
  /** A viewer of a team's workspace: no form to start a crawl. */
  readOnly?: boolean;
}

/** The form that starts a crawl in the workspace. */
function startCard(csrf: string, view: CrawlListView): SafeHtml {
  const { form } = view;
  return html`<section class="card">
  <h2>Crawl a site</h2>
  <p class="muted">Every page the crawl reaches becomes a report of the site's project; site checks then judge the pages together.</p>
  ${form.error ? alert(form.error) : ""}
  <form method="post" action="/crawls" enctype="multipart/form-data" novalidate>
    ${csrfField(csrf)}
    <label for="url">Start page</label>
    <input id="url" name="url" type="url" value="${form.url}" maxlength="2048" placeholder="https://example.com/">
    <details${form.urls ? html` open` : ""}>
      <summary>Or analyse a list of URLs only (no links followed)</summary>
      <div class="form-row">
        <div><label for="urls">URLs of one site, one per line</label><textarea id="urls" name="urls" rows="4" placeholder="https://example.com/old-page">${form.urls}</textarea></div>
        <div><label for="urls_file">Or a text file of URLs, one per line</label><input id="urls_file" name="urls_file" type="file" accept=".txt,.csv,text/plain"></div>
      </div>
    </details>
    <div class="form-row">
      <div><label for="max_pages">Most pages</label><input id="max_pages" name="max_pages" inputmode="numeric" value="${form.max_pages}" size="6"></div>
      <div><label for="max_depth">Most clicks from the start page</label><input id="max_depth" name="max_depth" inputmode="numeric" value="${form.max_depth}" size="3"></div>
      <div><label for="mode">How to read pages</label><select id="mode" name="mode">${option("raw", "HTML as served", form.mode)}${view.renderingAvailable ? option("rendered", "Rendered in Chromium", form.mode) : ""}</select></div>
    </div>
    <details class="advanced"${form.include || form.exclude || form.extract || form.error ? html` open` : ""}>
    <summary>Advanced: paths to include or skip, request headers, extraction</summary>
    <div class="form-row">
      <div><label for="include">Only paths matching (one per line)</label><textarea id="include" name="include" rows="2" placeholder="/blog/*">${form.include}</textarea></div>
      <div><label for="exclude">Never paths matching (one per line)</label><textarea id="exclude" name="exclude" rows="2" placeholder="/cart$">${form.exclude}</textarea></div>
    </div>
    <label for="headers">Request headers for a site behind a login (one per line, <code>Name: value</code>; Cookie, Authorization or X-…; at most 5)</label>
    <textarea id="headers" name="headers" rows="2" autocomplete="off" spellcheck="false" placeholder="Cookie: session=…"></textarea>
    <p class="muted">Sent only to the site's own hosts, stored encrypted and never shown again (only their names are).${form.error ? " Enter them again after a correction." : ""}</p>
    <label for="extract">Extract from every page (up to 10 rules, as JSON)</label>
    <textarea id="extract" name="extract" rows="3" placeholder='[{"name": "price", "selector": ".price"}, {"name": "image", "selector": "img.hero", "attribute": "src"}, {"name": "sku", "regex": "sku: (\\w+)"}]'>${form.extract}</textarea>
    </details>
    <p><button type="submit">Start the crawl</button></p>
  </form>
</section>`;
}

export function crawlListBody(csrf: string, view: CrawlListView): SafeHtml {
  const { crawls, total, page, project } = view;
  return html`<h1>${project ? html`Crawls of <span class="key">${project}</span>` : "Crawls"}</h1>
${view.flash ? notice(view.flash) : ""}
${view.readOnly ? html`<section class="card"><h2>Crawl a site</h2>${viewerNote("crawls")}</section>` : startCard(csrf, view)}
<section class="card">
  <h2>${project ? "Crawls over time" : "Your crawls"}</h2>
  ${
    crawls.length === 0
      ? html`<p>No crawls yet.</p>`
      : stacked(html`<table>
    <thead><tr><th scope="col">Started</th><th scope="col">Start page</th><th scope="col">Status</th><th scope="col">Pages</th><th scope="col">Site score</th><th scope="col">Issues</th></tr></thead>
    <tbody>${crawls.map(
      (crawl) => html`<tr>
      <td><a href="/crawls/${crawl.id}">${crawl.created_at.slice(0, 16).replace("T", " ")}</a></td>
      <td>${crawl.url}</td>
      <td>${crawlStatusNames[crawl.status]}</td>
      <td>${crawl.analysed}</td>
      <td>${crawl.score === null ? html`<span class="muted">–</span>` : html`<span class="result-${crawl.result ?? ""}">${crawl.score} (${crawl.result ?? ""})</span>`}</td>
      <td>${issueCounts(crawl)}</td>
    </tr>`,
    )}</tbody>
  </table>`)
  }
  ${paginationNav("/crawls", { project, page, per_page: 25 }, total, total === 1 ? "crawl" : "crawls")}
</section>`;
}

function issueCounts(crawl: Pick<CrawlRow, "issues_high" | "issues_medium" | "issues_low">): SafeHtml {
  return html`${crawl.issues_high} high · ${crawl.issues_medium} medium · ${crawl.issues_low} low`;
}

export interface PageTableState {
  status: string;
  issue: string;
  sort: string;
  direction: string;
  page: number;
}

export interface CrawlView {
  crawl: CrawlRow;
  /** Grouped counts for the summary's charts (finished crawls). */
  overview: CrawlOverview;
  issues: CrawlIssueRow[];
  issueTable: IssueTableState;
  /** The page checks rolled up over the crawl's pages (crawl-findings.ts), once finished; no section without. */
  checkRollup?: SafeHtml;
  /** The "fix first" card (fix-first.ts), once the crawl has finished. */
  fixFirst?: SafeHtml;
  /** The first links the crawl recorded, in (source, target) order. */
  links: LinkRow[];
  pages: ListedPageRow[];
  pageTotal: number;
  table: PageTableState;
  flash: string | null;
  now: number;
  /** Whether an earlier complete crawl of the project exists to compare with ("What changed"). */
  hasPrevious: boolean;
  /** A viewer of a team's workspace: no cancel button, no delete link. */
  readOnly?: boolean;
}

/** Rows of the pages table a page: about 5,000 px of stacked rows on a phone. */
export const pageTablePageSize = 25;
/** Seconds between reloads of a running crawl's page. */
const reloadSeconds = 3;

export function crawlBody(csrf: string, view: CrawlView): SafeHtml {
  const { crawl } = view;
  const active = crawl.status === "queued" || crawl.status === "running";
  // Only what the crawl did: no site issues while it runs, no pages or links before it fetched any.
  const fetched = crawl.discovered > 0;
  // Site checks judge analysed pages: a crawl that analysed none (its start page failed) has no verdict to show.
  const judged = !active && crawl.analysed > 0;
  const sections: Array<[id: string, label: string]> = [
    ...(judged ? ([["site-issues", "Site issues"]] as Array<[string, string]>) : []),
    ...(view.checkRollup ? ([["page-checks", "Page checks"]] as Array<[string, string]>) : []),
    ...(fetched ? ([["pages", "Pages"]] as Array<[string, string]>) : []),
    ...(view.overview.links.total > 0 ? ([["links", "Links"]] as Array<[string, string]>) : []),
  ];
  return html`<article class="crawl">
  <h1>Crawl of <span class="key">${crawl.url}</span></h1>
  <p class="muted">Project <a href="/crawls?project=${encodeURIComponent(crawl.project)}">${crawl.project}</a> · started ${crawl.created_at.slice(0, 16).replace("T", " ")} UTC · ${crawl.mode === "rendered" ? "rendered in Chromium" : "HTML as served"}${headerNamesNote(crawl)}${crawl.urls === null ? "" : html` · a list of ${(JSON.parse(crawl.urls) as string[]).length} URLs`}</p>
  ${view.flash ? notice(view.flash) : ""}
  ${active ? progressCard(csrf, crawl, view.now, view.readOnly === true) : crawlSummary(crawl, html`${droppedNote(crawl)}${limitedNote(crawl)}${view.hasPrevious ? diffLink(crawl) : ""}${auditLink(crawl)}`)}
  ${view.fixFirst ?? ""}
  ${active ? "" : crawlCharts(crawl, view.overview)}
  ${sections.length > 1 ? html`<nav class="section-nav" aria-label="Sections of the crawl"><ul>${sections.map(([id, label]) => html`<li><a href="#${id}">${label}</a></li>`)}</ul></nav>` : ""}
  ${judged ? siteIssuesSection(crawl.id, view.issues, view.issueTable) : ""}
  ${view.checkRollup ? html`<section class="card" id="page-checks" aria-labelledby="page-checks-heading"><h2 id="page-checks-heading">Page checks</h2>${view.checkRollup}</section>` : ""}
  ${fetched ? pagesCard(view) : ""}
  ${view.overview.links.total > 0 ? linksCard(view) : ""}
  ${
    view.readOnly
      ? ""
      : html`<section class="card">
    <h2>Delete</h2>
    <p>Deleting the crawl removes its page list and site issues; the reports of its pages stay.</p>
    <p><a href="/crawls/${crawl.id}/delete">Delete this crawl…</a></p>
  </section>`
  }
</article>`;
}

/** The links the crawl recorded: counts, the site issues about links, the first links and the way to the rest. */
function linksCard({ crawl, overview, issues, links }: CrawlView): SafeHtml {
  const about = issues.filter((issue) => /link|redirect/.test(issue.check_id));
  const total = overview.links.total;
  const none = { to: "", from: "", status: "" };
  return html`<section class="card" id="links" aria-labelledby="links-heading">
  <h2 id="links-heading">Links</h2>
  <p>${total} ${total === 1 ? "link" : "links"} between the crawl's pages recorded, ${overview.links.nofollow} of them nofollow.</p>
  ${about.length > 0 ? html`<ul>${about.map((issue) => html`<li><a href="/crawls/${crawl.id}?open=${encodeURIComponent(issue.check_id)}#issue-${issue.check_id}">${issue.title}</a> <span class="muted">${issue.count}</span></li>`)}</ul>` : html`<p>No site check found a problem with them.</p>`}
  ${
    total === 0
      ? ""
      : html`${linkFilterForm(crawl.id, none)}
  <p><a href="${linksCsvPath(crawl.id, none)}" download>Download every link (CSV)</a>${total > links.length ? html` · <a href="/crawls/${crawl.id}/links">Every link, page by page</a>` : ""}</p>
  ${linksTable(links)}`
  }
</section>`;
}

function progressCard(csrf: string, crawl: CrawlRow, now: number, readOnly: boolean): SafeHtml {
  const done = crawl.analysed + crawl.failed;
  const seconds = crawl.started_at ? Math.max(0.001, (now - Date.parse(crawl.started_at)) / 1000) : 0;
  const rate = seconds > 0 ? done / seconds : 0;
  const budget = Math.min(crawl.max_pages, Math.max(crawl.discovered - crawl.excluded, done));
  const left = rate > 0 ? Math.ceil((budget - done) / rate) : null;
  return html`<noscript><meta http-equiv="refresh" content="${String(reloadSeconds)}"></noscript>
<section class="card crawl-progress" aria-live="polite" data-crawl-events="/crawls/${crawl.id}/events" data-started-at="${crawl.started_at ?? ""}" data-max-pages="${String(crawl.max_pages)}">
  <h2>${crawl.status === "queued" ? "Waiting to start" : crawl.cancel_requested === 1 ? "Stopping" : "Crawling"}</h2>
  <progress max="${String(Math.max(1, budget))}" value="${String(done)}" aria-label="Pages done">${done} of ${budget}</progress>
  <dl class="facts">
    <div><dt>Found</dt><dd data-count="discovered">${crawl.discovered}</dd></div>
    <div><dt>Analysed</dt><dd data-count="analysed">${crawl.analysed}</dd></div>
    <div><dt>Error pages</dt><dd data-count="failed">${crawl.failed}</dd></div>
    <div><dt>Not fetched</dt><dd data-count="excluded">${crawl.excluded}</dd></div>
    <div><dt>Pages per second</dt><dd data-live="rate">${rate.toFixed(1)}</dd></div>
    <div><dt>Time left</dt><dd data-live="left">${left === null ? "–" : duration(left)}</dd></div>
  </dl>
  ${droppedNote(crawl)}
  <p class="muted live-note">Without JavaScript this page reloads itself every ${reloadSeconds} seconds.</p>
  ${crawl.cancel_requested === 1 || readOnly ? "" : html`<form method="post" action="/crawls/${crawl.id}/cancel">${csrfField(csrf)}<button type="submit">Cancel the crawl</button></form>`}
</section>`;
}

/** The names of the headers the crawl sends (never their values). */
function headerNamesNote(crawl: CrawlRow): SafeHtml | string {
  const names = JSON.parse(crawl.header_names) as string[];
  return names.length === 0 ? "" : html` · sends ${names.join(", ")}`;
}

function duration(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  return minutes < 60
    ? `${minutes} min ${seconds % 60} s`
    : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** A complete crawl links to what changed since the previous one (crawl-diff.ts). */
function diffLink(crawl: CrawlRow): SafeHtml | "" {
  if (crawl.status !== "complete") return "";
  return html`<p><a href="/crawls/${crawl.id}/diff">What changed since the previous crawl</a></p>`;
}

/** A finished crawl links to its audit, the page its owner shares (privacy set with PATCH /api/v1/crawls/{id}). */
function auditLink(crawl: CrawlRow): SafeHtml {
  const who = ["Anyone with the link", "Only you", "Anyone with its password"][crawl.privacy] ?? "Only you";
  return html`<p><a href="/crawls/${crawl.id}/audit">The audit to hand a client</a> <span class="muted">(${who} can open it)</span></p>`;
}

/** What the crawl's storage bounds left out, when anything. */
function droppedNote(crawl: CrawlRow): SafeHtml | "" {
  if (crawl.urls_dropped === 0 && crawl.links_dropped === 0) return "";
  return html`<p class="warning dropped" role="status">Left out by the crawl's storage bounds: ${crawl.urls_dropped} new ${crawl.urls_dropped === 1 ? "URL" : "URLs"} not listed, ${crawl.links_dropped} ${crawl.links_dropped === 1 ? "link" : "links"} not recorded. Site checks that read links judged from those recorded.</p>`;
}

function pagesCard(view: CrawlView): SafeHtml {
  const { crawl, table, pages, pageTotal, issues } = view;
  const names = extractionNames(crawl);
  const state = { status: table.status, issue: table.issue, sort: table.sort, direction: table.direction };
  return html`<section class="card" id="pages">
  <h2>Pages</h2>
  <p><a href="/crawls/${crawl.id}/pages.csv" download>Download every page (CSV)</a></p>
  <form method="get" action="/crawls/${crawl.id}#pages" class="form-row" role="search">
    <div><label for="status">Status</label><select id="status" name="status">${option("", "Any", table.status)}${option("ok", "Answered 2xx", table.status)}${option("redirect", "Redirects", table.status)}${option("error", "Error pages", table.status)}${option("excluded", "Not fetched", table.status)}</select></div>
    <div><label for="issue">Site issue</label><select id="issue" name="issue">${option("", "Any", table.issue)}${issues.map((issue) => option(issue.check_id, issue.title, table.issue))}</select></div>
    <div><label for="sort">Sort by</label><select id="sort" name="sort">${option("id", "Order found", table.sort)}${option("url", "URL", table.sort)}${option("status_code", "Status code", table.sort)}${option("depth", "Depth", table.sort)}${option("inlinks", "Links in", table.sort)}${option("score", "Score", table.sort)}</select></div>
    <div><label for="direction">Order</label><select id="direction" name="direction">${option("asc", "Ascending", table.direction)}${option("desc", "Descending", table.direction)}</select></div>
    <div><button type="submit">Apply</button></div>
  </form>
  ${
    pages.length === 0
      ? html`<p>No pages match.</p>`
      : stacked(html`<table>
    <thead><tr><th scope="col">URL</th><th scope="col">Status</th><th scope="col">Depth</th><th scope="col">Links in</th><th scope="col">Title</th><th scope="col">Score</th>${names.map((name) => html`<th scope="col" class="extracted">${name}</th>`)}</tr></thead>
    <tbody>${pages.map(
      (page) => html`<tr>
      <td>${page.report_id === null ? html`<span class="key">${page.url}</span>` : html`<a href="/reports/${page.report_id}">${page.url}</a>`}${page.redirect_to ? html`<br><span class="muted">→ ${page.redirect_to}</span>` : ""}</td>
      <td>${pageStatus(page)}</td>
      <td>${page.depth === null ? "–" : page.depth}</td>
      <td>${page.inlinks}</td>
      <td>${page.title ?? ""}</td>
      <td>${page.score === null ? "–" : html`<span class="result-${page.result ?? ""}">${page.score}</span>`}</td>
      ${Object.values(extractedOf(page, names)).map((values) => html`<td class="extracted">${values.join(" | ")}</td>`)}
    </tr>`,
    )}</tbody>
  </table>`)
  }
  ${pageNav(crawl.id, state, table.page, pageTotal)}
</section>`;
}

function pageStatus(page: CrawlPageRow): HtmlValue {
  if (page.excluded) {
    const why = { robots: "robots.txt", pattern: "a pattern", limit: "a limit", "not-html": "not HTML" }[
      page.excluded
    ];
    return html`<span class="muted">not fetched (${why ?? page.excluded})</span>`;
  }
  if (page.state === "queued" || page.state === "fetching")
    return html`<span class="muted">${page.state}</span>`;
  if (page.status_code === null) return html`<span class="result-bad">${page.error ?? "failed"}</span>`;
  return page.state === "failed"
    ? html`<span class="result-bad">${page.status_code}</span>`
    : String(page.status_code);
}

function pageNav(crawlId: number, state: Record<string, string>, page: number, total: number): SafeHtml {
  const lastPage = Math.max(1, Math.ceil(total / pageTablePageSize));
  const path = `/crawls/${crawlId}`;
  return html`<nav class="pagination" aria-label="Pages of the table">
    ${page > 1 ? html`<a href="${listPageLink(path, state, page - 1)}#pages" rel="prev">Previous</a>` : ""}
    <span>Page ${page} of ${lastPage} · ${total} ${total === 1 ? "page" : "pages"}</span>
    ${page < lastPage ? html`<a href="${listPageLink(path, state, page + 1)}#pages" rel="next">Next</a>` : ""}
  </nav>`;
}
