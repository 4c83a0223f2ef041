/**
 * The roll-up's, the links' and the finding items' objects as the API shows them, and their CSV rows: a
 * `check_rollup`, a `check_page`, a `link`, and a site issue's items one row each (`check, importance, title,
 * fingerprint, url, detail, sources`).
 */

import type { CheckRollupWithTemplates } from "./check-rollup.js";
import type { CheckPageRow } from "./check-rollup-store.js";
import type { LinkRow } from "./crawl-link-store.js";
import type { CrawlIssueRow } from "./crawl-store.js";

export function checkRollupObject(row: CheckRollupWithTemplates) {
  return {
    object: "check_rollup" as const,
    check: row.check,
    category: row.category,
    importance: row.importance,
    fail: row.fail,
    warn: row.warn,
    pages: row.pages,
    priority: row.priority,
    templates: row.templates,
  };
}

export function checkPageObject(row: CheckPageRow) {
  return {
    object: "check_page" as const,
    url: row.url,
    report_id: row.report_id,
    status: row.status,
    message: row.message,
    items: JSON.parse(row.items) as Array<Record<string, unknown>>,
  };
}

/** `url,status,message,evidence`: the evidence is the first item as compact JSON. */
export function checkPageCsvRow(row: CheckPageRow): unknown[] {
  const first = (JSON.parse(row.items) as unknown[])[0];
  return [row.url, row.status, row.message, first === undefined ? null : JSON.stringify(first)];
}

/** The target's status code; "error" when it could not be fetched; null when it was not fetched. */
export function targetStatus(row: Pick<LinkRow, "status_code" | "target_state">): number | "error" | null {
  if (row.status_code !== null) return row.status_code;
  return row.target_state === "failed" ? "error" : null;
}

export function linkObject(row: LinkRow) {
  return {
    object: "link" as const,
    source: row.from_url,
    target: row.to_url,
    anchor: row.anchor,
    nofollow: row.nofollow === 1,
    target_status: targetStatus(row),
  };
}

export const issueItemCsvColumns = [
  "check",
  "importance",
  "title",
  "fingerprint",
  "url",
  "detail",
  "sources",
];

/** Item fields shown in other columns, not in `detail`. */
const otherColumns = new Set(["url", "pages", "sources", "fingerprint", "links"]);

/** What distinguishes the item besides its URLs, as short text: "status: 404", "title: Same title". */
export function itemDetail(item: Record<string, unknown>): string {
  return Object.entries(item)
    .filter(([key, value]) => !otherColumns.has(key) && value !== null && value !== undefined)
    .map(([key, value]) => `${key}: ${Array.isArray(value) ? value.join(" → ") : String(value)}`)
    .join("; ");
}

/** The URL whose linking pages a link finding lists (its `sources`), or null for other findings. */
export function linkFindingTarget(item: Record<string, unknown>): string | null {
  return Array.isArray(item.sources) && typeof item.url === "string" ? item.url : null;
}

/**
 * One finding's row: `url` is the item's URL or its group's pages; `sources` every page linking to a link
 * finding's URL (given, read from the recorded links; the item itself lists only the first 5); `fingerprint` the
 * item's own when it has one.
 */
export function issueItemCsvRow(
  issue: Pick<CrawlIssueRow, "check_id" | "importance" | "title">,
  item: Record<string, unknown>,
  sources: string[],
): unknown[] {
  const url = typeof item.url === "string" ? item.url : Array.isArray(item.pages) ? item.pages.join(" ") : "";
  const fingerprint = typeof item.fingerprint === "string" ? item.fingerprint : "";
  return [
    issue.check_id,
    issue.importance,
    issue.title,
    fingerprint,
    url,
    itemDetail(item),
    sources.join(" "),
  ];
}
