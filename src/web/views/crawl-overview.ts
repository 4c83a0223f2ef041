/**
 * A finished crawl at a glance, first on its page: the site score, the page counts, its site issues by importance
 * (each linking to the issues section), and three server-drawn charts: pages by answer (status code class), by
 * clicks from the start page and by score.
 */
import type { CrawlOverview } from "../../crawls/crawl-listing-store.js";
import type { CrawlRow } from "../../crawls/crawl-store.js";
import { crawlError } from "../../crawls/present.js";
import { html, type SafeHtml } from "../html.js";
import { barChart, type ChartRow } from "./bar-chart.js";
import { alert } from "./forms.js";

export const crawlStatusNames: Record<CrawlRow["status"], string> = {
  queued: "Queued",
  running: "Running",
  complete: "Complete",
  cancelled: "Cancelled",
  failed: "Failed",
};

export function crawlSummary(crawl: CrawlRow, extra: SafeHtml | "" = ""): SafeHtml {
  const error = crawlError(crawl);
  return html`<section class="card crawl-summary">
  <h2>${crawlStatusNames[crawl.status]}</h2>
  ${error ? alert(html`${error.message} <span class="muted">(${error.reason})</span>`) : ""}
  ${crawl.score === null ? html`<p>No page was analysed.</p>` : html`<p class="score result-${crawl.result ?? ""}">Site score <strong>${crawl.score}</strong> (${crawl.result ?? ""}), the mean of its pages' scores.</p>`}
  <dl class="facts">
    <div><dt>Found</dt><dd>${crawl.discovered}</dd></div>
    <div><dt>Analysed</dt><dd>${crawl.analysed}</dd></div>
    <div><dt>Error pages</dt><dd>${crawl.failed}</dd></div>
    <div><dt>Not fetched</dt><dd>${crawl.excluded}</dd></div>
  </dl>
  ${crawl.analysed === 0 ? "" : html`<p class="issue-counts"><a href="#site-issues">Site issues</a>: <span class="badge status-fail">${crawl.issues_high} high</span> <span class="badge status-warn">${crawl.issues_medium} medium</span> <span class="badge status-info">${crawl.issues_low} low</span></p>`}
  ${extra}
</section>`;
}

/**
 * A finished crawl's charts (answers, clicks from the start, scores), a card of their own after what to fix
 * first, so a phone's first screen holds the summary and the fixes; nothing when no URL was found.
 */
export function crawlCharts(crawl: CrawlRow, overview: CrawlOverview): SafeHtml | "" {
  if (crawl.discovered === 0) return "";
  return html`<section class="card crawl-charts" aria-label="The crawl in charts"><div class="charts">
    ${barChart("Pages by answer", answerRows(overview))}
    ${barChart("Pages by clicks from the start", depthRows(overview))}
    ${barChart("Pages by score", scoreRows(overview))}
  </div></section>`;
}

function answerRows({ answers }: CrawlOverview): ChartRow[] {
  const classes: Array<
    [label: string, tone: ChartRow["tone"], test: (row: CrawlOverview["answers"][number]) => boolean]
  > = [
    ["2xx", "good", (row) => row.status_code !== null && row.status_code < 300],
    ["3xx", "decent", (row) => row.status_code !== null && row.status_code >= 300 && row.status_code < 400],
    ["4xx", "bad", (row) => row.status_code !== null && row.status_code >= 400 && row.status_code < 500],
    ["5xx", "bad", (row) => row.status_code !== null && row.status_code >= 500],
    ["No answer", "bad", (row) => row.status_code === null && row.state === "failed"],
    ["Not fetched", "neutral", (row) => row.state === "excluded"],
  ];
  return classes
    .map(([label, tone, test]) => ({
      label,
      tone,
      count: answers.filter(test).reduce((sum, row) => sum + row.count, 0),
    }))
    .filter((row) => row.count > 0);
}

function depthRows({ depths }: CrawlOverview): ChartRow[] {
  const deep = 10;
  const rows: ChartRow[] = [];
  for (const { depth, count } of depths) {
    if (depth === null) continue;
    const label = depth >= deep ? `${deep}+ clicks` : `${depth} ${depth === 1 ? "click" : "clicks"}`;
    const existing = rows.find((row) => row.label === label);
    if (existing) existing.count += count;
    else rows.push({ label, count });
  }
  return rows;
}

function scoreRows({ scores }: CrawlOverview): ChartRow[] {
  const bands: Array<[label: string, low: number, high: number, tone: ChartRow["tone"]]> = [
    ["90–100", 90, 100, "good"],
    ["80–89", 80, 89, "good"],
    ["65–79", 65, 79, "decent"],
    ["50–64", 50, 64, "decent"],
    ["25–49", 25, 49, "bad"],
    ["0–24", 0, 24, "bad"],
  ];
  if (scores.length === 0) return [];
  return bands.map(([label, low, high, tone]) => ({
    label,
    tone,
    count: scores
      .filter((row) => row.score >= low && row.score <= high)
      .reduce((sum, row) => sum + row.count, 0),
  }));
}
