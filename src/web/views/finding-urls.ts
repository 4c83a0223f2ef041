/**
 * A site finding's whole URL list as a page, paged (`/crawls/{id}/issues/{check}/findings/{fingerprint}`): a
 * duplicate group's pages or a redirect chain's URLs, which the crawl page's issue table shows only the first of
 * (finding-url-lists.ts).
 */
import { checkTitle } from "../../analysis/check-titles.js";
import type { CrawlRow } from "../../crawls/crawl-store.js";
import { findingPath, findingUrlsPerPage } from "../../crawls/finding-url-lists.js";
import { html, type SafeHtml } from "../html.js";
import { pager } from "./crawl-findings.js";
import { stacked } from "./stacked-table.js";

export interface FindingUrlsView {
  crawl: CrawlRow;
  check: string;
  fingerprint: string;
  /** The finding's whole list, and the page of it shown, from 1. */
  urls: string[];
  page: number;
}

export function findingUrlsBody({ crawl, check, fingerprint, urls, page }: FindingUrlsView): SafeHtml {
  const title = checkTitle(check);
  const first = (page - 1) * findingUrlsPerPage;
  const shown = urls.slice(first, first + findingUrlsPerPage);
  const noun = check === "redirect-chains" ? "URLs" : "pages";
  return html`<article class="crawl-findings">
  <h1>${title} <code class="muted check-id">${check}</code></h1>
  <p class="muted"><a href="/crawls/${crawl.id}?open=${encodeURIComponent(check)}#issue-${check}">Crawl of ${crawl.url}</a> · one finding: ${urls.length} ${noun}</p>
  <section class="card">
    ${stacked(html`<table>
      <thead><tr><th scope="col">#</th><th scope="col">${check === "redirect-chains" ? "URL" : "Page"}</th></tr></thead>
      <tbody>${shown.map((url, index) => html`<tr><td>${first + index + 1}</td><td><span class="key">${url}</span></td></tr>`)}</tbody>
    </table>`)}
    ${pager(findingPath(crawl.id, check, fingerprint), {}, page, urls.length, findingUrlsPerPage, noun)}
  </section>
</article>`;
}
