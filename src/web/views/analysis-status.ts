/**
 * Where a report's analysis stands, for people: a banner on the report page while an analysis is queued or
 * running (the page reloads itself every few seconds with a meta refresh, no script) or when the latest one
 * failed, the page of a report whose first analysis has not completed, and a short label for lists.
 */
import type { ReportStatus } from "../../store/schema.js";
import { html, type SafeHtml } from "../html.js";

export interface AnalysisState {
  id: number;
  url: string;
  status: ReportStatus;
  error_message: string | null;
  /** The report's latest complete analysis; null before the first. */
  analysis_id: number | null;
}

/** Seconds between reloads of a page that waits for an analysis. */
const reloadSeconds = 3;

export function analysisStatusBanner(report: AnalysisState): SafeHtml | "" {
  switch (report.status) {
    case "queued":
    case "running":
      return html`<meta http-equiv="refresh" content="${String(reloadSeconds)}">
  <p class="notice" role="status">${report.status === "queued" ? "An analysis is queued" : "An analysis is running"}${report.analysis_id === null ? "" : "; this is the previous one"}. This page reloads itself until the result arrives.</p>`;
    case "failed":
      return html`<p class="alert" role="alert">The latest analysis failed: ${report.error_message ?? "unknown reason"}${report.analysis_id === null ? "" : " This is the latest analysis that completed."}</p>`;
    default:
      return "";
  }
}

/** The report page before the first analysis has completed. */
export function pendingReportBody(report: AnalysisState, owner: boolean): SafeHtml {
  return html`<article class="report">
  <h1>Report for <span class="key">${report.url}</span></h1>
  ${analysisStatusBanner(report)}
  ${owner ? html`<p><a href="/reports/${report.id}/manage">Manage this report</a></p>` : ""}
</article>`;
}

/** The result cell of a list: the result and score, or where the first analysis stands. */
export function resultLabel(item: {
  status: ReportStatus;
  result: string | null;
  score: number | null;
}): SafeHtml {
  if (item.result !== null && item.score !== null) {
    return html`<span class="result-${item.result}">${item.result} (${String(item.score)})</span>`;
  }
  return html`<span class="muted">${item.status === "failed" ? "failed" : item.status === "running" ? "analysing…" : "queued"}</span>`;
}
