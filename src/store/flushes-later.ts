/**
 * PostgreSQL commits that do not wait for their WAL to reach the disk (`synchronous_commit = off`): PostgreSQL
 * flushes it within a fraction of a second, together with the other commits of that moment (its own group
 * commit). A crawl's writes to its shared rows commit so: a commit that waited for the disk would hold the row
 * for the whole flush while every other part queues behind it. A crash of the database loses only the last
 * commits before it, in order, so only writes that the writer can make again, or that leave behind work it
 * redoes, may use it.
 *
 * `flushingLater` is a condition that is always true: it sets `synchronous_commit` for the current transaction
 * (`set_config(…, true)`), whose commit reads it before it is undone. In a statement run on its own (no
 * transaction) it covers that statement's implicit transaction, so a single statement that locks a shared row
 * holds the lock for no round trip to the client at all; selected once in a transaction's first statement, it
 * covers the transaction (as `set local` would, without a statement of its own).
 */
import { type RawBuilder, sql } from "kysely";

/**
 * A condition (always true) on PostgreSQL: the commit of the transaction that evaluates it does not wait for the
 * WAL's flush. In a statement of its own, put it in the `where`, after the conditions that choose the row (it
 * takes effect only when evaluated); in a transaction, select it once.
 */
export function flushingLater(): RawBuilder<boolean> {
  return sql<boolean>`set_config('synchronous_commit', 'off', true) = 'off'`;
}
