/**
 * An analysis as the API shows it. Summary, categories and (for one analysis) results are stored as JSON and
 * spliced in as they are; a failed analysis has null for each and its `error` instead.
 */
import type { AnalysisRow, AnalysisWithResults } from "../../../../store/analysis-store.js";

/** The analysis object as UTF-8 JSON; with `results` when the row carries them. */
export function analysisJson(row: AnalysisRow | AnalysisWithResults): Buffer {
  const head = JSON.stringify({
    id: row.id,
    object: "analysis",
    report_id: row.report_id,
    status: row.status,
    trigger: row.trigger,
    mode: row.mode,
    url: row.url,
    final_url: row.final_url,
    result: row.result,
    score: row.score,
  });
  const tail = JSON.stringify({
    error: row.error_reason === null ? null : { reason: row.error_reason, message: row.error_message ?? "" },
    generated_at: row.generated_at,
  });
  const parts: Buffer[] = [
    Buffer.from(`${head.slice(0, -1)},"categories":`),
    Buffer.from(row.categories ?? "null"),
    Buffer.from(',"summary":'),
    Buffer.from(row.summary ?? "null"),
  ];
  if ("results" in row) parts.push(Buffer.from(',"results":'), row.results ?? Buffer.from("null"));
  parts.push(Buffer.from(`,${tail.slice(1)}`));
  return Buffer.concat(parts);
}
