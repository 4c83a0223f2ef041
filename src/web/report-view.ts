/**
 * A stored report (or one of its past analyses) as the report page and its PDF show it: the analysis documents
 * parsed. A report whose first analysis has not completed has nothing to show yet: null.
 */
import type { CheckResults } from "../analysis/judge.js";
import type { DisplayRow } from "../store/report-store.js";
import type { ReportView } from "./views/report-page.js";

type ViewedColumns = Pick<
  DisplayRow,
  "id" | "url" | "final_url" | "project" | "result" | "score" | "generated_at" | "categories" | "results"
> &
  Partial<Pick<DisplayRow, "summary">>;

export function reportView(row: ViewedColumns): ReportView | null {
  if (
    row.result === null ||
    row.score === null ||
    row.generated_at === null ||
    row.categories === null ||
    row.results === null
  ) {
    return null;
  }
  return {
    id: row.id,
    url: row.url,
    final_url: row.final_url,
    project: row.project,
    result: row.result,
    score: row.score,
    generated_at: row.generated_at,
    categories: parse(row.categories) as Record<string, number | null>,
    results: parse(row.results) as CheckResults,
    summary: row.summary ? (parse(row.summary) as ReportView["summary"]) : null,
  };
}

function parse(document: string | Buffer): unknown {
  return JSON.parse(typeof document === "string" ? document : document.toString("utf8"));
}
