/**
 * A report's findings, as the report page and its PDF show them: every check to act on (failed, then warned,
 * then could not check; most important first within each) across categories in one list, each labelled with its
 * category, with links that filter the list to one category (`?category=seo`, no script needed); then every
 * other check (passed, info, not applicable) folded into one `<details>` that opens without JavaScript. Evidence
 * lists identical items once with a count and shows the first few, the rest behind "N more". The PDF (`print`)
 * shows the same order; its passed group is a compact list of titles and its evidence lists are longer.
 */
import { catalogue } from "../../analysis/catalogue.js";
import type { EvidenceItem } from "../../analysis/checks/check.js";
import { categoryNames } from "../../analysis/checks/check.js";
import type { CheckResult } from "../../analysis/judge.js";
import { html, type SafeHtml } from "../html.js";
import { emptyState, notJudgedNotes } from "./not-judged.js";

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
/** Evidence items listed before the "N more" fold, inside the page's folded evidence; printed ones. */
export const evidenceShown = 10;
export const printedEvidence = 10;

const texts = new Map(catalogue.map((entry) => [entry.id, entry]));
const titleOf = (id: string) => texts.get(id)?.title ?? id;

type Finding = [id: string, result: CheckResult];

/** Statuses in the order the list shows them: failures before warnings before checks that could not run. */
const statusRank = (status: string) => actionable.indexOf(status);
const importanceRank = (importance: string) => importanceOrder.indexOf(importance);

/** Every check to act on (in `category`, or all), failures first, then by importance; and every other check. */
export function splitFindings(results: Record<string, CheckResult>, category?: string) {
  const chosen = Object.entries(results).filter(([, result]) => !category || result.category === category);
  const toAct = chosen
    .filter(([, result]) => actionable.includes(result.status))
    .sort(
      ([, a], [, b]) =>
        statusRank(a.status) - statusRank(b.status) ||
        importanceRank(a.importance) - importanceRank(b.importance),
    );
  const rest = chosen.filter(([, result]) => !actionable.includes(result.status));
  return { toAct, rest };
}

/**
 * The list's filter: "All" and each category with something to act on, with its failures and warnings counted,
 * each a link to the same page filtered (`?category=`). A category none of whose checks applied (accessibility in
 * raw mode) is left out: "all clear" would claim what was never judged.
 */
export function categoryNav(results: Record<string, CheckResult>, chosen = ""): SafeHtml {
  const { toAct: everything } = splitFindings(results);
  const links = Object.keys(categoryNames).flatMap((category) => {
    const { toAct } = splitFindings(results, category);
    if (toAct.length === 0) return [];
    const failed = toAct.filter(([, result]) => result.status === "fail").length;
    const warned = toAct.filter(([, result]) => result.status === "warn").length;
    const counts = [
      failed > 0 ? html`<span class="status-fail">${failed} failed</span>` : "",
      warned > 0
        ? html`<span class="status-warn">${warned} ${warned === 1 ? "warning" : "warnings"}</span>`
        : "",
    ].filter((part) => part !== "");
    return [filterLink(category, categoryNames[category] ?? category, chosen, counts)];
  });
  if (links.length === 0) return html``;
  const all = filterLink("", "All", chosen, [html`${everything.length}`]);
  return html`<nav class="category-nav no-print" aria-label="Show the checks of one category"><ul>${all}${links}</ul></nav>`;
}

function filterLink(
  category: string,
  label: string,
  chosen: string,
  counts: Array<SafeHtml | string>,
): SafeHtml {
  const href = category ? `?category=${category}#to-fix` : "?#to-fix";
  const current = category === chosen ? html` aria-current="true"` : "";
  return html`<li><a href="${href}"${current}>${label}</a> <span class="muted">${counts.map((part, index) => html`${index > 0 ? " · " : ""}${part}`)}</span></li>`;
}

export interface FindingsOptions {
  /** Only this category's checks to act on (the page's `?category=`); unknown names show everything. */
  category?: string;
  print?: boolean;
}

