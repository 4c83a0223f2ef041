/** A crawl, one of its pages and one of its site issues as the API shows them, and as CSV rows. */
import type { ExtractionRule } from "../analysis/extract/extraction-rules.js";
import type { CrawlIssueRow, CrawlPageRow, CrawlRow, CrawlSummaryRow, ListedPageRow } from "./crawl-store.js";
import { csvLine } from "./csv.js";
import { withBoundedUrls } from "./finding-url-lists.js";

/**
 * A crawl as `GET /crawls/{id}` (and the answer to its creation) shows it: its summary, with a list crawl's URLs
 * (`urls`, up to 1 MiB) after `url`.
 */
export function crawlObject(row: CrawlRow) {
  const urls = row.urls === null ? null : (JSON.parse(row.urls) as string[]);
  const { id, object, url, ...rest } = crawlSummaryObject({ ...row, url_count: urls?.length ?? null });
  return { id, object, url, urls, ...rest };
}

/**
 * A crawl as lists, projects and event streams show it: every field but a list crawl's `urls`, whose number is
 * `url_count` and whose place is `urls_url` (the crawl's own address, where `urls` is shown), both null for a
 * crawl that follows links. Bounded by its fields' own limits (see docs/api.md, "Response sizes").
 */
export function crawlSummaryObject(row: CrawlSummaryRow) {
  return {
    id: row.id,
    object: "crawl" as const,
    url: row.url,
    url_count: row.url_count,
    urls_url: row.url_count === null ? null : `/api/v1/crawls/${row.id}`,
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
    header_names: JSON.parse(row.header_names) as string[],
    extract: extractionRulesOf(row),
    pages: { discovered: row.discovered, analysed: row.analysed, failed: row.failed, excluded: row.excluded },
    limited: row.not_reached > 0,
    not_reached: row.not_reached,
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
export function crawlError(row: Pick<CrawlRow, "error">): { reason: string; message: string } | null {
  return row.error === null ? null : (JSON.parse(row.error) as { reason: string; message: string });
}

/** The crawl's extraction rules, as asked for. */
export function extractionRulesOf(crawl: Pick<CrawlRow, "extract">): ExtractionRule[] {
  return JSON.parse(crawl.extract) as ExtractionRule[];
}

/** The names of the crawl's extraction rules, in order: the keys of each page's `extracted`. */
export function extractionNames(crawl: Pick<CrawlRow, "extract">): string[] {
  return extractionRulesOf(crawl).map((rule) => rule.name);
}

/** A page's extracted values by rule name (stored as one array per rule, in the rules' order). */
export function extractedOf(row: Pick<CrawlPageRow, "extracted">, names: string[]): Record<string, string[]> {
  const stored = row.extracted === null ? [] : (JSON.parse(row.extracted) as string[][]);
  return Object.fromEntries(names.map((name, index) => [name, stored[index] ?? []]));
}

export function crawlPageObject(row: ListedPageRow, names: string[] = []) {
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
    extracted: extractedOf(row, names),
  };
}

/**
 * The pages CSV of a crawl: the page's columns, then one per extraction rule (headed with the rule's name; its
 * values joined by " | ").
 */
export function crawlPagesCsv(rows: ListedPageRow[], names: string[], columns = crawlPageColumns): string {
  const lines = rows.map((row) => csvLine(crawlPageCsvRow(row, names, columns)));
  return [csvLine(crawlPageCsvHeader(names, columns)), ...lines].join("");
}

/** The pages CSV's header: the page columns, then one column per extraction rule, named after it. */
export function crawlPageCsvHeader(names: string[], columns = crawlPageColumns): string[] {
  return [...columns, ...names];
}

/** A page's CSV values in `crawlPageCsvHeader`'s order; a rule's values joined by " | ". */
export function crawlPageCsvRow(row: ListedPageRow, names: string[], columns = crawlPageColumns): unknown[] {
  const page: Record<string, unknown> = crawlPageObject(row, names);
  const extracted = page.extracted as Record<string, string[]>;
  return [
    ...columns.map((column) => page[column]),
    ...names.map((name) => (extracted[name] ?? []).join(" | ")),
  ];
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

/**
 * A site issue as the issue lists show it (the API's, the crawl page's, the shared audit's): each finding's URL
 * list bounded (finding-url-lists.ts), with the address of the whole: `address` (`apiFindingUrlsPath` or
 * `findingPath`), or null where the reader cannot open it (the shared audit: the counts alone).
 */
export function listedSiteIssueObject(
  row: CrawlIssueRow,
  address: ((crawlId: number, check: string, fingerprint: string) => string) | null,
) {
  const issue = siteIssueObject(row);
  const linkTo = address ? (fingerprint: string) => address(row.crawl_id, row.check_id, fingerprint) : null;
  return { ...issue, items: issue.items.map((item) => withBoundedUrls(item, linkTo)) };
}

/** Rows as CSV text (see csv.ts): a header line (the columns unless named otherwise), then one line per row. */
export function toCsv(rows: Array<Record<string, unknown>>, columns: string[], header = columns): string {
  return [csvLine(header), ...rows.map((row) => csvLine(columns.map((column) => row[column])))].join("");
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
