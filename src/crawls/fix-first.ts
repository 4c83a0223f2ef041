/**
 * One "fix first" ranking of a crawl's problems (`GET /crawls/{id}/fix-first`, the crawl page, the project page):
 * the page checks rolled up (check-rollup.ts) and the site issues together, each with one `priority` for both
 * kinds, importance weight (high 10, medium 5, low 1) × pages affected: a page check's pages where it failed or
 * warned, a site issue's distinct pages its findings name (the page or link target, a group's pages, the linking
 * pages listed). Best first: priority, then importance, then page checks before site issues, then check id.
 * Pure functions; the reading is CrawlFindings.fixFirst's.
 */
import { catalogue } from "../analysis/catalogue.js";
import { siteChecks } from "../analysis/site-checks/index.js";
import { importanceWeights } from "./check-rollup.js";
import { urlTemplate } from "./page-checks.js";

export interface Fix {
  kind: "page_check" | "site_issue";
  check: string;
  title: string;
  importance: string;
  pages: number;
  priority: number;
  how_to_fix: string;
  templates: Array<{ pattern: string; pages: number }>;
}

/** URL patterns a fix lists at most (as the roll-up). */
const listedTemplates = 10;
const importanceRank: Record<string, number> = { high: 0, medium: 1, low: 2 };
const described = new Map(catalogue.map((entry) => [entry.id, entry]));
/** How to fix what each site check finds, by its id. */
const siteCheckFixes = new Map(siteChecks.map((check) => [check.id, check.howToFix]));

export function fixPriority(importance: string, pages: number): number {
  return (importanceWeights[importance] ?? 0) * pages;
}

/** A page check of the roll-up as a fix. */
export function pageCheckFix(row: {
  check: string;
  importance: string;
  pages: number;
  templates: Fix["templates"];
}): Fix {
  const entry = described.get(row.check);
  return {
    kind: "page_check",
    check: row.check,
    title: entry?.title ?? row.check,
    importance: row.importance,
    pages: row.pages,
    priority: fixPriority(row.importance, row.pages),
    how_to_fix: entry?.how_to_fix ?? "",
    templates: row.templates,
  };
}

/** The pages a site finding names: its page or link target, its group's pages, the linking pages it lists. */
export function findingPages(item: Record<string, unknown>): string[] {
  const urls = typeof item.url === "string" ? [item.url] : [];
  for (const key of ["pages", "sources"]) {
    const list = item[key];
    if (Array.isArray(list)) for (const url of list) if (typeof url === "string") urls.push(url);
  }
  return urls;
}

/** A site issue as a fix, from the distinct pages its findings name. */
export function siteIssueFix(
  issue: { check: string; title: string; importance: string },
  pages: ReadonlySet<string>,
): Fix {
  const byPattern = new Map<string, number>();
  for (const url of pages) {
    let pattern: string;
    try {
      pattern = urlTemplate(url);
    } catch {
      continue;
    }
    byPattern.set(pattern, (byPattern.get(pattern) ?? 0) + 1);
  }
  const templates = [...byPattern]
    .map(([pattern, count]) => ({ pattern, pages: count }))
    .sort((a, b) => b.pages - a.pages || (a.pattern < b.pattern ? -1 : 1))
    .slice(0, listedTemplates);
  return {
    kind: "site_issue",
    check: issue.check,
    title: issue.title,
    importance: issue.importance,
    pages: pages.size,
    priority: fixPriority(issue.importance, pages.size),
    how_to_fix: siteCheckFixes.get(issue.check) ?? "",
    templates,
  };
}

/** Best first: priority, then importance, then page checks before site issues, then check id. */
export function ranked(fixes: Fix[]): Fix[] {
  return fixes.sort(
    (a, b) =>
      b.priority - a.priority ||
      (importanceRank[a.importance] ?? 3) - (importanceRank[b.importance] ?? 3) ||
      (a.kind === b.kind ? 0 : a.kind === "page_check" ? -1 : 1) ||
      (a.check < b.check ? -1 : a.check > b.check ? 1 : 0),
  );
}

/** The API's `fix` object. */
export function fixObject(fix: Fix) {
  return { object: "fix" as const, ...fix };
}
