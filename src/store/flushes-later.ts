/**
 * PostgreSQL commits that do not wait for their WAL to reach the disk (`synchronous_commit = off`): PostgreSQL
 * flushes it within a fraction of a second, together with the other commits of that moment (its own group
 * commit). A crawl's writes to its shared rows commit so: a commit that waited for the disk would hold the row
 * for the whole flush while every other part queues behind it. A crash of the database loses only the last
 * commits before it, in order, so only writes that the writer can make again, or that leave behind work it
 * redoes, may use it.
 *
 * Two forms: `flushesLater` for a transaction (`set local`, a statement of its own), and `flushingLater`, a
 * condition that is always true, for a statement run on its own (no transaction): it sets the same thing for
 * the statement's implicit transaction (`set_config(…, true)`), whose commit reads it before it is undone, so
 * a single statement that locks a shared row holds the lock for no round trip to the client at all.
 */
import { type Kysely, type RawBuilder, sql } from "kysely";

/** Inside a transaction on PostgreSQL: its commit does not wait for the WAL's flush. */
export async function flushesLater<Db>(trx: Kysely<Db>): Promise<void> {
  await sql`set local synchronous_commit = off`.execute(trx);
}

/**
 * A condition (always true) for a statement run on its own on PostgreSQL: its commit does not wait for the WAL's
 * flush. Put it in the statement's `where`, after the conditions that choose the row.
 */
export function flushingLater(): RawBuilder<boolean> {
  return sql<boolean>`set_config('synchronous_commit', 'off', true) = 'off'`;
}
