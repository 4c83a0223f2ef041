/**
 * What the rest of the code holds when it holds the database: a Kysely instance over the schema, which dialect it
 * speaks (for the few places SQL truly differs), and how to close it. `database.ts` opens one; migrations and
 * queries only need these types.
 */
import type { Kysely } from "kysely";
import type { ChangeFeed } from "./change-feed.js";
import type { Database } from "./schema.js";

export type Dialect = "sqlite" | "postgres";

export interface Store {
  db: Kysely<Database>;
  dialect: Dialect;
  /**
   * SQLite only: a value that changes whenever the database may have changed, by this connection (its count of
   * changed rows, uncommitted ones included) or by any other (SQLite's data_version), read synchronously in a
   * few microseconds. An in-process cache of rows read while it had one value is current while it still has it.
   * Undefined while a transaction is open on the connection: the token is read beside the connection's lock, and
   * inside a transaction data_version stays at the transaction's snapshot, blind to what others commit meanwhile,
   * so no cached row may be trusted then (the caller queries, which waits for the transaction to end).
   * Absent on PostgreSQL, where other instances change the data without this process knowing.
   */
  changeToken?: () => string | undefined;
  /**
   * PostgreSQL only: the notices of changed users (reports, keys, accounts) on a dedicated listening connection,
   * opened on first use (see change-feed.ts).
   */
  changeFeed?: ChangeFeed;
  close(): Promise<void>;
}
