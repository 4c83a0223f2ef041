/**
 * A report over time: the score's change as a marker (▲ 4, ▼ 6, with words for screen readers), the score
 * chart (server-drawn SVG, each point a link to that analysis), the history list, and a past analysis's banner
 * and, when it failed, its page. Page-derived text goes through the html template like everywhere else.
 */
import type { AnalysisRow, ScorePoint } from "../../store/analysis-store.js";
import { html, type SafeHtml } from "../html.js";
import { paginationNav } from "./list-controls.js";
import { stacked } from "./stacked-table.js";

/** "▲ 4" / "▼ 6" / "= 0"; the arrow is hidden from screen readers, which read the sentence instead. */
export function scoreChange(change: number | null): SafeHtml | "" {
  if (change === null) return "";
  const direction = change > 0 ? "up" : change < 0 ? "down" : "same";
  const arrow = change > 0 ? "▲" : change < 0 ? "▼" : "=";
  const words =
    change === 0
      ? "unchanged since the previous analysis"
      : `${change > 0 ? "up" : "down"} ${Math.abs(change)} ${Math.abs(change) === 1 ? "point" : "points"} since the previous analysis`;
  return html`<span class="change change-${direction}"><span aria-hidden="true">${arrow} ${Math.abs(change)}</span><span class="visually-hidden">${words}</span></span>`;
}

const chart = { width: 640, height: 180, left: 36, right: 16, top: 12, bottom: 28 };
/** The line and its points share one colour: a point's result is in its title, not in a second colour. */
export const lineColour = "#1d4ed8";

/**
 * The dates under a chart's first and last point: days, or with their times when both fall on the same day (two
 * analyses or crawls on one day must not read as one), to the second when they share a minute.
 */
export function endLabels(
  first: string,
  last: string,
  frame: { width: number; height: number; left: number; right: number },
): SafeHtml {
  // As precise as it takes to tell them apart: the day, or the minute, or the second.
  const length = [10, 16, 19].find((chars) => first.slice(0, chars) !== last.slice(0, chars)) ?? 19;
  const [from, to] = [first, last].map((timestamp) => timestamp.slice(0, length).replace("T", " "));
  return html`<text x="${frame.left}" y="${frame.height - 8}" font-size="11" fill="#5b6473">${from}</text>
    <text x="${frame.width - frame.right}" y="${frame.height - 8}" text-anchor="end" font-size="11" fill="#5b6473">${to}</text>`;
}

/**
 * The score of each complete analysis, oldest to newest, as a line with a linked point per analysis. The
 * y-axis is the score's full range (0–100) with the bands' thresholds drawn, so a drop reads as what it is.
 */
export function scoreChart(reportId: number, points: ScorePoint[], currentId: number | null): SafeHtml | "" {
  if (points.length < 2) return "";
  const plotWidth = chart.width - chart.left - chart.right;
  const plotHeight = chart.height - chart.top - chart.bottom;
  const x = (index: number) =>
    chart.left + (points.length === 1 ? plotWidth / 2 : (index / (points.length - 1)) * plotWidth);
  const y = (score: number) => chart.top + ((100 - score) / 100) * plotHeight;
  const line = points.map((point, index) => `${x(index).toFixed(1)},${y(point.score).toFixed(1)}`).join(" ");
  const first = points[0] as ScorePoint;
  const last = points[points.length - 1] as ScorePoint;
  const label = `Score over the last ${points.length} analyses: from ${first.score} on ${day(first.generated_at)} to ${last.score} on ${day(last.generated_at)}.`;
  return html`<figure class="score-chart">
  <svg viewBox="0 0 ${chart.width} ${chart.height}" role="group" aria-labelledby="score-chart-title">
    <title id="score-chart-title">${label}</title>
    ${[0, 50, 80, 100].map(
      (
        score,
      ) => html`<line x1="${chart.left}" x2="${chart.width - chart.right}" y1="${y(score)}" y2="${y(score)}" stroke="#dde2ea" stroke-width="1"/>
    <text x="${chart.left - 6}" y="${y(score) + 4}" text-anchor="end" font-size="11" fill="#5b6473">${score}</text>`,
    )}
    <polyline points="${line}" fill="none" stroke="${lineColour}" stroke-width="2"/>
    ${points.map(
      (point, index) => html`<a href="/reports/${reportId}/analyses/${point.id}">
      <title>${time(point.generated_at)} UTC: ${point.score} (${point.result})</title>
      <circle cx="${x(index).toFixed(1)}" cy="${y(point.score).toFixed(1)}" r="${point.id === currentId ? 6 : 4.5}" fill="${lineColour}" stroke="#ffffff" stroke-width="1.5"/>
    </a>`,
    )}
    ${endLabels(first.generated_at, last.generated_at, chart)}
  </svg>
  <figcaption class="muted">Score over time; each point opens that analysis.</figcaption>
</figure>`;
}

