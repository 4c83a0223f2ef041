/**
 * A report's findings, as the report page and its PDF show them: a navigation bar to each category with its
 * failures and warnings counted, then per category the checks to act on (failed, warned, could not check) ordered
 * by importance, and everything else (passed, info, not applicable) folded into one `<details>` group that opens
 * without JavaScript. Evidence lists identical items once with a count and shows the first ten, the rest behind
 * "N more". The PDF (`print`) shows the same order; its passed group is a compact list of titles.
 */
import { catalogue } from "../../analysis/catalogue.js";
import type { EvidenceItem } from "../../analysis/checks/check.js";
import { categoryNames } from "../../analysis/checks/check.js";
import type { CheckResult } from "../../analysis/judge.js";
import { html, type SafeHtml } from "../html.js";
import { emptyState, unrenderedChecks, unrenderedNote } from "./not-judged.js";

export { categoryNames };
export const statusNames: Record<string, string> = {
  fail: "Failed",
  warn: "Warning",
  error: "Could not check",
  pass: "Passed",
  info: "Info",
  na: "Not applicable",
};
/** Statuses that ask for something to be done, in the order they are shown at equal importance. */
const actionable = ["fail", "warn", "error"];
const importanceOrder = ["high", "medium", "low", "info"];
/** Evidence items shown before the "N more" fold. */
export const evidenceShown = 10;

const texts = new Map(catalogue.map((entry) => [entry.id, entry]));
const titleOf = (id: string) => texts.get(id)?.title ?? id;

type Finding = [id: string, result: CheckResult];

/** A category's checks split into those to act on (most important first) and the rest (catalogue order). */
export function splitFindings(results: Record<string, CheckResult>, category: string) {
  const inCategory = Object.entries(results).filter(([, result]) => result.category === category);
  const rank = ([, result]: Finding) =>
    importanceOrder.indexOf(result.importance) * actionable.length + actionable.indexOf(result.status);
  const toAct = inCategory
    .filter(([, result]) => actionable.includes(result.status))
    .sort((a, b) => rank(a) - rank(b));
  const rest = inCategory.filter(([, result]) => !actionable.includes(result.status));
  return { toAct, rest };
}

/**
 * Links to each category with what needs doing there. A category none of whose checks applied (accessibility in
 * raw mode) gets no link: "all clear" would claim what was never judged.
 */
export function categoryNav(results: Record<string, CheckResult>): SafeHtml {
  const links = Object.keys(categoryNames).flatMap((category) => {
    const { toAct, rest } = splitFindings(results, category);
    if (toAct.length === 0 && rest.every(([, result]) => result.status === "na")) return [];
    const failed = toAct.filter(([, result]) => result.status === "fail").length;
    const warned = toAct.filter(([, result]) => result.status === "warn").length;
    const counts = [
      failed > 0 ? html`<span class="status-fail">${failed} failed</span>` : "",
      warned > 0
        ? html`<span class="status-warn">${warned} ${warned === 1 ? "warning" : "warnings"}</span>`
        : "",
    ].filter((part) => part !== "");
    return [
      html`<li><a href="#category-${category}">${categoryNames[category]}</a> <span class="muted">${counts.length > 0 ? counts.map((part, index) => html`${index > 0 ? " · " : ""}${part}`) : "all clear"}</span></li>`,
    ];
  });
  return html`<nav class="category-nav no-print" aria-label="Categories"><ul>${links}</ul></nav>`;
}

/** Every category's section: what to act on first, then the folded group of the rest. */
export function findingSections(results: Record<string, CheckResult>, print = false): SafeHtml[] {
  return Object.keys(categoryNames).flatMap((category) => {
    const { toAct, rest } = splitFindings(results, category);
    if (toAct.length + rest.length === 0) return [];
    const [first, ...others] = toAct;
    const heading = html`<h2 id="category-${category}">${categoryNames[category]}</h2>`;
    return [
      html`<section class="card category" aria-labelledby="category-${category}">
    ${print && first ? html`<div class="keep-with-next">${heading}${checkBlock(first[0], first[1], print)}</div>${others.map(([id, result]) => checkBlock(id, result, print))}` : html`${heading}${toAct.length === 0 ? emptyState(rest, titleOf) : unrenderedNote(unrenderedChecks(rest), titleOf)}${toAct.map(([id, result]) => checkBlock(id, result, print))}`}
    ${rest.length > 0 ? restGroup(rest, print) : ""}
  </section>`,
    ];
  });
}

