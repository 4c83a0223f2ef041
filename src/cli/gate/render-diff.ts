/**
 * The terminal rendering of what changed against a baseline: the score and category moves, then every changed
 * check (regressions first, in the diff's order) with the evidence that appeared (+) and disappeared (−).
 * Page text goes through the report renderer's sanitiser, so a page cannot drive the terminal.
 */
import type { AnalysisDiff, CheckChange } from "../../analysis/analysis-diff.js";
import type { Palette } from "../colour.js";
import { categoryNames, evidenceLine, evidenceShown, safe } from "../render-report.js";

export function renderDiff(diff: AnalysisDiff, c: Palette): string {
  const lines: string[] = [];
  const from = diff.from;
  if (from === null) return "";
  lines.push(
    c.bold(`Changes since the baseline of ${safe(from.generated_at)}`),
    `Score ${from.score} → ${diff.to.score} ${movement(diff.score_change, c)}`,
    Object.entries(diff.categories)
      .map(
        ([name, category]) =>
          `${categoryNames[name] ?? safe(name)} ${category.from ?? "–"} → ${category.to ?? "–"}${
            category.change === null || category.change === 0 ? "" : ` ${movement(category.change, c)}`
          }`,
      )
      .join("   "),
  );
  if (diff.checks.length === 0) lines.push(c.dim("No check changed its status or evidence."));
  for (const check of diff.checks) {
    const [mark, colour] = marks(check.change, c);
    lines.push(
      `  ${colour(mark)} ${colour(check.change.padEnd(9))} ${c.bold(safe(check.id))} ${c.dim(`[${safe(check.importance)}]`)}  ${check.from ?? "–"} → ${check.to ?? "–"}`,
    );
    for (const [sign, items] of [
      ["+", check.evidence.added],
      ["−", check.evidence.removed],
    ] as const) {
      for (const item of items.slice(0, evidenceShown))
        lines.push(c.dim(`      ${sign} ${evidenceLine(item)}`));
      if (items.length > evidenceShown)
        lines.push(c.dim(`      ${sign} … and ${items.length - evidenceShown} more`));
    }
  }
  const regressed = diff.checks.filter((check) => check.change === "regressed").length;
  lines.push(
    regressed === 0
      ? c.green("No check regressed.")
      : c.red(c.bold(`${regressed} ${regressed === 1 ? "check" : "checks"} regressed.`)),
  );
  return `${lines.join("\n")}\n`;
}

function movement(change: number | null, c: Palette): string {
  if (change === null) return "";
  if (change > 0) return c.green(`(▲ ${change})`);
  if (change < 0) return c.red(`(▼ ${-change})`);
  return c.dim("(=)");
}

function marks(change: CheckChange, c: Palette): [string, (text: string) => string] {
  switch (change) {
    case "regressed":
      return ["✗", c.red];
    case "fixed":
      return ["✓", c.green];
    case "improved":
      return ["↑", c.green];
    default:
      return ["~", c.dim];
  }
}
