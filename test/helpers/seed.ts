/** Realistic report rows written straight to the store, for list, paging and isolation tests and the benchmark. */
import type { NewReport, PendingReport } from "../../src/store/report-store.js";
import { timestamp } from "../../src/timestamps.js";

const sampleResults = JSON.stringify({
  title: {
    category: "seo",
    importance: "high",
    status: "pass",
    passed: true,
    value: 32,
    message: "The title is 32 characters.",
  },
  "image-alt": {
    category: "seo",
    importance: "high",
    status: "fail",
    passed: false,
    value: 2,
    message: "2 of 9 images have no alt attribute.",
    details: { items: [{ src: "https://example.com/a.png", html: '<img src="/a.png">' }], truncated: 1 },
  },
});
const sampleSummary = JSON.stringify({
  checks: 53,
  passed: 39,
  warnings: 4,
  failed: 5,
  issues: { high: 1, medium: 2, low: 2 },
});
const sampleCategories = JSON.stringify({ seo: 91, performance: 78, security: 80, miscellaneous: 88 });

export interface SeedSpec {
  url: string;
  score: number;
  project?: string;
  generatedAt?: Date;
  privacy?: number;
  results?: string;
}

export function seedRow(userId: number, spec: SeedSpec): NewReport {
  const project = spec.project ?? new URL(spec.url).hostname.replace(/^www\./, "");
  const result = spec.score >= 80 ? "good" : spec.score >= 50 ? "decent" : "bad";
  const generated = timestamp(spec.generatedAt ?? new Date());
  return {
    user_id: userId,
    url: spec.url,
    final_url: spec.url,
    project,
    result,
    score: spec.score,
    privacy: spec.privacy ?? 1,
    password_hash: null,
    summary: sampleSummary,
    categories: sampleCategories,
    results: spec.results ?? sampleResults,
    generated_at: generated,
    created_at: generated,
    updated_at: generated,
  };
}

/**
 * `seedRow`'s columns as the reports table holds them, for tests that write rows straight to it: the results,
 * summary and category scores live on the analysis a report shows (migrations 022 and 041), so a row written
 * this way shows none.
 */
export function seedColumns(
  userId: number,
  spec: SeedSpec,
): Omit<NewReport, "results" | "summary" | "categories"> {
  const { results: _results, summary: _summary, categories: _categories, ...columns } = seedRow(userId, spec);
  return columns;
}

/** A private raw report whose first analysis has not run yet (for ReportStore.insertPending). */
export function pendingRow(userId: number, url: string, project = "127.0.0.1"): PendingReport {
  return {
    user_id: userId,
    url,
    final_url: url,
    project,
    privacy: 1,
    password_hash: null,
    mode: "raw",
    schedule: "off",
    next_run_at: null,
    created_at: "2026-01-01T00:00:00.000000Z",
    updated_at: "2026-01-01T00:00:00.000000Z",
  };
}
