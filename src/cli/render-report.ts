/**
 * The readable terminal rendering of a report: result and score, category scores, then the failed and warned
 * checks (by their titles, as the report page names them, with the id and importance beside) with their evidence. Page text is printed as data: control characters are stripped so a page
 * cannot drive the terminal.
 */

import type { AnalysisReport } from "../analysis/analyse.js";
import { catalogue } from "../analysis/catalogue.js";
import type { EvidenceItem } from "../analysis/checks/check.js";
import { categoryNames } from "../analysis/checks/check.js";
import type { CheckResult } from "../analysis/judge.js";
import type { Palette } from "./colour.js";

/** Evidence items printed per check; the rest are counted. */
export const evidenceShown = 5;
export { categoryNames };

const titles = new Map(catalogue.map((entry) => [entry.id, entry.title]));

export function renderReport(report: AnalysisReport, c: Palette): string {
  const lines: string[] = [];
  const tone = report.result === "good" ? c.green : report.result === "decent" ? c.yellow : c.red;
  lines.push(c.bold(safe(report.url)));
  if (report.final_url !== report.url) lines.push(c.dim(`  → ${safe(report.final_url)}`));
  lines.push(
    `${tone(c.bold(report.result.toUpperCase()))}  ${c.bold(String(report.score))}/100   project ${safe(report.project)}`,
  );
  lines.push(
    Object.entries(report.categories)
      .map(([category, value]) => `${categoryNames[category] ?? category} ${value ?? "–"}`)
      .join("   "),
  );
  const { checks, passed, warnings, failed } = report.summary;
  lines.push(c.dim(`${checks} checks: ${passed} passed, ${warnings} warnings, ${failed} failed`));

  for (const [heading, status, mark, colour] of [
    ["Failed", "fail", "✗", c.red],
    ["Warnings", "warn", "!", c.yellow],
    ["Could not check", "error", "?", c.dim],
  ] as const) {
    const entries = Object.entries(report.results).filter(([, result]) => result.status === status);
    if (entries.length === 0) continue;
    lines.push("", c.bold(heading));
    for (const [id, result] of entries) {
      lines.push(
        `  ${colour(mark)} ${c.bold(titles.get(id) ?? id)} ${c.dim(`(${id}) [${result.importance}]`)}  ${safe(result.message)}`,
      );
      lines.push(...renderEvidence(result, c));
    }
  }
  return `${lines.join("\n")}\n`;
}

function renderEvidence(result: CheckResult, c: Palette): string[] {
  const details = result.details;
  if (!details) return [];
  const lines = details.items.slice(0, evidenceShown).map((item) => c.dim(`      - ${evidenceLine(item)}`));
  const more = Math.max(0, details.items.length - evidenceShown) + details.truncated;
  if (more > 0) lines.push(c.dim(`      … and ${more} more`));
  return lines;
}

/** One evidence item on one line: its non-empty fields, page text made safe, cut at 160 characters. */
export function evidenceLine(item: EvidenceItem): string {
  const text = Object.entries(item)
    .filter(([, value]) => value !== null && value !== "")
    .map(([key, value]) => `${key}: ${safe(String(value))}`)
    .join("  ");
  return text.length > 160 ? `${text.slice(0, 159)}…` : text;
}

/** Removes control characters (escape sequences included) from page-provided text. */
export function safe(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping them is the point
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, " ");
}
