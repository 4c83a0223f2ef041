/**
 * Copies every table of the embedded SQLite database into an empty PostgreSQL database or schema (`pagegrade
 * migrate`). The target is first migrated to this version's schema (migrations.ts); the source must be at the same
 * version. Then everything happens in one transaction on the target, so a copy cut off at any point (SIGKILL, a
 * lost connection) commits nothing and leaves the target as empty as it was, ready for a re-run:
 *  - every pagegrade table is locked, then found empty, or the copy is refused (a re-run over a finished copy, a
 *    service that already started on the target), as is a schema holding tables pagegrade does not make (both are
 *    checked before migrating too, so a refused target is left unchanged);
 *  - the tables' own triggers are off for the transaction (`alter table … disable trigger user`, undone by commit or
 *    rollback alike): on PostgreSQL, inserting reports and analyses would bump their owners' `reports_version` and
 *    notify listeners (migrations 010, 017); the copied versions are the source's. Foreign keys stay checked, so the
 *    tables are copied parents first;
 *  - rows are read from one SQLite read transaction (a consistent snapshot, even of a database in use), by rowid in
 *    batches, and inserted as multi-row statements, each value converted to the target column's type (blobs to
 *    bytea; integers exact, as read with `safeIntegers`);
 *  - each table's row count is compared with the source's, and every identity column's sequence is set past both its
 *    largest id and SQLite's AUTOINCREMENT counter, so ids are never reused.
 * SQL lives here; `src/cli/migrate-command.ts` parses arguments and prints.
 */
import pg from "pg";
import { openStore } from "./database.js";
import { migrationsFor } from "./migrations.js";
import { redactedUrl } from "./redacted-url.js";
import { sqliteDatabaseClass } from "./sqlite-driver.js";

/** Why the copy was not made: a sentence for the operator, with what to do (no stack trace). */
export class MigrationRefused extends Error {
  override readonly name = "MigrationRefused";
}

/** Tables the migrations create on PostgreSQL only (migrations 017 and 038), which the copy leaves empty. */
const postgresOnlyTables = ["report_changes", "team_report_changes"];
/** Kysely's own bookkeeping: each side has its own. */
const migrationTables = ["kysely_migration", "kysely_migration_lock"];

/** Rows read from SQLite at a time, and the most a single INSERT carries (rows, parameters, bytes). */
const readBatchRows = 1000;
const maxParameters = 60_000;
const maxStatementBytes = 8 * 1024 * 1024;

export interface CopyOptions {
  sqlitePath: string;
  postgresUrl: string;
  /** Called with each progress line: a table's rows copied so far (at most once a second), its count verified. */
  progress?: (line: string) => void;
}

export interface CopiedTable {
  table: string;
  rows: number;
}

export async function copySqliteToPostgres(options: CopyOptions): Promise<CopiedTable[]> {
  const say = options.progress ?? (() => {});
  const source = openSource(options.sqlitePath);
  try {
    const tables = sourceTables(source);
    checkSourceVersion(source);
    const target = await connect(options.postgresUrl);
    try {
      const schema = await targetSchema(target);
      await refuseUnlessEmpty(target, schema, tables);
      say(`Migrating the schema of ${redactedUrl(options.postgresUrl)} (schema ${schema})`);
      await migrateTarget(options.postgresUrl);
      return await copyInOneTransaction(source, target, schema, tables, say);
    } finally {
      await target.end().catch(() => {});
    }
  } finally {
    source.close();
  }
}

type SqliteDatabase = InstanceType<ReturnType<typeof sqliteDatabaseClass>>;

function openSource(path: string): SqliteDatabase {
  const Database = sqliteDatabaseClass();
  let database: SqliteDatabase;
  try {
    database = new Database(path, { fileMustExist: true });
  } catch (error) {
    throw new MigrationRefused(`cannot open the SQLite database ${path}: ${(error as Error).message}`);
  }
  try {
    database.pragma("busy_timeout = 10000");
    database.prepare("select count(*) from sqlite_schema").get();
  } catch (error) {
    database.close();
    throw new MigrationRefused(`cannot read the SQLite database ${path}: ${(error as Error).message}`);
  }
  return database;
}

