/**
 * The page checks' names as the small integers `crawl_page_checks` stores (migration 027): `page_check_names`
 * holds one row per check name, added on the check's first use. A process keeps the names it has read in memory;
 * on a miss it inserts them (`on conflict do nothing`, so several processes adding the same name at once all
 * end with the one row) and reads their ids. And the statuses as stored (1 fail, 2 warn), with the SQL that
 * reads them back as words.
 */
import { type Kysely, type RawBuilder, sql } from "kysely";
import type { Database } from "../store/schema.js";

export type PageCheckStatus = "fail" | "warn";

/** A status as `crawl_page_checks.status` stores it. */
export function statusCode(status: PageCheckStatus): number {
  if (status === "fail") return 1;
  if (status === "warn") return 2;
  throw new Error(`a page check's status is fail or warn, not ${JSON.stringify(status)}`);
}

/** The stored status of the row (`checks.status` when aliased) read back as "fail" or "warn". */
export function statusName(column: string) {
  return sql<PageCheckStatus>`case ${sql.ref(column)} when 1 then 'fail' else 'warn' end`;
}

/** The codes of these check names, read (and added where missing) with `db`. */
export async function readCodes(db: Kysely<Database>, names: string[]): Promise<Map<string, number>> {
  const wanted = [...new Set(names)];
  const codes = new Map<string, number>();
  if (wanted.length === 0) return codes;
  const read = async () => {
    const rows = await db
      .selectFrom("page_check_names")
      .select(["id", "name"])
      .where("name", "in", wanted)
      .execute();
    for (const row of rows) codes.set(row.name, row.id);
  };
  await read();
  const missing = wanted.filter((name) => !codes.has(name));
  if (missing.length === 0) return codes;
  await db
    .insertInto("page_check_names")
    .values(missing.sort().map((name) => ({ name })))
    .onConflict((conflict) => conflict.column("name").doNothing())
    .execute();
  await read();
  for (const name of missing) if (!codes.has(name)) throw new Error(`page check ${name} has no code`);
  return codes;
}

/** The codes a process has read, so that a page's checks usually cost no query. */
export class PageCheckCodes {
  private readonly known = new Map<string, number>();

  /** The codes known already, or undefined when one of the names is not. */
  cached(names: string[]): Map<string, number> | undefined {
    const codes = new Map<string, number>();
    for (const name of names) {
      const code = this.known.get(name);
      if (code === undefined) return undefined;
      codes.set(name, code);
    }
    return codes;
  }

  /** The codes of these names, from memory or read with `db` (and kept when `keep`). */
  async of(db: Kysely<Database>, names: string[], keep = true): Promise<Map<string, number>> {
    const cached = this.cached(names);
    if (cached) return cached;
    const codes = await readCodes(db, names);
    if (keep) this.remember(codes);
    return codes;
  }

  /** Keeps codes read in a transaction once it has committed. */
  remember(codes: Map<string, number>): void {
    for (const [name, code] of codes) this.known.set(name, code);
  }
}

/** A page check's row by name and status, as callers know it. */
export interface NamedPageCheckRow {
  crawl_id: number;
  page_id: number;
  check_id: string;
  status: PageCheckStatus;
  template: string;
}

/** Stores these rows (their names coded with `codes`) in `crawl_page_checks`, 500 at a time. */
export async function insertNamedRows(
  db: Kysely<Database>,
  rows: NamedPageCheckRow[],
  codes?: Map<string, number>,
): Promise<void> {
  if (rows.length === 0) return;
  const coded =
    codes ??
    (await readCodes(
      db,
      rows.map((row) => row.check_id),
    ));
  for (let start = 0; start < rows.length; start += 500) {
    await db
      .insertInto("crawl_page_checks")
      .values(
        rows.slice(start, start + 500).map((row) => {
          const code = coded.get(row.check_id);
          if (code === undefined) throw new Error(`page check ${row.check_id} has no code`);
          return {
            crawl_id: row.crawl_id,
            page_id: row.page_id,
            check_code: code,
            status: statusCode(row.status),
            template: row.template,
          };
        }),
      )
      .execute();
  }
}

/**
 * PostgreSQL: one page's failed and warned checks in one statement whose text is the same for any number of
 * them (their codes and statuses passed as arrays and unnested), so that it runs prepared
 * (store/prepared-statements.ts) and costs no per-row query building. Their names are coded with `codes`.
 */
export async function insertPageRowsUnnested(
  db: Kysely<Database>,
  page: { crawl_id: number; page_id: number; template: string },
  checks: Array<{ check: string; status: PageCheckStatus }>,
  codes: Map<string, number>,
): Promise<void> {
  if (checks.length === 0) return;
  await db
    .insertInto("crawl_page_checks")
    .columns(["crawl_id", "page_id", "check_code", "status", "template"])
    .expression(pageCheckRows(page, checks, codes))
    .execute();
}

/** PostgreSQL: a page's checks as rows of crawl_page_checks, from arrays (see `insertPageRowsUnnested`). */
export function pageCheckRows(
  page: { crawl_id: number; page_id: number; template: string },
  checks: Array<{ check: string; status: PageCheckStatus }>,
  codes: Map<string, number>,
): RawBuilder<unknown> {
  const checkCodes = checks.map((check) => {
    const code = codes.get(check.check);
    if (code === undefined) throw new Error(`page check ${check.check} has no code`);
    return code;
  });
  const statuses = checks.map((check) => statusCode(check.status));
  return sql`
    select ${page.crawl_id}::integer, ${page.page_id}::integer, checks.code, checks.status, ${page.template}::text
    from unnest(${checkCodes}::smallint[], ${statuses}::smallint[]) as checks(code, status)`;
}
