/**
 * The report page, leading with what to do: the score at a glance (a gauge, a bar per category), the place for
 * the score summary (the gates that held the score and the costliest failures, a partial of its own), then for a
 * rendered analysis its screenshot beside the four lab metrics, then the findings (report-findings.ts: every
 * failed and warned check across categories, most important first, filterable by category; the rest folded),
 * then the report's history. Pictures are inline SVG drawn here; every piece of page-derived text is escaped by
 * the html template.
 */

import type { CheckResult } from "../../analysis/judge.js";
import { html, type SafeHtml } from "../html.js";
import { scoreChange } from "./history.js";
import { categoryNames, findingSections, statusNames } from "./report-findings.js";
import { type ScoreSummaryFacts, scoreSummary } from "./score-summary.js";

export interface ReportView {
  id: number;
  url: string;
  final_url: string;
  project: string;
  result: string;
  score: number;
  generated_at: string;
  categories: Record<string, number | null>;
  results: Record<string, CheckResult>;
  /** The analysis's summary: the gates that held its score and its costliest checks (score-summary.ts). */
  summary?: ScoreSummaryFacts | null;
}

export { categoryNames };
export const statusOrder = ["fail", "warn", "error", "pass", "info", "na"];

/** "53 checks: 8 failed, 9 warnings, 29 passed, …", statuses in the page's order, absent ones left out. */
export function tally(statuses: string[]): string {
  const counts = statusOrder
    .map((status) => [status, statuses.filter((candidate) => candidate === status).length] as const)
    .filter(([, count]) => count > 0)
    .map(
      ([status, count]) => `${count} ${status === "warn" && count === 1 ? "warning" : tallyNames[status]}`,
    );
  return `${statuses.length} checks: ${counts.join(", ")}`;
}
const tallyNames: Record<string, string | undefined> = {
  fail: "failed",
  warn: "warnings",
  error: "could not be checked",
  pass: "passed",
  info: "for information",
  na: "not applicable",
};

/** The report's history around its latest analysis; absent on a past analysis's page. */
export interface ReportHistoryView {
  chart: SafeHtml | "";
  changes: SafeHtml | "";
  analyses: number;
  scoreChange: number | null;
}

/** What the page shows besides the report itself. */
export interface ReportPageExtras {
  /** The findings list's category filter (`?category=`). */
  category?: string;
}

export function reportBody(
  report: ReportView,
  owner: boolean,
  history?: ReportHistoryView,
  banner?: SafeHtml,
  extras: ReportPageExtras = {},
): SafeHtml {
  return html`<article class="report">
  <h1>Report for <span class="key">${report.url}</span></h1>
  ${report.final_url !== report.url ? html`<p class="muted">Redirected to <span class="key">${report.final_url}</span></p>` : ""}
  ${banner ?? ""}
  <div class="card summary">
    ${gauge(report.score, report.result)}
    <div class="bars">${Object.entries(report.categories).map(([category, score]) => bar(categoryNames[category] ?? category, score))}</div>
  </div>
  ${scoreSummary(report)}
  <p class="muted">Project ${report.project} · generated ${report.generated_at.slice(0, 16).replace("T", " ")} UTC${history ? html`${scoreChange(history.scoreChange)} · <a href="/reports/${report.id}/history">History (${history.analyses} ${history.analyses === 1 ? "analysis" : "analyses"})</a> · <a href="/reports/${report.id}.pdf" class="no-print" download>Download PDF</a>` : ""}${owner ? html` · <a href="/reports/${report.id}/manage" class="no-print">Manage this report</a>` : ""}</p>
  ${renderedCard(report)}
  ${findingSections(report.results, { category: extras.category })}
  <p class="tally">${tally(Object.values(report.results).map((result) => result.status))}</p>
  ${history?.chart ?? ""}
  ${history?.changes ?? ""}
</article>`;
}

/** The lab metrics of a rendered analysis against their bands, and its screenshot; nothing in raw mode. The PDF
 * prints the same card (`print`: the screenshot inline, as the document may fetch nothing). */