/** The source's own tables: not SQLite's, not the URL search's FTS5 table and its shadow tables, not Kysely's. */
function sourceTables(source: SqliteDatabase): string[] {
  const rows = source.prepare("select name, type from pragma_table_list where schema = 'main'").all() as {
    name: string;
    type: string;
  }[];
  return rows
    .filter(
      ({ name, type }) => type === "table" && !name.startsWith("sqlite_") && !migrationTables.includes(name),
    )
    .map(({ name }) => name)
    .sort();
}

function checkSourceVersion(source: SqliteDatabase): void {
  const expected = Object.keys(migrationsFor("sqlite")).sort();
  let applied: string[];
  try {
    applied = (
      source.prepare("select name from kysely_migration order by name").all() as { name: string }[]
    ).map((row) => row.name);
  } catch {
    throw new MigrationRefused("the SQLite database has no pagegrade schema (no kysely_migration table)");
  }
  const missing = expected.filter((name) => !applied.includes(name));
  const unknown = applied.filter((name) => !expected.includes(name));
  if (unknown.length > 0)
    throw new MigrationRefused(
      `the SQLite database was migrated by a newer pagegrade (${unknown.join(", ")}): run migrate with that version`,
    );
  if (missing.length > 0)
    throw new MigrationRefused(
      `the SQLite database is not at this version's schema (missing ${missing.join(", ")}): start this version of ` +
        "the service on it once (it migrates on start), then run migrate again",
    );
}

async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 15_000 });
  // A connection lost between queries surfaces as the next query's error; this keeps it from crashing the process.
  client.on("error", () => {});
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => {});
    throw new MigrationRefused(`cannot connect to ${redactedUrl(url)}: ${describe(error)}`);
  }
  return client;
}

function describe(error: unknown): string {
  const failure = error as Error & { code?: string; errors?: Error[] };
  // Node reports a host with several addresses that all refused as an AggregateError with an empty message.
  const message = failure.message || failure.errors?.map((each) => each.message).join("; ") || failure.code;
  return message || String(error);
}

async function targetSchema(target: pg.Client): Promise<string> {
  const { rows } = await target.query<{ schema: string | null; path: string }>(
    "select current_schema() as schema, current_setting('search_path') as path",
  );
  const schema = rows[0]?.schema;
  const path = rows[0]?.path ?? "";
  // The first schema named on the search path, unless it is the default "$user": PostgreSQL skips a missing one and
  // would take the next (public) without a word.
  const first = path
    .split(",")[0]
    ?.trim()
    .replace(/^"(.*)"$/, "$1");
  if (!schema || (first && first !== "$user" && first !== schema))
    throw new MigrationRefused(
      `the schema ${first || "of the search path"} does not exist in the target database: create it first ` +
        `(create schema ${first || "…"}), or name an existing one`,
    );
  return schema;
}

/**
 * Before the target is migrated (which would change it): tables, views and the like in the schema that pagegrade
 * does not make (the target is someone else's), and pagegrade tables holding rows. The copy's transaction checks
 * the rows again once it holds the tables' locks.
 */
async function refuseUnlessEmpty(target: pg.Client, schema: string, tables: string[]): Promise<void> {
  const known = new Set([...tables, ...postgresOnlyTables, ...migrationTables]);
  const { rows } = await target.query<{ name: string }>(
    `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = $1 and c.relkind in ('r', 'p', 'v', 'm', 'f') order by c.relname`,
    [schema],
  );
  const foreign = rows.map((row) => row.name).filter((name) => !known.has(name));
  if (foreign.length > 0)
    throw new MigrationRefused(
      `the target schema ${schema} holds tables that are not pagegrade's (${foreign.join(", ")}): migrate into an ` +
        "empty database or schema",
    );
  await refuseRows(
    target,
    rows.map((row) => row.name).filter((name) => !migrationTables.includes(name)),
  );
}

