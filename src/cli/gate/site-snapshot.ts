/**
 * The site gate's record of a crawl (`pagegrade crawl --json FILE`, and what `--baseline FILE` reads back): the
 * crawl object, its site issues with every finding and its fingerprint, the page checks rolled up (the API's
 * roll-up, `GET /crawls/{id}/checks`, by the same rules: crawls/check-rollup.ts), and every analysed page's check
 * statuses other than `pass`, and every URL it reached. Reading a baseline checks the
 * fields the gate compares, so a wrong file is a clear usage error rather than a silently empty comparison.
 */
import { readFileSync } from "node:fs";
import { catalogue } from "../../analysis/catalogue.js";
import type { CheckRollupWithTemplates } from "../../crawls/check-rollup.js";
import { UsageError } from "../../errors.js";

export interface SnapshotIssue {
  check: string;
  category: string;
  importance: string;
  title: string;
  count: number;
  /** Every finding, each with its `fingerprint`. */
  items: Array<Record<string, unknown> & { fingerprint: string }>;
}

/** A page check rolled up over the crawl: the API's `check_rollup` without `object`. */
export type SnapshotCheck = CheckRollupWithTemplates;

export interface SnapshotPage {
  url: string;
  /** The page's check statuses other than "pass" (check id → status): a check left out passed. */
  checks: Record<string, string>;
}

export interface SiteSnapshot {
  object: "site_snapshot";
  crawl: Record<string, unknown> & { url: string; score: number | null };
  issues: SnapshotIssue[];
  checks: SnapshotCheck[];
  pages: SnapshotPage[];
  /**
   * Every URL the crawl reached (fetched, or tried to), analysed or not: what it could see, so that a later
   * crawl's finding about a URL this one never reached is coverage, not new (crawls/finding-coverage.ts).
   * Absent from baselines saved before it: then the analysed pages and the URLs of the findings stand in.
   */
  reached?: string[];
  /** Every URL the crawl came upon but did not reach (left out at `max_pages`, by robots.txt…). */
  left_out?: string[];
}

const described = new Map(catalogue.map((entry) => [entry.id, entry]));

/** The importance and category of a page check, from the catalogue. */
export function pageCheckInfo(check: string): { category: string; importance: string } {
  const entry = described.get(check);
  return { category: entry?.category ?? "miscellaneous", importance: entry?.importance ?? "low" };
}

export function loadSiteBaseline(path: string): SiteSnapshot {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    throw new UsageError(`cannot read the baseline file "${path}"`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new UsageError(
      `the baseline file "${path}" is not JSON; save one with "pagegrade crawl <url> --json FILE"`,
    );
  }
  const problem = snapshotProblem(value);
  if (problem !== null) {
    throw new UsageError(
      `the baseline file "${path}" is not a pagegrade crawl (${problem}); save one with "pagegrade crawl <url> --json FILE"`,
    );
  }
  return value as SiteSnapshot;
}

/** What makes the value not a saved crawl, or null when it is one. */
function snapshotProblem(value: unknown): string | null {
  if (!isObject(value) || value.object !== "site_snapshot") return `"object" is not "site_snapshot"`;
  if (!isObject(value.crawl) || typeof value.crawl.url !== "string") return `"crawl.url" is missing`;
  if (!Array.isArray(value.issues)) return `"issues" is not a list`;
  for (const [index, issue] of value.issues.entries()) {
    if (!isObject(issue) || typeof issue.check !== "string" || typeof issue.importance !== "string")
      return `"issues[${index}]" lacks its check or importance`;
    if (
      !Array.isArray(issue.items) ||
      issue.items.some((item) => !isObject(item) || typeof item.fingerprint !== "string")
    )
      return `"issues[${index}].items" are not findings with fingerprints`;
  }
  if (!Array.isArray(value.pages)) return `"pages" is not a list`;
  for (const key of ["reached", "left_out"]) {
    const list = value[key];
    if (list !== undefined && (!Array.isArray(list) || list.some((url) => typeof url !== "string")))
      return `"${key}" is not a list of URLs`;
  }
  for (const [index, page] of value.pages.entries()) {
    if (!isObject(page) || typeof page.url !== "string" || !isObject(page.checks))
      return `"pages[${index}]" lacks its url or checks`;
    if (Object.values(page.checks).some((status) => typeof status !== "string"))
      return `"pages[${index}].checks" holds a status that is not a string`;
  }
  return null;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
