/**
 * Judge: runs every check on the snapshot, each in isolation, so one check that throws becomes an "error"
 * result for that check alone and never sinks the report. A check whose declared needs the snapshot does not
 * meet is not run: the judge gives its `na` or `error` (`check-needs.ts`). A result's size is bounded
 * (result-bounds.ts): at most 50 evidence items, and no string of a page's text past 64 KiB; the results as a
 * whole by the report's budget (report-budget.ts): at most 512 KiB of JSON, cutting evidence, never a verdict.
 */
import { unmetNeed } from "./check-needs.js";
import type { CheckResult, CheckResults } from "./check-result.js";
import type { CheckDefinition, CheckOutcome, CheckStatus, EvidenceItem } from "./checks/check.js";
import { withinReportBudget } from "./report-budget.js";
import { boundEvidence, boundText, boundValue } from "./result-bounds.js";
import type { Thresholds } from "./scoring-config.js";
import type { PageSnapshot } from "./snapshot.js";

export type { CheckResult, CheckResults } from "./check-result.js";

export function judge(
  page: PageSnapshot,
  checks: readonly CheckDefinition[],
  thresholds: Thresholds,
): CheckResults {
  const results: CheckResults = {};
  for (const check of checks) {
    let status: CheckStatus;
    let value: unknown = null;
    let message: string;
    let items: EvidenceItem[] | undefined;
    try {
      ({ status, value, message, items } = outcomeOf(check, page, thresholds));
    } catch {
      status = "error";
      message = "This check could not be completed.";
    }
    const result: CheckResult = {
      category: check.category,
      importance: check.importance,
      status,
      passed: status === "pass" ? true : status === "warn" || status === "fail" ? false : null,
      value: boundValue(value ?? null),
      message: boundText(message),
    };
    if (items && items.length > 0) result.details = boundEvidence(items);
    results[check.id] = result;
  }
  return withinReportBudget(results);
}

/** One check's outcome: the judge's verdict on an unmet need, else what the check says. */
export function outcomeOf(check: CheckDefinition, page: PageSnapshot, thresholds: Thresholds): CheckOutcome {
  return (check.needs && unmetNeed(page, check.needs)) ?? check.run(page, thresholds);
}