const triggerNames: Record<string, string> = {
  create: "First analysis",
  rerun: "Re-run",
  schedule: "Scheduled",
  crawl: "Crawl",
};

export interface HistoryPageView {
  report: { id: number; url: string; analysis_id: number | null };
  rows: AnalysisRow[];
  /** The analysis just older than the page's last, if any (for that one's change). */
  older?: AnalysisRow | undefined;
  total: number;
  page: number;
  per_page: number;
}

/** Every analysis of the report, newest first, paged. */
export function historyBody(view: HistoryPageView): SafeHtml {
  const { report } = view;
  return html`<h1>History of <span class="key">${report.url}</span></h1>
<p><a href="/reports/${report.id}">Back to the report</a></p>
<section class="card">
  ${
    view.rows.length === 0
      ? html`<p>No analyses on this page.</p>`
      : stacked(html`<table>
    <thead><tr><th scope="col">Generated</th><th scope="col">Result</th><th scope="col">Change</th><th scope="col">Trigger</th></tr></thead>
    <tbody>${view.rows.map((row, index) => {
      // The change since the next older complete analysis (failed ones have no score to compare).
      const older = [...view.rows.slice(index + 1), ...(view.older ? [view.older] : [])].find(
        (candidate) => candidate.score !== null,
      );
      const change = row.score !== null && older?.score != null ? row.score - older.score : null;
      return html`<tr>
      <td><a href="/reports/${report.id}/analyses/${row.id}">${time(row.generated_at)}</a>${row.id === report.analysis_id ? html` <span class="muted">(shown)</span>` : ""}</td>
      <td>${
        row.status === "complete"
          ? html`<span class="result-${row.result ?? ""}">${row.result} (${row.score})</span>`
          : html`<span class="status-fail">Failed</span>: ${row.error_message ?? ""}`
      }</td>
      <td>${scoreChange(change)}</td>
      <td>${triggerNames[row.trigger] ?? row.trigger}</td>
    </tr>`;
    })}</tbody>
  </table>`)
  }
  ${paginationNav(`/reports/${report.id}/history`, { page: view.page, per_page: view.per_page }, view.total, "analyses")}
</section>`;
}

/** The banner above a past analysis: which one it is and the way back to the report. */
export function pastAnalysisBanner(
  reportId: number,
  analysis: AnalysisRow,
  shownId: number | null,
): SafeHtml {
  return html`<div class="notice" role="note">
  <p>${analysis.id === shownId ? "This is the analysis the report shows" : "A past analysis"}, generated ${time(analysis.generated_at)} UTC (${triggerNames[analysis.trigger] ?? analysis.trigger}).
  <a href="/reports/${reportId}">See the report</a> · <a href="/reports/${reportId}/history">All analyses</a></p>
</div>`;
}

/** A past analysis that failed: its banner and why it failed. */
export function failedAnalysisBody(
  reportId: number,
  url: string,
  banner: SafeHtml,
  message: string,
): SafeHtml {
  return html`<article class="report">
  <h1>Analysis of <span class="key">${url}</span></h1>
  ${banner}
  <section class="card"><p class="alert" role="alert">This analysis failed: ${message}</p>
  <p><a href="/reports/${reportId}">See the report</a></p></section>
</article>`;
}

export function day(timestamp: string): string {
  return timestamp.slice(0, 10);
}

function time(timestamp: string): string {
  return timestamp.slice(0, 16).replace("T", " ");
}
