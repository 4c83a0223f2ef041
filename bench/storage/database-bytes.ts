/**
 * Bytes on disk per table, indexes included, for either database: what bench:crawl prints per analysed page (and
 * what any benchmark storing a crawl may reuse). SQLite: the `dbstat` virtual table's pages, each index counted
 * with its table (SQLite's autoindexes and the URL search's FTS5 shadow tables included under their own names);
 * PostgreSQL: `pg_total_relation_size` (heap, TOAST and indexes) of every table in the current schema.
 *
 * `vacuumPostgres` first runs VACUUM on those tables, the work autovacuum does on its own within about a minute
 * of a crawl's end. It leaves every live row and index entry where it is, and lets PostgreSQL hand back the
 * pages at a table's end that hold only rows deleted since: `crawl_findings_staged`, which a site judgement
 * empties once it has moved its findings into `crawl_findings`. Measured so, PostgreSQL's figure counts what
 * SQLite's does, whose deleted rows' pages go to its free list and are counted under no table.
 */
import { sql } from "kysely";
import type { Store } from "../../src/store/store.js";

/** Table name → bytes, largest first. */
export async function bytesPerTable(
  store: Store,
  options: { vacuumPostgres?: boolean } = {},
): Promise<Map<string, number>> {
  if (store.dialect === "postgres" && options.vacuumPostgres) {
    const { rows: tables } = await sql<{ name: string }>`
      select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where c.relkind = 'r' and n.nspname = current_schema()`.execute(store.db);
    for (const table of tables) await sql`vacuum ${sql.table(table.name)}`.execute(store.db);
  }
  const { rows } =
    store.dialect === "postgres"
      ? await sql<{ name: string; bytes: string | number }>`
          select c.relname as name, pg_total_relation_size(c.oid) as bytes
          from pg_class c join pg_namespace n on n.oid = c.relnamespace
          where c.relkind in ('r', 'p') and n.nspname = current_schema()`.execute(store.db)
      : await sql<{ name: string; bytes: number }>`
          select coalesce(m.tbl_name, s.name) as name, sum(s.pgsize) as bytes
          from dbstat s left join sqlite_master m on m.name = s.name
          group by coalesce(m.tbl_name, s.name)`.execute(store.db);
  return new Map(
    rows
      .map((row) => [row.name, Number(row.bytes)] as const)
      .filter(([, bytes]) => bytes > 0)
      .sort((a, b) => b[1] - a[1]),
  );
}

/** The tables' bytes divided by `pages`, rounded, as one object (for a JSON line or console.table). */
export function perPage(bytes: Map<string, number>, pages: number): Record<string, number> {
  const divisor = Math.max(1, pages);
  const total = [...bytes.values()].reduce((sum, value) => sum + value, 0);
  return {
    total: Math.round(total / divisor),
    ...Object.fromEntries([...bytes].map(([name, value]) => [name, Math.round(value / divisor)])),
  };
}