const labMetrics: Array<[id: string, label: string, short: string, show: (value: number) => string]> = [
  ["largest-contentful-paint", "Largest Contentful Paint", "LCP", (ms) => `${(ms / 1000).toFixed(2)} s`],
  ["first-contentful-paint", "First Contentful Paint", "FCP", (ms) => `${(ms / 1000).toFixed(2)} s`],
  ["cumulative-layout-shift", "Cumulative Layout Shift", "CLS", (value) => value.toFixed(3)],
  ["total-blocking-time", "Total Blocking Time", "TBT", (ms) => `${Math.round(ms)} ms`],
];

export function renderedCard(report: ReportView, screenshotSource?: string): SafeHtml | "" {
  const measured = labMetrics.filter(([id]) => typeof report.results[id]?.value === "number");
  const changes = report.results["rendering-changes"];
  if (!changes || changes.status === "na") return "";
  return html`<section class="card rendered" aria-labelledby="rendered-heading">
    <h2 id="rendered-heading">As a browser renders it</h2>
    <div class="rendered-view">
      <dl class="metrics">${measured.map(([id, label, short, show]) => {
        const result = report.results[id] as CheckResult;
        return html`<div class="metric status-${result.status}"><dt><span class="metric-name">${label}</span><span class="metric-short" aria-hidden="true">${short}</span></dt><dd><span class="metric-value">${show(result.value as number)}</span> <span class="badge status-${result.status}">${statusNames[result.status] ?? result.status}</span></dd></div>`;
      })}</dl>
      ${screenshotSource === "" ? "" : html`<a class="screenshot-link" href="${screenshotSource ?? `/reports/${report.id}/screenshot`}"><img class="screenshot" src="${screenshotSource ?? `/reports/${report.id}/screenshot`}" width="64" height="128" alt="The page's first screen as Chromium rendered it (412 × 823 pixels); opens it full size"></a>`}
    </div>
    <p class="muted no-print rendered-note">What scripts change between the served HTML and the rendered page is under <a href="#check-rendering-changes">Changes made by JavaScript</a>.</p>
  </section>`;
}

/** A ring whose filled share is the score, coloured by the result. */
export function gauge(score: number, result: string): SafeHtml {
  const radius = 52;
  const circumference = 2 * Math.PI * radius;
  const filled = (Math.max(0, Math.min(100, score)) / 100) * circumference;
  const colour = result === "good" ? "#15803d" : result === "decent" ? "#b45309" : "#b91c1c";
  return html`<svg class="gauge" width="140" height="140" viewBox="0 0 140 140" role="img" aria-label="Score ${score} out of 100, ${result}">
  <circle cx="70" cy="70" r="${radius}" fill="none" stroke="#dde2ea" stroke-width="14"/>
  <circle cx="70" cy="70" r="${radius}" fill="none" stroke="${colour}" stroke-width="14" stroke-linecap="round"
    stroke-dasharray="${filled.toFixed(1)} ${circumference.toFixed(1)}" transform="rotate(-90 70 70)"/>
  <text x="70" y="72" text-anchor="middle" font-size="32" fill="#1c2330">${score}</text>
  <text x="70" y="96" text-anchor="middle" font-size="14" fill="${colour}">${result.toUpperCase()}</text>
</svg>`;
}

export function bar(label: string, score: number | null): SafeHtml {
  const width = score === null ? 0 : Math.max(0, Math.min(100, score)) * 2;
  const colour = score === null ? "#dde2ea" : score >= 80 ? "#15803d" : score >= 50 ? "#b45309" : "#b91c1c";
  return html`<div class="bar">
  <div class="bar-label"><span>${label}</span><span>${score === null ? "–" : score}</span></div>
  <svg width="100%" height="10" viewBox="0 0 200 10" preserveAspectRatio="none" aria-hidden="true">
    <rect width="200" height="10" rx="5" fill="#dde2ea"/><rect width="${width}" height="10" rx="5" fill="${colour}"/>
  </svg>
</div>`;
}