/** Passed, info and not-applicable checks: one fold on the page, a compact list in print. */
function restGroup(rest: Finding[], print: boolean): SafeHtml {
  const counts = ["pass", "info", "na"]
    .map((status) => [status, rest.filter(([, result]) => result.status === status).length] as const)
    .filter(([, count]) => count > 0)
    .map(([status, count]) => `${count} ${(statusNames[status] as string).toLowerCase()}`)
    .join(", ");
  if (print) {
    return html`<div class="rest-list"><h3 class="h4">${counts}</h3><ul>${rest.map(([id, result]) => html`<li><span class="badge status-${result.status}">${statusNames[result.status]}</span> ${texts.get(id)?.title ?? id}</li>`)}</ul></div>`;
  }
  return html`<details class="rest-group"><summary>${counts}</summary>${rest.map(([id, result]) => checkBlock(id, result, print))}</details>`;
}

/** One check: its status, title, message, measured value, evidence and, when it needs work, how to fix it. */
export function checkBlock(id: string, result: CheckResult, print = false): SafeHtml {
  const entry = texts.get(id);
  const failing = result.status === "fail" || result.status === "warn";
  return html`<div class="check" id="check-${id}">
  <h3 class="h4"><span class="badge status-${result.status}">${statusNames[result.status] ?? result.status}</span> ${entry?.title ?? id} <span class="muted">(${result.importance})</span></h3>
  <p>${result.message}</p>
  ${measured(result.value)}
  ${evidenceList(result.details?.items ?? [], result.details?.truncated ?? 0, print)}
  ${failing && entry ? html`<p><strong>How to fix:</strong> ${entry.how_to_fix}</p>` : ""}
</div>`;
}

/** Identical evidence items once each, in first-seen order, with how many times they occur. */
export function groupEvidence(items: EvidenceItem[]): Array<{ item: EvidenceItem; count: number }> {
  const groups = new Map<string, { item: EvidenceItem; count: number }>();
  for (const item of items) {
    const key = JSON.stringify(item);
    const group = groups.get(key);
    if (group) group.count++;
    else groups.set(key, { item, count: 1 });
  }
  return [...groups.values()];
}

function evidenceList(items: EvidenceItem[], truncated: number, print: boolean): SafeHtml | "" {
  if (items.length === 0) return "";
  const groups = groupEvidence(items);
  const line = ({ item, count }: { item: EvidenceItem; count: number }) =>
    html`<li>${evidenceFields(item)}${count > 1 ? html`<span class="count">× ${count}</span>` : ""}</li>`;
  const shown = groups.slice(0, evidenceShown);
  const folded = groups.slice(evidenceShown);
  const unlisted =
    truncated > 0 ? html`<p class="muted evidence-truncated">… and ${truncated} more not kept</p>` : "";
  if (folded.length === 0) return html`<ul class="evidence">${shown.map(line)}</ul>${unlisted}`;
  if (print) {
    return html`<ul class="evidence">${shown.map(line)}</ul><p class="muted evidence-truncated">… and ${folded.length} more in the report on the web${truncated > 0 ? html`, ${truncated} more not kept` : ""}</p>`;
  }
  return html`<ul class="evidence">${shown.map(line)}</ul><details class="evidence-more"><summary>${folded.length} more</summary><ul class="evidence">${folded.map(line)}</ul></details>${unlisted}`;
}

/** One evidence item as its labelled fields (empty ones left out); page text stays text. */
export function evidenceFields(item: Record<string, unknown>): SafeHtml[] {
  return Object.entries(item)
    .filter(([, value]) => value !== null && value !== "")
    .map(([key, value]) => html`<span class="muted">${key}:</span> <code>${String(value)}</code> `);
}

/** The measured value, when it is a plain fact worth showing beside the message. */
function measured(value: unknown): SafeHtml | string {
  if (value === null || value === undefined || typeof value === "object") return "";
  const text = String(value);
  return text.length > 200 ? "" : html`<p class="muted">Measured: <code>${text}</code></p>`;
}
