/**
 * Opens the store named by DATABASE_URL: SQLite (better-sqlite3, chosen for the runtime by sqlite-driver.ts;
 * WAL, the embedded default) or PostgreSQL (pg, its repeated statements prepared: prepared-statements.ts). Everything above this file speaks Kysely and does not know which one it has, except where SQL truly
 * differs (see `dialect`).
 */
import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { Kysely, PostgresDialect, type SqliteDatabase, SqliteDialect } from "kysely";
import pg from "pg";
import { ChangeFeed } from "./change-feed.js";
import { migrate } from "./migrations.js";
import { PreparingPool } from "./prepared-statements.js";
import type { Database } from "./schema.js";
import { sqliteDatabaseClass } from "./sqlite-driver.js";
import type { Store } from "./store.js";

export interface OpenOptions {
  /** PostgreSQL schema to use (tests isolate themselves this way); created when missing. */
  schema?: string;
  /** false leaves the schema as it is (tests that build a database as an earlier version left it). */
  migrate?: boolean;
}

/** Opens and migrates the database (unless told not to). */
export async function openStore(databaseUrl: string, options: OpenOptions = {}): Promise<Store> {
  const store = databaseUrl.startsWith("sqlite:")
    ? openSqlite(databaseUrl.slice("sqlite:".length))
    : await openPostgres(databaseUrl, options);
  if (options.migrate === false) return store;
  try {
    await migrate(store);
  } catch (error) {
    await store.close();
    throw error;
  }
  return store;
}

function openSqlite(path: string): Store {
  const file = path === ":memory:" ? path : resolve(path);
  if (file !== ":memory:") mkdirSync(dirname(file), { recursive: true });
  const database = new (sqliteDatabaseClass())(file);
  database.pragma("journal_mode = WAL");
  // WAL with synchronous=NORMAL is durable across process crashes (the case that matters for a service);
  // only a power cut can lose the last transactions.
  database.pragma("synchronous = NORMAL");
  database.pragma("foreign_keys = ON");
  database.pragma("busy_timeout = 5000");
  // Statement journals (what undoes a statement or a savepoint inside a transaction) and sorts' temporary
  // b-trees in memory: a journal over 64 KB, which a crawled page's savepoint in a shared commit reaches (see
  // transaction-batcher.ts), would otherwise spill to a file, at a hundred write calls per page.
  database.pragma("temp_store = memory");
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(database) }) });
  const close = async () => {
    // Lets SQLite refresh the statistics its query planner uses, as its documentation advises on close.
    database.pragma("optimize");
    await db.destroy();
  };
  // Two plain statements: the table-valued pragma_data_version in one select costs a third more (measured).
  const dataVersion = database.prepare("pragma data_version").pluck(true);
  const totalChanges = database.prepare("select total_changes()").pluck(true);
  const changeToken = () =>
    database.inTransaction ? undefined : `${totalChanges.get() as number}:${dataVersion.get() as number}`;
  return { db, dialect: "sqlite", changeToken, close };
}

/** Prepared statements kept per connection; the service issues a few dozen distinct ones. */
const statementCacheSize = 256;

/**
 * Kysely prepares every query anew, which on SQLite costs about as much as running a small one. The SQL text of
 * a Kysely query is stable for a given shape (values are parameters), so statements are kept by text, least
 * recently used dropped first. Statements are only ever run to completion (`all`/`run`), never left half-read,
 * so one statement is never busy when it is reused.
 */
function withStatementCache(database: SqliteDatabase): SqliteDatabase {
  const statements = new Map<string, ReturnType<SqliteDatabase["prepare"]>>();
  return {
    close: () => database.close(),
    prepare(sql: string) {
      const cached = statements.get(sql);
      if (cached) {
        statements.delete(sql);
        statements.set(sql, cached);
        return cached;
      }
      const statement = database.prepare(sql);
      statements.set(sql, statement);
      if (statements.size > statementCacheSize) {
        const oldest = statements.keys().next().value as string;
        statements.delete(oldest);
      }
      return statement;
    },
  };
}

async function openPostgres(url: string, options: OpenOptions): Promise<Store> {
  // int8 counts arrive as strings by default; ours stay far below 2^53.
  pg.types.setTypeParser(20, (value) => Number.parseInt(value, 10));
  const schema = options.schema;
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    ...(schema ? { options: `-c search_path=${schema},public` } : {}),
  });
  if (schema) {
    if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`invalid schema name "${schema}"`);
    await pool.query(`create schema if not exists ${schema}`);
  }
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: new PreparingPool(pool) }) });
  const changeFeed = new ChangeFeed({ connectionString: url, ...(schema ? { schema } : {}) });
  const close = async () => {
    await changeFeed.close();
    await db.destroy();
  };
  return { db, dialect: "postgres", changeFeed, close };
}
