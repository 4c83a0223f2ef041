/**
 * Group commit for SQLite: writes that each would be a transaction of their own (a crawled page's report, links
 * and frontier) wait a few milliseconds and are then committed together, each in a savepoint of one shared
 * transaction. A commit writes every page the transaction changed to the write-ahead log; the pages of a crawl
 * share most of those (the report list indexes' leaves, the search index's segment, the frontier's), so a
 * commit of many writes costs a fraction of as many commits of one.
 *
 * Each write stays atomic and independent: one that throws is rolled back to its savepoint and its caller gets
 * the error; the others commit. A caller's promise settles once its write is committed (or failed), never
 * before. Writes not yet committed when the process stops are lost as a whole, as an uncommitted transaction
 * would be, so callers must only use it for work that is redone when it is lost (a crawl's page stays claimed
 * until its write commits, and is fetched again after a crash).
 *
 * SQLite only: it has one writer at a time anyway. On PostgreSQL, where transactions run side by side and lock
 * rows, a shared transaction would hold its locks for the whole batch and could take them in an order that
 * deadlocks with another's; writes run in transactions of their own there.
 */
import { type Kysely, sql } from "kysely";
import type { Database } from "./schema.js";

export type Write = (trx: Kysely<Database>) => Promise<void>;

interface Waiting {
  write: Write;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export interface BatchingOptions {
  /** How long the first write of a batch waits for others before the batch commits. */
  windowMs: number;
  /** A batch this large commits at once. */
  maxWrites: number;
}

export class TransactionBatcher {
  private waiting: Waiting[] = [];
  private timer: NodeJS.Timeout | undefined;
  private committing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly options: BatchingOptions,
  ) {}

  /** Runs `write` in the next shared transaction; settles when that has committed. */
  run(write: Write): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({ write, resolve, reject });
      if (this.waiting.length >= this.options.maxWrites) void this.commitNow();
      else this.timer ??= setTimeout(() => void this.commitNow(), this.options.windowMs);
    });
  }

  /**
   * Commits the writes waiting now, without waiting for the window to end (a caller that has nothing else to do
   * until they are committed); true when there were any.
   */
  async commitNow(): Promise<boolean> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.waiting;
    this.waiting = [];
    // Batches commit one after the other, in the order they were formed.
    const committed = this.committing.then(() => this.commit(batch));
    this.committing = committed;
    await committed;
    return batch.length > 0;
  }

  private async commit(batch: Waiting[]): Promise<void> {
    if (batch.length === 0) return;
    const failures = new Map<Waiting, unknown>();
    try {
      await this.db.transaction().execute(async (trx) => {
        for (const waiting of batch) {
          await sql`savepoint batched_write`.execute(trx);
          try {
            await waiting.write(trx);
          } catch (error) {
            await sql`rollback to batched_write`.execute(trx);
            failures.set(waiting, error);
          }
          await sql`release batched_write`.execute(trx);
        }
      });
    } catch (error) {
      // The shared transaction itself failed (its commit, or a rollback): nothing of the batch was stored.
      for (const waiting of batch) waiting.reject(error);
      return;
    }
    for (const waiting of batch) {
      if (failures.has(waiting)) waiting.reject(failures.get(waiting));
      else waiting.resolve();
    }
  }
}
