/**
 * Words every layer uses alike, from the engine to the API: how a page is analysed and what started an analysis.
 * They live at the bottom so the engine, the store and the event sink share them without importing each other.
 */

/** How a page is collected: fetched as served, or rendered in Chromium. */
export const analysisModes = ["raw", "rendered"] as const;
export type AnalysisMode = (typeof analysisModes)[number];

/** What started an analysis: its report's creation, a re-run, a schedule, or a crawl. */
export type AnalysisTrigger = "create" | "rerun" | "schedule" | "crawl";
