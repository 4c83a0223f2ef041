/**
 * The page checks of a crawl rolled up over `crawl_page_checks` (migration 021; one row per page since 036): per
 * check the pages where it failed and warned, the URL patterns with the most affected pages, and the affected
 * pages themselves (a page of them, or every one in batches for the CSV export), each with the check's message and
 * first evidence items read from the analysis the crawl made of the page (migration 023; one unique-index lookup a
 * page). A page's row lists its checks by small integers (migration 027, `page_check_names`, a few dozen rows):
 * the counts and patterns read the crawl's rows once (a range of the (crawl, page) key, a short row a page) and
 * count in memory; a check's affected pages are that range in page order, filtered by the check's code (`like`).
 */
import { type Kysely, sql } from "kysely";
import type { CheckResults } from "../analysis/judge.js";
import { unpackResults } from "../store/analysis-document.js";
import type { Database } from "../store/schema.js";
import type { Store } from "../store/store.js";
import { checkPattern, type PageCheckStatus, unpackChecks } from "./page-check-code-store.js";
import { checkEvidence } from "./page-checks.js";

export interface CheckCounts {
  check_id: string;
  fail: number;
  warn: number;
}

export interface CheckPageRow {
  page_id: number;
  url: string;
  report_id: number | null;
  status: "fail" | "warn";
  message: string;
  items: string;
}

/** Templates listed per check. */
export const listedTemplates = 10;
/** Rows read at once when an export walks every affected page. */
const batchRows = 1_000;

export class CheckRollupStore {
  private readonly db: Kysely<Database>;

  constructor(store: Store) {
    this.db = store.db;
  }

  /** Per check that failed or warned on at least one page: how many pages of each. */
  async counts(crawlId: number): Promise<CheckCounts[]> {
    const rows = await this.db
      .selectFrom("crawl_page_checks")
      .select("checks")
      .where("crawl_id", "=", crawlId)
      .execute();
    const counted = new Map<number, { fail: number; warn: number }>();
    for (const row of rows) {
      for (const { code, status } of unpackChecks(row.checks)) {
        const count = counted.get(code) ?? { fail: 0, warn: 0 };
        count[status]++;
        counted.set(code, count);
      }
    }
    const names = await this.names();
    return [...counted].map(([code, count]) => ({ check_id: names.get(code) as string, ...count }));
  }

  /**
   * The URL patterns of these checks' affected pages, most pages first (then by pattern, in code-unit order as
   * the URL columns' byte-order collation sorts ASCII), at most 10 each.
   */
  async templates(
    crawlId: number,
    checks: string[],
  ): Promise<Map<string, Array<{ pattern: string; pages: number }>>> {
    const byCheck = new Map<string, Array<{ pattern: string; pages: number }>>();
    if (checks.length === 0) return byCheck;
    const names = await this.names();
    const wanted = new Map<number, string>();
    for (const [code, name] of names) if (checks.includes(name)) wanted.set(code, name);
    if (wanted.size === 0) return byCheck;
    const rows = await this.db
      .selectFrom("crawl_page_checks")
      .select(["template", "checks"])
      .where("crawl_id", "=", crawlId)
      .execute();
    const counted = new Map<number, Map<string, number>>();
    for (const row of rows) {
      for (const { code } of unpackChecks(row.checks)) {
        if (!wanted.has(code)) continue;
        const patterns = counted.get(code) ?? new Map<string, number>();
        patterns.set(row.template, (patterns.get(row.template) ?? 0) + 1);
        counted.set(code, patterns);
      }
    }
    const ordered = [...counted].sort(([a], [b]) => byName(wanted.get(a) as string, wanted.get(b) as string));
    for (const [code, patterns] of ordered) {
      const list = [...patterns]
        .sort(([a, pagesA], [b, pagesB]) => pagesB - pagesA || byName(a, b))
        .slice(0, listedTemplates)
        .map(([pattern, pages]) => ({ pattern, pages }));
      byCheck.set(wanted.get(code) as string, list);
    }
    return byCheck;
  }

  /**
   * A page of the check's affected pages, in the order the crawl found them; only those with `status` when given
   * (a filter on the (crawl, page) key's range, read in its order: no sort).
   */
  async pages(
    crawlId: number,
    check: string,
    page: { limit: number; offset: number },
    status?: PageCheckStatus,
  ): Promise<CheckPageRow[]> {
    const code = await this.code(check);
    if (code === undefined) return [];
    const rows = await this.affected(crawlId, code, status).limit(page.limit).offset(page.offset).execute();
    return rows.map((row) => withEvidence(row, code, check));
  }

  /** Every affected page of the check, a batch at a time (by page id, so each batch is an index range). */
  async *batches(crawlId: number, check: string): AsyncGenerator<CheckPageRow[]> {
    const code = await this.code(check);
    if (code === undefined) return;
    let after = 0;
    for (;;) {
      const rows = await this.affected(crawlId, code)
        .where("checks.page_id", ">", after)
        .limit(batchRows)
        .execute();
      if (rows.length > 0) yield rows.map((row) => withEvidence(row, code, check));
      if (rows.length < batchRows) return;
      after = (rows[rows.length - 1] as (typeof rows)[number]).page_id;
    }
  }

  /** Every check name by its code. */
  private async names(): Promise<Map<number, string>> {
    const rows = await this.db.selectFrom("page_check_names").select(["id", "name"]).execute();
    return new Map(rows.map((row) => [row.id, row.name]));
  }

  /** The check's code, or undefined when no crawl has recorded it. */
  private async code(check: string): Promise<number | undefined> {
    const row = await this.db
      .selectFrom("page_check_names")
      .select("id")
      .where("name", "=", check)
      .executeTakeFirst();
    return row?.id;
  }

  private affected(crawlId: number, code: number, status?: PageCheckStatus) {
    return this.db
      .selectFrom("crawl_page_checks as checks")
      .innerJoin("crawl_pages as pages", "pages.id", "checks.page_id")
      .leftJoin("analyses as judged", (join) =>
        join.on(
          "judged.request_id",
          "=",
          sql<string>`'crawl:' || cast(checks.crawl_id as text) || ':' || cast(checks.page_id as text)`,
        ),
      )
      .select(["checks.page_id", "pages.url", "pages.report_id", "checks.checks", "judged.results"])
      .where("checks.crawl_id", "=", crawlId)
      .where("checks.checks", "like", checkPattern(code, status))
      .orderBy("checks.page_id");
  }
}

/** An affected page's row with the check's status, message and evidence, from the page's packed results. */
function withEvidence(
  row: Omit<CheckPageRow, "message" | "items" | "status"> & { checks: string; results: Buffer | null },
  code: number,
  check: string,
): CheckPageRow {
  const { results, checks, page_id, url, report_id } = row;
  const status = unpackChecks(checks).find((entry) => entry.code === code)?.status ?? "warn";
  const parsed =
    results === null ? null : (JSON.parse(unpackResults(results).toString("utf8")) as CheckResults);
  return { page_id, url, report_id, status, ...checkEvidence(parsed, check) };
}

/** Names and patterns in code-unit order. */
function byName(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
