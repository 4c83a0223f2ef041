/** A finished analysis as the store keeps it: its documents as JSON text, its time as a timestamp, its screenshot. */
import type { AnalysisReport } from "../analysis/analyse.js";
import type { Screenshot } from "../analysis/render/rendered-page.js";
import type { StoredScreenshot } from "../store/analysis-store.js";
import type { AnalysisColumns } from "../store/report-store.js";
import { toTimestamp } from "../timestamps.js";

export function analysisColumns(report: AnalysisReport): AnalysisColumns {
  return {
    url: report.url,
    final_url: report.final_url,
    project: report.project,
    result: report.result,
    score: report.score,
    summary: JSON.stringify(report.summary),
    categories: JSON.stringify(report.categories),
    results: JSON.stringify(report.results),
    generated_at: toTimestamp(report.generated_at),
  };
}

/** A rendered analysis's screenshot as history keeps it. */
export function storedScreenshot(screenshot: Screenshot | null): StoredScreenshot | null {
  return screenshot ? { mediaType: screenshot.mediaType, data: screenshot.data } : null;
}
