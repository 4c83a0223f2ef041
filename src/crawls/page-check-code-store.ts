/**
 * The page checks' names as the small integers `crawl_page_checks` stores (migration 027): `page_check_names`
 * holds one row per check name, added on the check's first use. A process keeps the names it has read in memory;
 * on a miss it inserts them (`on conflict do nothing`, so several processes adding the same name at once all
 * end with the one row) and reads their ids. And a page's failed and warned checks packed into its one row of
 * `crawl_page_checks` (migration 036): `,<code><f|w>,…,` text, e.g. `,3f,17w,`, which a `like` finds one check in.
 */
import { type Kysely, type RawBuilder, sql } from "kysely";
import type { Database } from "../store/schema.js";

export type PageCheckStatus = "fail" | "warn";

/** A status's letter in a packed list. */
function statusLetter(status: PageCheckStatus): string {
  if (status === "fail") return "f";
  if (status === "warn") return "w";
  throw new Error(`a page check's status is fail or warn, not ${JSON.stringify(status)}`);
}

/**
 * A page's failed and warned checks as `crawl_page_checks.checks` stores them: `,<code><f|w>,` for each, in the
 * order given, joined on their commas (`,3f,17w,`); "" for none (a page with none has no row).
 */
export function packChecks(
  checks: Array<{ check: string; status: PageCheckStatus }>,
  codes: Map<string, number>,
): string {
  if (checks.length === 0) return "";
  const parts = checks.map((check) => {
    const code = codes.get(check.check);
    if (code === undefined) throw new Error(`page check ${check.check} has no code`);
    return `${code}${statusLetter(check.status)}`;
  });
  return `,${parts.join(",")},`;
}

/** A packed list read back: each check's code and status, in the stored order. */
export function unpackChecks(packed: string): Array<{ code: number; status: PageCheckStatus }> {
  const checks: Array<{ code: number; status: PageCheckStatus }> = [];
  for (const part of packed.split(",")) {
    if (part === "") continue;
    const letter = part[part.length - 1];
    checks.push({ code: Number(part.slice(0, -1)), status: letter === "f" ? "fail" : "warn" });
  }
  return checks;
}

/**
 * The `like` pattern of the rows holding the check (with that status when given). A code is always followed by
 * its status letter and then a comma, so `,12_,` never matches `,123f,` nor `,2f,`; the pattern has no other
 * wildcard and no character `like` escapes.
 */
export function checkPattern(code: number, status?: PageCheckStatus): string {
  return `%,${code}${status ? statusLetter(status) : "_"},%`;
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

/**
 * Stores these checks (their names coded with `codes`) in `crawl_page_checks`: one row per page (its rows
 * grouped in the order given; the first one's template is the page's), 500 pages at a time.
 */
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
  const pages = new Map<
    string,
    { crawl_id: number; page_id: number; template: string; checks: NamedPageCheckRow[] }
  >();
  for (const row of rows) {
    const key = `${row.crawl_id}:${row.page_id}`;
    const page = pages.get(key) ?? {
      crawl_id: row.crawl_id,
      page_id: row.page_id,
      template: row.template,
      checks: [],
    };
    page.checks.push(row);
    pages.set(key, page);
  }
  const packed = [...pages.values()].map((page) => ({
    crawl_id: page.crawl_id,
    page_id: page.page_id,
    template: page.template,
    checks: packChecks(
      page.checks.map((row) => ({ check: row.check_id, status: row.status })),
      coded,
    ),
  }));
  for (let start = 0; start < packed.length; start += 500) {
    await db
      .insertInto("crawl_page_checks")
      .values(packed.slice(start, start + 500))
      .execute();
  }
}

/**
 * One page's failed and warned checks as its row of `crawl_page_checks` (none when it has none), in a statement
 * whose text is the same for any page, so that it runs prepared on PostgreSQL (store/prepared-statements.ts).
 */
export async function insertPageRow(
  db: Kysely<Database>,
  page: { crawl_id: number; page_id: number; template: string },
  checks: Array<{ check: string; status: PageCheckStatus }>,
  codes: Map<string, number>,
): Promise<void> {
  if (checks.length === 0) return;
  await db
    .insertInto("crawl_page_checks")
    .values({ ...page, checks: packChecks(checks, codes) })
    .execute();
}

/**
 * PostgreSQL: a page's row of crawl_page_checks as a `select`, no row when the page has no failed or warned check,
 * for the page's one statement (its text the same whichever it is).
 */
export function pageCheckRow(
  page: { crawl_id: number; page_id: number; template: string },
  checks: Array<{ check: string; status: PageCheckStatus }>,
  codes: Map<string, number>,
): RawBuilder<unknown> {
  const packed = packChecks(checks, codes);
  return sql`
    select ${page.crawl_id}::integer, ${page.page_id}::integer, ${page.template}::text, ${packed}::text
    where ${packed}::text <> ''`;
}

/**
 * The failed and warned checks of a crawl's pages by name (of the given pages only when `pageIds` is given, a
 * lookup of the (crawl, page) key each), in each page's stored order.
 */
export async function namedPageChecks(
  db: Kysely<Database>,
  crawlId: number,
  pageIds?: number[],
): Promise<Array<{ page_id: number; check_id: string; status: PageCheckStatus; template: string }>> {
  let query = db
    .selectFrom("crawl_page_checks")
    .select(["page_id", "template", "checks"])
    .where("crawl_id", "=", crawlId);
  if (pageIds) {
    if (pageIds.length === 0) return [];
    query = query.where("page_id", "in", pageIds);
  }
  const [rows, names] = await Promise.all([
    query.execute(),
    db.selectFrom("page_check_names").select(["id", "name"]).execute(),
  ]);
  const nameOf = new Map(names.map((row) => [row.id, row.name]));
  return rows.flatMap((row) =>
    unpackChecks(row.checks).map(({ code, status }) => ({
      page_id: row.page_id,
      check_id: nameOf.get(code) as string,
      status,
      template: row.template,
    })),
  );
}