/** The checks to act on across categories, then the folded rest. */
export function findingSections(
  results: Record<string, CheckResult>,
  options: FindingsOptions = {},
): SafeHtml {
  const print = options.print ?? false;
  const category = options.category && categoryNames[options.category] ? options.category : "";
  const { toAct } = splitFindings(results, category || undefined);
  const { rest } = splitFindings(results);
  return html`<section class="card to-fix" id="to-fix" aria-labelledby="to-fix-heading">
  <h2 id="to-fix-heading">${category ? html`To fix in ${categoryNames[category]}` : "To fix"}</h2>
  ${print ? "" : categoryNav(results, category)}
  ${
    toAct.length === 0
      ? emptyState(
          Object.entries(results).filter(([, result]) => !category || result.category === category),
          category ? " here" : "",
        )
      : html`<div class="check-list">${toAct.map(([id, result]) => checkBlock(id, result, print))}</div>`
  }
  ${notJudgedNotes(results, category, titleOf)}
</section>
${rest.length > 0 ? restGroup(rest, print) : ""}`;
}

/** Passed, info and not-applicable checks: one fold on the page, a compact list in print. */
function restGroup(rest: Finding[], print: boolean): SafeHtml {
  const counts = ["pass", "info", "na"]
    .map((status) => [status, rest.filter(([, result]) => result.status === status).length] as const)
    .filter(([, count]) => count > 0)
    .map(([status, count]) => `${count} ${(statusNames[status] as string).toLowerCase()}`)
    .join(", ");
  const ordered = Object.keys(categoryNames).flatMap((category) =>
    rest.filter(([, result]) => result.category === category),
  );
  if (print) {
    return html`<section class="card rest-list"><h2>The other checks: ${counts}</h2><ul>${ordered.map(([id, result]) => html`<li><span class="badge status-${result.status}">${statusNames[result.status]}</span> ${texts.get(id)?.title ?? id} <span class="muted">· ${categoryNames[result.category] ?? result.category}</span></li>`)}</ul></section>`;
  }
  return html`<details class="card rest-group" id="other-checks"><summary>The other checks: ${counts}</summary>${ordered.map(([id, result]) => checkBlock(id, result, print))}</details>`;
}

/** One check: its status, title, message, measured value, evidence and, when it needs work, how to fix it. */
export function checkBlock(id: string, result: CheckResult, print = false): SafeHtml {
  const entry = texts.get(id);
  const failing = result.status === "fail" || result.status === "warn";
  return html`<div class="check" id="check-${id}">
  <h3 class="h4"><span class="badge status-${result.status}">${statusNames[result.status] ?? result.status}</span> ${entry?.title ?? id} <span class="check-labels"><span class="category-label">${categoryNames[result.category] ?? result.category}</span> <span class="muted">${result.importance} importance · <code>${id}</code></span></span></h3>
  <p>${result.message}${measured(result.value)}</p>
  ${failing && entry ? html`<p><strong>How to fix:</strong> ${entry.how_to_fix}</p>` : ""}
  ${evidenceList(result.details?.items ?? [], result.details?.truncated ?? 0, print)}
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
  // Every item left out (a report over its size budget, report-budget.ts): the count alone.
  if (items.length === 0)
    return truncated > 0
      ? html`<p class="muted evidence-truncated">${truncated} ${truncated === 1 ? "item" : "items"} not kept</p>`
      : "";
  const groups = groupEvidence(items);
  const line = ({ item, count }: { item: EvidenceItem; count: number }) =>
    html`<li>${evidenceFields(item)}${count > 1 ? html`<span class="count">× ${count}</span>` : ""}</li>`;
  const unlisted =
    truncated > 0 ? html`<p class="muted evidence-truncated">… and ${truncated} more not kept</p>` : "";
  if (!print) {
    // On the page the evidence is folded: the list of what to fix stays short, each check one click from its items.
    const shown = groups.slice(0, evidenceShown);
    const folded = groups.slice(evidenceShown);
    return html`<details class="evidence-more"><summary>Where: ${items.length + truncated} ${items.length + truncated === 1 ? "item" : "items"}</summary><ul class="evidence">${shown.map(line)}</ul>${folded.length > 0 ? html`<details class="evidence-more"><summary>${folded.length} more</summary><ul class="evidence">${folded.map(line)}</ul></details>` : ""}${unlisted}</details>`;
  }
  const shown = groups.slice(0, printedEvidence);
  const folded = groups.slice(printedEvidence);
  if (folded.length === 0) return html`<ul class="evidence">${shown.map(line)}</ul>${unlisted}`;
  return html`<ul class="evidence">${shown.map(line)}</ul><p class="muted evidence-truncated">… and ${folded.length} more in the report on the web${truncated > 0 ? html`, ${truncated} more not kept` : ""}</p>`;
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
  return text.length > 200 ? "" : html` <span class="muted">Measured: <code>${text}</code></span>`;
}
