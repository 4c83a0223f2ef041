/**
 * The page checks of a crawl rolled up, in SQL over `crawl_page_checks` (migration 021): per check the pages
 * where it failed and warned, the URL patterns with the most affected pages, and the affected pages themselves
 * (a page of them, or every one in batches for the CSV export), each with the check's message and first evidence
 * items read from the analysis the crawl made of the page (migration 023; one unique-index lookup a page). A row
 * names its check by a small integer (migration 027): the queries join `page_check_names` (a few dozen rows) for
 * the name, and look a name's code up first where they read one check, so that its rows are a range of the
 * (crawl, check, page) primary key.
 */
import { type Kysely, sql } from "kysely";
import type { CheckResults } from "../analysis/judge.js";
import { unpackResults } from "../store/analysis-document.js";
import type { Database } from "../store/schema.js";
import type { Store } from "../store/store.js";
import { type PageCheckStatus, statusCode, statusName } from "./page-check-code-store.js";
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
    const counted = await this.db
      .selectFrom("crawl_page_checks")
      .select([
        "check_code",
        sql<number>`sum(case when status = 1 then 1 else 0 end)`.as("fail"),
        sql<number>`sum(case when status = 2 then 1 else 0 end)`.as("warn"),
      ])
      .where("crawl_id", "=", crawlId)
      .groupBy("check_code")
      .execute();
    const names = await this.names();
    const rows = counted.map((row) => ({ ...row, check_id: names.get(row.check_code) as string }));
    return rows.map((row) => ({ check_id: row.check_id, fail: Number(row.fail), warn: Number(row.warn) }));
  }

  /** The URL patterns of these checks' affected pages, most pages first (then by pattern), at most 10 each. */
  async templates(
    crawlId: number,
    checks: string[],
  ): Promise<Map<string, Array<{ pattern: string; pages: number }>>> {
    const byCheck = new Map<string, Array<{ pattern: string; pages: number }>>();
    if (checks.length === 0) return byCheck;
    const { rows } = await sql<{ check_id: string; template: string; pages: number }>`
      select names.name as check_id, template, pages from (
        select check_code, template, count(*) as pages,
               row_number() over (partition by check_code order by count(*) desc, template) as place
        from crawl_page_checks
        where crawl_id = ${crawlId}
          and check_code in (select id from page_check_names where name in (${sql.join(checks)}))
        group by check_code, template) as counted
      inner join page_check_names as names on names.id = counted.check_code
      where place <= ${listedTemplates}
      order by names.name, place`.execute(this.db);
    for (const row of rows) {
      const list = byCheck.get(row.check_id) ?? [];
      list.push({ pattern: row.template, pages: Number(row.pages) });
      byCheck.set(row.check_id, list);
    }
    return byCheck;
  }

  /**
   * A page of the check's affected pages, in the order the crawl found them; only those with `status` when given
   * (a filter on the primary key's range, read in its order: no sort).
   */
  async pages(
    crawlId: number,
    check: string,
    page: { limit: number; offset: number },
    status?: PageCheckStatus,
  ): Promise<CheckPageRow[]> {
    const code = await this.code(check);
    if (code === undefined) return [];
    let query = this.affected(crawlId, code);
    if (status) query = query.where("checks.status", "=", statusCode(status));
    const rows = await query.limit(page.limit).offset(page.offset).execute();
    return rows.map((row) => withEvidence(row, check));
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
      if (rows.length > 0) yield rows.map((row) => withEvidence(row, check));
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

  private affected(crawlId: number, code: number) {
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
      .select([
        "checks.page_id",
        "pages.url",
        "pages.report_id",
        statusName("checks.status").as("status"),
        "judged.results",
      ])
      .where("checks.crawl_id", "=", crawlId)
      .where("checks.check_code", "=", code)
      .orderBy("checks.page_id");
  }
}

/** An affected page's row with the check's message and evidence, from the page's packed results. */
function withEvidence(
  row: Omit<CheckPageRow, "message" | "items"> & { results: Buffer | null },
  check: string,
): CheckPageRow {
  const { results, ...page } = row;
  const parsed =
    results === null ? null : (JSON.parse(unpackResults(results).toString("utf8")) as CheckResults);
  return { ...page, ...checkEvidence(parsed, check) };
}
