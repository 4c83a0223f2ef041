/**
 * The report page: result and score at a glance (a gauge), a bar per category, then every check grouped by
 * category with its status, value, evidence and how to fix it, failed and warned checks first. Pictures are
 * inline SVG drawn here; every piece of page-derived text is escaped by the html template.
 */

import { catalogue } from "../../analysis/catalogue.js";
import { categoryNames } from "../../analysis/checks/check.js";
import type { CheckResult } from "../../analysis/judge.js";
import { html, type SafeHtml } from "../html.js";
import { scoreChange } from "./history.js";

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
}

export { categoryNames };
export const statusOrder = ["fail", "warn", "error", "pass", "info", "na"];
const statusNames: Record<string, string> = {
  fail: "Failed",
  warn: "Warning",
  error: "Could not check",
  pass: "Passed",
  info: "Info",
  na: "Not applicable",
};
const texts = new Map(catalogue.map((entry) => [entry.id, entry]));

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

export function reportBody(
  report: ReportView,
  owner: boolean,
  history?: ReportHistoryView,
  banner?: SafeHtml,
): SafeHtml {
  const checks = Object.entries(report.results);
  return html`<article class="report">
  <h1>Report for <span class="key">${report.url}</span></h1>
  ${report.final_url !== report.url ? html`<p class="muted">Redirected to <span class="key">${report.final_url}</span></p>` : ""}
  ${banner ?? ""}
  <div class="card summary">
    ${gauge(report.score, report.result)}
    <div class="bars">${Object.entries(report.categories).map(([category, score]) => bar(categoryNames[category] ?? category, score))}</div>
  </div>
  <p class="tally">${tally(checks.map(([, result]) => result.status))}</p>
  ${renderedCard(report)}
  <p class="muted">Project ${report.project} · generated ${report.generated_at.slice(0, 16).replace("T", " ")} UTC${history ? html`${scoreChange(history.scoreChange)} · <a href="/reports/${report.id}/history">History (${history.analyses} ${history.analyses === 1 ? "analysis" : "analyses"})</a> · <a href="/reports/${report.id}.pdf" class="no-print" download>Download PDF</a>` : ""}${owner ? html` · <a href="/reports/${report.id}/manage" class="no-print">Manage this report</a>` : ""}</p>
  ${history?.chart ?? ""}
  ${history?.changes ?? ""}
  ${Object.keys(categoryNames).map((category) => {
    const inCategory = checks
      .filter(([, result]) => result.category === category)
      .sort(([, a], [, b]) => statusOrder.indexOf(a.status) - statusOrder.indexOf(b.status));
    if (inCategory.length === 0) return "";
    return html`<section class="card" aria-labelledby="category-${category}">
    <h2 id="category-${category}">${categoryNames[category]}</h2>
    ${inCategory.map(([id, result]) => checkBlock(id, result))}
  </section>`;
  })}
</article>`;
}

/** The lab metrics of a rendered analysis against their bands, and its screenshot; nothing in raw mode. */
const labMetrics: Array<[id: string, label: string, show: (value: number) => string]> = [
  ["largest-contentful-paint", "Largest Contentful Paint", (ms) => `${(ms / 1000).toFixed(2)} s`],
  ["first-contentful-paint", "First Contentful Paint", (ms) => `${(ms / 1000).toFixed(2)} s`],
  ["cumulative-layout-shift", "Cumulative Layout Shift", (value) => value.toFixed(3)],
  ["total-blocking-time", "Total Blocking Time", (ms) => `${Math.round(ms)} ms`],
];

function renderedCard(report: ReportView): SafeHtml | "" {
  const measured = labMetrics.filter(([id]) => typeof report.results[id]?.value === "number");
  const changes = report.results["rendering-changes"];
  if (!changes || changes.status === "na") return "";
  return html`<section class="card rendered" aria-labelledby="rendered-heading">
    <h2 id="rendered-heading">As a browser renders it</h2>
    <div class="rendered-view">
      <img class="screenshot" src="/reports/${report.id}/screenshot" width="206" height="412" alt="The page's first screen as Chromium rendered it (412 × 823 pixels)">
      <dl class="metrics">${measured.map(([id, label, show]) => {
        const result = report.results[id] as CheckResult;
        return html`<dt>${label}</dt><dd><span class="badge status-${result.status}">${statusNames[result.status] ?? result.status}</span> ${show(result.value as number)}</dd>`;
      })}</dl>
    </div>
    <p class="muted">What scripts change between the served HTML and the rendered page is under <a href="#check-rendering-changes">Changes made by JavaScript</a>.</p>
  </section>`;
}

/** One evidence item as its labelled fields (empty ones left out); page text stays text. */
export function evidenceFields(item: Record<string, unknown>): SafeHtml[] {
  return Object.entries(item)
    .filter(([, value]) => value !== null && value !== "")
    .map(([key, value]) => html`<span class="muted">${key}:</span> <code>${String(value)}</code> `);
}

export function checkBlock(id: string, result: CheckResult): SafeHtml {
  const entry = texts.get(id);
  const items = result.details?.items ?? [];
  const failing = result.status === "fail" || result.status === "warn";
  return html`<div class="check" id="check-${id}">
  <h3 class="h4"><span class="badge status-${result.status}">${statusNames[result.status] ?? result.status}</span> ${entry?.title ?? id} <span class="muted">(${result.importance})</span></h3>
  <p>${result.message}</p>
  ${measured(result.value)}
  ${
    items.length > 0
      ? html`<ul class="evidence">${items.map((item) => html`<li>${evidenceFields(item)}</li>`)}${
          result.details && result.details.truncated > 0
            ? html`<li>… and ${result.details.truncated} more</li>`
            : ""
        }</ul>`
      : ""
  }
  ${failing && entry ? html`<p><strong>How to fix:</strong> ${entry.how_to_fix}</p>` : ""}
</div>`;
}

/** The measured value, when it is a plain fact worth showing beside the message. */
function measured(value: unknown): SafeHtml | string {
  if (value === null || value === undefined || typeof value === "object") return "";
  const text = String(value);
  return text.length > 200 ? "" : html`<p class="muted">Measured: <code>${text}</code></p>`;
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
