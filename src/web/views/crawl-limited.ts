/** The crawl page's note that a crawl stopped at its limits, and how many URLs it came upon but did not reach. */
import type { CrawlRow } from "../../crawls/crawl-store.js";
import { html, type SafeHtml } from "../html.js";

export function limitedNote(crawl: Pick<CrawlRow, "not_reached" | "max_pages" | "max_depth">): SafeHtml | "" {
  if (crawl.not_reached === 0) return "";
  return html`<p class="notice limited">Limited: the crawl stopped at its limits (${crawl.max_pages} ${crawl.max_pages === 1 ? "page" : "pages"}, depth ${crawl.max_depth}) and did not reach ${crawl.not_reached} ${crawl.not_reached === 1 ? "URL" : "URLs"} it found. Comparisons count what only one crawl reached as coverage, not as changes.</p>`;
}
