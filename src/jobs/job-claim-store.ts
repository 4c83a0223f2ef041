/**
 * The embedded queue's rows as one process holds them: claimed with a lease (owner + locked_until), renewed,
 * and put back or ended. Every write after the claim names the owner and the `running` state, so a job another
 * worker took over (this one's lease ran out) is theirs to record. PostgreSQL claims with `for update skip
 * locked`, so many processes share the table without waiting on each other; SQLite serialises writers.
 */
import type { UpdateQueryBuilder, UpdateResult } from "kysely";
import type { Database, JobsTable } from "../store/schema.js";
import type { Store } from "../store/store.js";
import { timestamp } from "../timestamps.js";

/** A claimed job, as its worker runs it. */
export type JobRow = Pick<
  JobsTable,
  "name" | "payload" | "key" | "max_attempts" | "backoff_ms" | "backoff_max_ms" | "user_id"
> & {
  id: number;
  attempts_made: number;
};

/** A write to the jobs table, before it is narrowed to one held job. */
type JobWrite = UpdateQueryBuilder<Database, "jobs", "jobs", UpdateResult>;

export class JobClaimStore {
  constructor(
    private readonly store: Store,
    /** Identifies this process's claims. */
    private readonly owner: string,
    /** How long a claim holds without renewal. */
    private readonly leaseMs: number,
  ) {}

  /**
   * Claims those of `ids` that are due at `now`, or running under a lease that ran out (their worker died:
   * taking one over counts as an attempt); each claim uses one attempt.
   */
  async claim(ids: number[], now: number): Promise<JobRow[]> {
    const claimable = this.store.db
      .selectFrom("jobs")
      .select("id")
      .where("id", "in", ids)
      .where((eb) =>
        eb.or([
          eb.and([eb("state", "=", "waiting"), eb("run_at", "<=", now)]),
          eb.and([eb("state", "=", "running"), eb("locked_until", "<", now)]),
        ]),
      );
    return this.store.db
      .updateTable("jobs")
      .set((eb) => ({
        state: "running",
        owner: this.owner,
        locked_until: now + this.leaseMs,
        attempts_made: eb("attempts_made", "+", 1),
      }))
      .where("id", "in", this.store.dialect === "postgres" ? claimable.forUpdate().skipLocked() : claimable)
      .returning([
        "id",
        "name",
        "payload",
        "key",
        "attempts_made",
        "max_attempts",
        "backoff_ms",
        "backoff_max_ms",
        "user_id",
      ])
      .execute();
  }

  /**
   * Extends the lease of these jobs; returns, for each one still held, whether its cancellation was asked
   * (1). A job missing from the answer was lost.
   */
  async renew(ids: number[]): Promise<Map<number, number>> {
    const renewed = await this.store.db
      .updateTable("jobs")
      .set({ locked_until: Date.now() + this.leaseMs })
      .where("id", "in", ids)
      .where("owner", "=", this.owner)
      .where("state", "=", "running")
      .returning(["id", "cancel_requested"])
      .execute();
    return new Map(renewed.map((row) => [row.id, row.cancel_requested]));
  }

  /** Records the end of a job this process still owns. */
  async finish(id: number, state: "completed" | "failed" | "cancelled", error: string | null): Promise<void> {
    await this.whereHeld(
      this.store.db
        .updateTable("jobs")
        .set({ state, owner: null, locked_until: null, finished_at: timestamp(), last_error: error }),
      id,
    ).execute();
  }

  /** A failed run of a job this process owns: waiting again, due at `runAt`; the attempt stays used. */
  async retry(id: number, runAt: number, lastError: string): Promise<void> {
    await this.whereHeld(
      this.store.db
        .updateTable("jobs")
        .set({ state: "waiting", owner: null, locked_until: null, run_at: runAt, last_error: lastError }),
      id,
    ).execute();
  }

  /** A job this process owns back to waiting, due at `runAt`, its attempt given back. */
  async requeue(id: number, runAt: number, lastError?: string): Promise<void> {
    await this.whereHeld(
      this.store.db.updateTable("jobs").set((eb) => ({
        state: "waiting",
        owner: null,
        locked_until: null,
        run_at: runAt,
        attempts_made: eb("attempts_made", "-", 1),
        ...(lastError ? { last_error: lastError } : {}),
      })),
      id,
    ).execute();
  }

  /** Narrows a write to job `id` while this process holds it. */
  private whereHeld(query: JobWrite, id: number): JobWrite {
    return query.where("id", "=", id).where("owner", "=", this.owner).where("state", "=", "running");
  }
}
