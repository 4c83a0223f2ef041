/**
 * Bytes a database holds per table, its indexes included (and, on PostgreSQL, its TOAST), for the crawl
 * benchmarks: SQLite from the `dbstat` table of a database file (each index counted with its table), PostgreSQL
 * from `pg_total_relation_size` of the tables of the connection's first schema (`search_path`).
 */
import pg from "pg";
import { sqliteDatabaseClass } from "../../src/store/sqlite-driver.js";

/** `connection`: the SQLite file's path, or a PostgreSQL connection string. */
export async function databaseBytesPerTable(
  kind: "sqlite" | "postgres",
  connection: string,
): Promise<Record<string, number>> {
  if (kind === "sqlite") {
    const Database = sqliteDatabaseClass();
    const database = new Database(connection, { readonly: true });
    try {
      const rows = database
        .prepare(
          `select coalesce(s.tbl_name, d.name) as name, sum(d.pgsize) as bytes
             from dbstat d left join sqlite_schema s on s.name = d.name
            group by 1 order by 2 desc`,
        )
        .all() as Array<{ name: string; bytes: number }>;
      return Object.fromEntries(rows.map((row) => [row.name, Number(row.bytes)]));
    } finally {
      database.close();
    }
  }
  const client = new pg.Client({ connectionString: connection });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string; bytes: string }>(
      `select c.relname as name, pg_total_relation_size(c.oid) as bytes
         from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = current_schema() and c.relkind in ('r', 'p')
        order by 2 desc`,
    );
    return Object.fromEntries(rows.map((row) => [row.name, Number(row.bytes)]));
  } finally {
    await client.end();
  }
}

/** The sum of a `databaseBytesPerTable` answer. */
export function totalBytes(perTable: Record<string, number>): number {
  return Object.values(perTable).reduce((sum, bytes) => sum + bytes, 0);
}
