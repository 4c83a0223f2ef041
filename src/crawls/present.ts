/** A crawl, one of its pages and one of its site issues as the API shows them, and as CSV rows. */

import type { CrawlIssueRow, CrawlPageRow, CrawlRow } from "./crawl-store.js";
import { csvLine } from "./csv.js";

export function crawlObject(row: CrawlRow) {
  return {
    id: row.id,
    object: "crawl" as const,
    url: row.url,
    project: row.project,
    status: row.status,
    max_pages: row.max_pages,
    max_depth: row.max_depth,
    sitemaps: row.sitemaps,
    include: JSON.parse(row.include) as string[],
    exclude: JSON.parse(row.exclude) as string[],
    mode: row.mode,
    privacy: row.privacy,
    schedule: row.schedule,
    pages: { discovered: row.discovered, analysed: row.analysed, failed: row.failed, excluded: row.excluded },
    dropped: { urls: row.urls_dropped, links: row.links_dropped },
    score: row.score,
    result: row.result,
    issues: { high: row.issues_high, medium: row.issues_medium, low: row.issues_low },
    error: crawlError(row),
    started_at: row.started_at,
    finished_at: row.finished_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** A complete crawl as a point of its project's trend. */
export function projectTrendPoint(row: CrawlRow) {
  return {
    crawl_id: row.id,
    finished_at: row.finished_at,
    score: row.score,
    issues: { high: row.issues_high, medium: row.issues_medium, low: row.issues_low },
    pages: { analysed: row.analysed },
  };
}

/** Why a failed crawl failed (`{"reason", "message"}`, as a report's error), or null. */
export function crawlError(row: CrawlRow): { reason: string; message: string } | null {
  return row.error === null ? null : (JSON.parse(row.error) as { reason: string; message: string });
}

export function crawlPageObject(row: CrawlPageRow) {
  return {
    object: "crawl_page" as const,
    url: row.url,
    status_code: row.status_code,
    content_type: row.content_type,
    depth: row.depth,
    inlinks: row.inlinks,
    outlinks: row.outlinks,
    in_sitemap: row.in_sitemap === 1,
    indexable: row.indexable === 1,
    canonical: row.canonical,
    title: row.title,
    redirect_to: row.redirect_to,
    report_id: row.report_id,
    score: row.score,
    result: row.result,
    excluded: row.excluded,
    error: row.error,
  };
}

export function siteIssueObject(row: CrawlIssueRow) {
  return {
    object: "site_issue" as const,
    check: row.check_id,
    category: row.category,
    importance: row.importance,
    title: row.title,
    message: row.message,
    count: row.count,
    items: JSON.parse(row.items) as Array<Record<string, unknown>>,
    truncated: row.truncated,
  };
}

/** Rows as CSV text (see csv.ts): a header line, then one line per row. */
export function toCsv(rows: Array<Record<string, unknown>>, columns: string[]): string {
  return [csvLine(columns), ...rows.map((row) => csvLine(columns.map((column) => row[column])))].join("");
}

/** The columns of the pages CSV, in the order of the API's crawl_page object. */
export const crawlPageColumns = [
  "url",
  "status_code",
  "content_type",
  "depth",
  "inlinks",
  "outlinks",
  "in_sitemap",
  "indexable",
  "canonical",
  "title",
  "redirect_to",
  "report_id",
  "score",
  "result",
  "excluded",
  "error",
];

export const siteIssueColumns = [
  "check",
  "category",
  "importance",
  "title",
  "message",
  "count",
  "items",
  "truncated",
];