async function migrateTarget(url: string): Promise<void> {
  try {
    const store = await openStore(url);
    await store.close();
  } catch (error) {
    throw new MigrationRefused(`migrating the target failed: ${describe(error)}`);
  }
}

async function copyInOneTransaction(
  source: SqliteDatabase,
  target: pg.Client,
  schema: string,
  tables: string[],
  say: (line: string) => void,
): Promise<CopiedTable[]> {
  const targetColumns = await columnsOf(target, schema);
  const missing = tables.filter((table) => !targetColumns.has(table));
  if (missing.length > 0)
    throw new MigrationRefused(
      `the target has no table ${missing.join(", ")} after migrating: a pagegrade bug`,
    );
  const ordered = parentsFirst(tables, await foreignKeys(target, schema));
  // The source's snapshot: every read below sees the database as it was at the first one.
  source.exec("begin");
  try {
    await target.query("begin");
    try {
      const all = [...ordered, ...postgresOnlyTables];
      await target.query(`lock table ${all.map(quoted).join(", ")} in access exclusive mode`);
      await refuseRows(target, all);
      const triggered = await tablesWithTriggers(target, schema);
      await setTriggers(target, triggered, "disable");
      if (triggered.length > 0) say(`Triggers off during the copy on ${triggered.join(", ")}`);
      const copied: CopiedTable[] = [];
      for (const table of ordered) copied.push(await copyTable(source, target, table, targetColumns, say));
      await setSequences(source, target, schema);
      await setTriggers(target, triggered, "enable");
      await target.query("commit");
      return copied;
    } catch (error) {
      await target.query("rollback").catch(() => {});
      throw error;
    }
  } finally {
    source.exec("commit");
  }
}

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

interface TargetColumn {
  name: string;
  type: string;
}

async function columnsOf(target: pg.Client, schema: string): Promise<Map<string, TargetColumn[]>> {
  const { rows } = await target.query<{ table: string; name: string; type: string }>(
    `select table_name as table, column_name as name, data_type as type from information_schema.columns
     where table_schema = $1 order by table_name, ordinal_position`,
    [schema],
  );
  const byTable = new Map<string, TargetColumn[]>();
  for (const row of rows) {
    const list = byTable.get(row.table) ?? [];
    list.push({ name: row.name, type: row.type });
    byTable.set(row.table, list);
  }
  return byTable;
}

async function foreignKeys(target: pg.Client, schema: string): Promise<[child: string, parent: string][]> {
  const { rows } = await target.query<{ child: string; parent: string }>(
    `select child.relname as child, parent.relname as parent from pg_constraint k
     join pg_class child on child.oid = k.conrelid join pg_class parent on parent.oid = k.confrelid
     join pg_namespace n on n.oid = child.relnamespace
     where k.contype = 'f' and n.nspname = $1`,
    [schema],
  );
  return rows.map((row) => [row.child, row.parent]);
}

/** The tables ordered so that every table comes after the tables its foreign keys reference (by name otherwise). */
export function parentsFirst(tables: string[], keys: [child: string, parent: string][]): string[] {
  const ordered: string[] = [];
  const remaining = new Set(tables);
  while (remaining.size > 0) {
    const ready = [...remaining]
      .filter(
        (table) =>
          !keys.some(([child, parent]) => child === table && parent !== table && remaining.has(parent)),
      )
      .sort();
    if (ready.length === 0)
      throw new MigrationRefused(`the tables' foreign keys form a cycle: ${[...remaining].join(", ")}`);
    for (const table of ready) {
      ordered.push(table);
      remaining.delete(table);
    }
  }
  return ordered;
}

