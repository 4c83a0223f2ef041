/**
 * "What changed" since the previous analysis, from the diff (src/analysis/analysis-diff.ts): the score's and
 * each category's change, then the checks that changed in the diff's order (regressions first), each with
 * the evidence that appeared and disappeared.
 */
import type { AnalysisDiff, CheckDiff } from "../../analysis/analysis-diff.js";
import { html, type SafeHtml } from "../html.js";
import { scoreChange } from "./history.js";
import { categoryNames, evidenceFields } from "./report-findings.js";

const changeNames: Record<string, string> = {
  regressed: "Regressed",
  fixed: "Fixed",
  improved: "Improved",
  changed: "Changed",
  added: "New check",
  removed: "Check removed",
};
const changeStatus: Record<string, string> = {
  regressed: "fail",
  fixed: "pass",
  improved: "warn",
  changed: "info",
  added: "info",
  removed: "na",
};

export function whatChanged(diff: AnalysisDiff): SafeHtml | "" {
  if (diff.from === null) return "";
  const categories = Object.entries(diff.categories).filter(
    ([, change]) => change.change !== null && change.change !== 0,
  );
  return html`<section class="card changes" aria-labelledby="what-changed">
  <h2 id="what-changed">What changed</h2>
  <p>Since the analysis of ${diff.from.generated_at.slice(0, 16).replace("T", " ")} UTC: score ${diff.from.score} → ${diff.to.score}${scoreChange(diff.score_change)}${
    categories.length > 0
      ? html`; ${categories.map(
          ([category, change], index) =>
            html`${index > 0 ? ", " : ""}${categoryNames[category] ?? category} ${change.from ?? "–"} → ${change.to ?? "–"}`,
        )}`
      : ""
  }.</p>
  ${
    diff.checks.length === 0
      ? html`<p>No check changed its result or evidence.</p>`
      : diff.checks.map((check) => changedCheck(check))
  }
  <p class="muted"><a href="/reports/${diff.report_id}/analyses/${diff.from.id}">Open the previous analysis</a></p>
</section>`;
}

function changedCheck(check: CheckDiff): SafeHtml {
  return html`<div class="check">
  <h3><span class="badge status-${changeStatus[check.change] ?? "info"}">${changeNames[check.change] ?? check.change}</span> <a href="#check-${check.id}">${check.title}</a> <span class="muted">(${check.importance}${check.from !== null && check.to !== null ? html`, ${check.from} → ${check.to}` : ""})</span></h3>
  ${evidenceList("Appeared", "evidence-added", check.evidence.added)}
  ${evidenceList("Disappeared", "evidence-removed", check.evidence.removed)}
</div>`;
}

function evidenceList(
  label: string,
  className: string,
  items: Array<Record<string, unknown>>,
): SafeHtml | "" {
  if (items.length === 0) return "";
  return html`<p class="muted">${label}:</p><ul class="evidence ${className}">${items.map(
    (item) => html`<li>${evidenceFields(item)}</li>`,
  )}</ul>`;
}