async function refuseRows(target: pg.Client, tables: string[]): Promise<void> {
  const holding: string[] = [];
  for (const table of tables) {
    const { rows } = await target.query<{ any: boolean }>(
      `select exists (select 1 from ${quoted(table)}) as any`,
    );
    if (rows[0]?.any) holding.push(table);
  }
  if (holding.length > 0)
    throw new MigrationRefused(
      `the target is not empty: ${holding.sort().join(", ")} hold rows (a finished copy, or a service that started on it). ` +
        "Migrate into an empty database or schema (drop and create it again to start over)",
    );
}

async function tablesWithTriggers(target: pg.Client, schema: string): Promise<string[]> {
  const { rows } = await target.query<{ table: string }>(
    `select distinct c.relname as table from pg_trigger t join pg_class c on c.oid = t.tgrelid
     join pg_namespace n on n.oid = c.relnamespace
     where not t.tgisinternal and n.nspname = $1 order by c.relname`,
    [schema],
  );
  return rows.map((row) => row.table);
}

async function setTriggers(target: pg.Client, tables: string[], action: "disable" | "enable"): Promise<void> {
  for (const table of tables) {
    try {
      await target.query(`alter table ${quoted(table)} ${action} trigger user`);
    } catch (error) {
      throw new MigrationRefused(
        `cannot ${action} the triggers of ${table} for the copy (${describe(error)}): run migrate as the role that ` +
          "owns pagegrade's tables",
      );
    }
  }
}

async function copyTable(
  source: SqliteDatabase,
  target: pg.Client,
  table: string,
  targetColumns: Map<string, TargetColumn[]>,
  say: (line: string) => void,
): Promise<CopiedTable> {
  const columns = matchingColumns(source, table, targetColumns.get(table) ?? []);
  const total = Number(
    (source.prepare(`select count(*) as n from ${quoted(table)}`).get() as { n: number | bigint }).n,
  );
  const read = source
    .prepare(
      `select rowid as "__rowid", ${columns.map((column) => quoted(column.name)).join(", ")} from ${quoted(table)}
       where rowid > ? order by rowid limit ${readBatchRows}`,
    )
    .safeIntegers(true);
  const insertPrefix = `insert into ${quoted(table)} (${columns.map((column) => quoted(column.name)).join(", ")}) values `;
  let after: bigint = -(2n ** 63n);
  let copied = 0;
  let reported = performance.now();
  for (;;) {
    const rows = read.all(after) as Record<string, unknown>[];
    if (rows.length === 0) break;
    after = rows[rows.length - 1]?.__rowid as bigint;
    let statement: unknown[][] = [];
    let bytes = 0;
    const flush = async () => {
      if (statement.length === 0) return;
      await insertRows(target, table, insertPrefix, columns.length, statement);
      copied += statement.length;
      statement = [];
      bytes = 0;
    };
    for (const row of rows) {
      const values = columns.map((column) => toPostgres(row[column.name], column.type));
      statement.push(values);
      bytes += values.reduce<number>((sum, value) => sum + sizeOf(value), 0);
      if (bytes >= maxStatementBytes || (statement.length + 1) * columns.length > maxParameters)
        await flush();
    }
    await flush();
    if (performance.now() - reported >= 1000) {
      reported = performance.now();
      say(`  ${table}: ${copied.toLocaleString("en")} of ${total.toLocaleString("en")} rows…`);
    }
  }
  const counted = await target.query<{ n: string }>(`select count(*)::text as n from ${quoted(table)}`);
  const inTarget = Number(counted.rows[0]?.n);
  if (inTarget !== total || copied !== total)
    throw new MigrationRefused(
      `${table}: the source has ${total} rows but ${inTarget} arrived (${copied} sent): nothing was committed`,
    );
  say(`  ${table}: ${total.toLocaleString("en")} ${total === 1 ? "row" : "rows"} copied, count verified`);
  return { table, rows: total };
}

async function insertRows(
  target: pg.Client,
  table: string,
  prefix: string,
  width: number,
  rows: unknown[][],
): Promise<void> {
  const tuples = rows.map(
    (_, row) =>
      `(${Array.from({ length: width }, (_, column) => `$${row * width + column + 1}`).join(", ")})`,
  );
  try {
    await target.query(prefix + tuples.join(", "), rows.flat());
  } catch (error) {
    throw new MigrationRefused(`copying ${table} failed (${describe(error)}): nothing was committed`);
  }
}

/** The source's columns of the table, each with the target column's type; both sides must have the same set. */
function matchingColumns(source: SqliteDatabase, table: string, target: TargetColumn[]): TargetColumn[] {
  const names = (
    source.prepare(`select name from pragma_table_info(?)`).all(table) as { name: string }[]
  ).map((row) => row.name);
  const onlySource = names.filter((name) => !target.some((column) => column.name === name));
  const onlyTarget = target.filter((column) => !names.includes(column.name)).map((column) => column.name);
  if (onlySource.length > 0 || onlyTarget.length > 0)
    throw new MigrationRefused(
      `${table} has other columns on each side (only in SQLite: ${onlySource.join(", ") || "none"}; only in ` +
        `PostgreSQL: ${onlyTarget.join(", ") || "none"}): a pagegrade bug`,
    );
  return target;
}

/**
 * A SQLite value as the PostgreSQL column of this type takes it. Integers arrive as BigInt (exact) and go as text;
 * blobs go to bytea as they are, text that SQLite kept in a blob column as its bytes; 0/1 to booleans. JSON and
 * timestamps are text in both dialects here (schema.ts), so text goes as it is.
 */
export function toPostgres(value: unknown, type: string): unknown {
  if (value === null || value === undefined) return null;
  if (type === "bytea") return Buffer.isBuffer(value) ? value : Buffer.from(String(value), "utf8");
  if (type === "boolean") return Number(value) !== 0;
  if (typeof value === "bigint") return value.toString();
  if (Buffer.isBuffer(value)) return type === "text" ? value.toString("utf8") : value;
  return value;
}

function sizeOf(value: unknown): number {
  if (Buffer.isBuffer(value)) return value.length;
  if (typeof value === "string") return value.length;
  return 8;
}

/**
 * Every identity (or serial) column's sequence continues past the largest id copied and past SQLite's counter for
 * the table (AUTOINCREMENT never reuses the ids of deleted rows, and neither does the copy).
 */
async function setSequences(source: SqliteDatabase, target: pg.Client, schema: string): Promise<void> {
  const counters = new Map<string, number>();
  try {
    for (const row of source.prepare("select name, seq from sqlite_sequence").all() as {
      name: string;
      seq: number;
    }[])
      counters.set(row.name, Number(row.seq));
  } catch {
    // A database without AUTOINCREMENT tables has no sqlite_sequence.
  }
  // The sequences owned by the schema's columns, read from the catalogs alone: pg_get_serial_sequence over
  // information_schema.columns takes a lock on every table it is evaluated for, other schemas' included, and two
  // copies into two schemas, each holding its own tables' locks, deadlocked on each other's.
  const { rows } = await target.query<{ table: string; column: string; sequence: string }>(
    `select t.relname as table, a.attname as column,
            quote_ident(n.nspname) || '.' || quote_ident(s.relname) as sequence
     from pg_class t
     join pg_namespace n on n.oid = t.relnamespace
     join pg_depend d on d.refclassid = 'pg_class'::regclass and d.refobjid = t.oid
       and d.classid = 'pg_class'::regclass and d.deptype in ('a', 'i')
     join pg_class s on s.oid = d.objid and s.relkind = 'S'
     join pg_attribute a on a.attrelid = t.oid and a.attnum = d.refobjsubid
     where n.nspname = $1 and t.relkind in ('r', 'p')`,
    [schema],
  );
  for (const { table, column, sequence } of rows) {
    const largest = await target.query<{ n: string | null }>(
      `select max(${quoted(column)})::text as n from ${quoted(table)}`,
    );
    const next = Math.max(Number(largest.rows[0]?.n ?? 0), counters.get(table) ?? 0);
    if (next > 0) await target.query("select setval($1, $2, true)", [sequence, next]);
  }
}
