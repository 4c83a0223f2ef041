/**
 * The embedded job queue (the default): jobs are rows of the `jobs` table in the service's own database (SQLite or
 * PostgreSQL), run by the service process itself, so `npm start` needs nothing else.
 *
 * A worker claims a job with a lease (owner + locked_until) and renews it while the handler runs. A process that
 * dies (SIGKILL, power) stops renewing, so its jobs become claimable again once their lease expires; a worker
 * that fails to renew (it lost the lease) aborts its handler, and every write that ends a job names the owner, so
 * two live workers never both record one (those writes, and the claim per dialect: job-claim-store.ts). Which due
 * jobs a claim takes is fair between users (fair-claim.ts). A handler that throws `RunLater` puts its job back to
 * waiting, due later, without using an attempt.
 */
import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import type { Store } from "../store/store.js";
import { timestamp } from "../timestamps.js";
import { retryDelayMs } from "./backoff.js";
import { fairCandidates, recordService } from "./fair-claim.js";
import { JobClaimStore, type JobRow } from "./job-claim-store.js";
import {
  type AbortReason,
  type EnqueueOptions,
  type EnqueueResult,
  type HandlerOptions,
  JobAborted,
  type JobHandler,
  type JobQueue,
  jobDefaults,
  type RecurringJob,
  RunLater,
  runUntilAborted,
  Slots,
} from "./job-queue.js";

export interface DatabaseJobQueueOptions {
  /** Jobs this process runs at once; 0: it only enqueues. */
  workers: number;
  /** How long a claim holds without renewal (renewed every third of it). */
  leaseMs?: number;
  /** Wait between looks at the table when there was nothing to do (an enqueue here wakes it at once). */
  pollIntervalMs?: number;
  /** Errors of a handler or of the loop (the service logs them). */
  onError?: (error: unknown, context: { job?: string }) => void;
}

interface Registered {
  handler: JobHandler<unknown>;
  concurrency: number;
  running: number;
  /** The shared slots, or the name's own. */
  slots: Slots;
}

interface Running {
  controller: AbortController;
  done: Promise<void>;
}

/**
 * Deletes the finished rows (completed, failed, cancelled) of the embedded queue that finished before `before`.
 * A function of the table rather than of a running queue: the maintenance job prunes the table whichever queue
 * the process uses, so rows left from an embedded set-up go too.
 */
export async function pruneFinishedJobs(store: Store, before: Date): Promise<void> {
  await store.db
    .deleteFrom("jobs")
    .where("state", "in", ["completed", "failed", "cancelled"])
    .where("finished_at", "<", timestamp(before))
    .execute();
}

export class DatabaseJobQueue implements JobQueue {
  /** Identifies this process's claims. */
  readonly owner = randomUUID();
  private readonly handlers = new Map<string, Registered>();
  private readonly running = new Map<number, Running>();
  private readonly slots: Slots;
  private readonly leaseMs: number;
  private readonly pollIntervalMs: number;
  private started = false;
  private stopping = false;
  private loop: Promise<void> | null = null;
  /** Ends the poller's sleep; null while it is not sleeping. */
  private endSleep: (() => void) | null = null;
  /** Set by a wake-up that came while the poller was busy, so it looks again instead of sleeping. */
  private woken = false;
  private renewTimer: NodeJS.Timeout | null = null;
  private schedulesCheckedAt = 0;
  private readonly claims: JobClaimStore;

  constructor(
    private readonly store: Store,
    private readonly options: DatabaseJobQueueOptions,
  ) {
    this.slots = new Slots(options.workers);
    this.leaseMs = options.leaseMs ?? 30_000;
    this.pollIntervalMs = options.pollIntervalMs ?? 1_000;
    this.claims = new JobClaimStore(store, this.owner, this.leaseMs);
  }

  register<Payload>(name: string, handler: JobHandler<Payload>, options: HandlerOptions = {}): void {
    if (this.started) throw new Error(`register "${name}" before the queue starts`);
    const concurrency = options.ownSlots
      ? Math.max(1, options.concurrency ?? 1)
      : Math.max(1, Math.min(options.concurrency ?? this.options.workers, this.options.workers));
    const slots = options.ownSlots ? new Slots(concurrency) : this.slots;
    this.handlers.set(name, { handler: handler as JobHandler<unknown>, concurrency, running: 0, slots });
  }

  async enqueue(name: string, payload: unknown, options: EnqueueOptions = {}): Promise<EnqueueResult> {
    const result = await this.insert(this.store.db, name, payload, options);
    if (result.enqueued) this.wake();
    return result;
  }

  private async insert(
    db: Store["db"],
    name: string,
    payload: unknown,
    options: EnqueueOptions,
  ): Promise<EnqueueResult> {
    const backoff = options.backoff ?? jobDefaults.backoff;
    const inserted = await db
      .insertInto("jobs")
      .values({
        name,
        payload: JSON.stringify(payload ?? null),
        key: options.key ?? null,
        state: "waiting",
        run_at: Date.now() + (options.delayMs ?? 0),
        max_attempts: Math.max(1, options.attempts ?? jobDefaults.attempts),
        backoff_ms: backoff.delayMs,
        backoff_max_ms: backoff.maxDelayMs ?? jobDefaults.backoff.maxDelayMs,
        last_error: null,
        owner: null,
        locked_until: null,
        created_at: timestamp(),
        finished_at: null,
        user_id: options.userId ?? null,
      })
      // The only unique constraint a new row can meet is the unfinished-key index: the key is taken.
      .onConflict((conflict) => conflict.doNothing())
      .returning("id")
      .executeTakeFirst();
    if (inserted) return { id: String(inserted.id), enqueued: true };
    const holder = await db
      .selectFrom("jobs")
      .select("id")
      .where("key", "=", options.key ?? "")
      .where("state", "in", ["waiting", "running"])
      .executeTakeFirst();
    // The holder may have finished in between; the caller's intent (one job for the key) was still met.
    return { id: holder ? String(holder.id) : "", enqueued: false };
  }

  async cancel(name: string, key: string): Promise<boolean> {
    const now = timestamp();
    const waiting = await this.store.db
      .updateTable("jobs")
      .set({ state: "cancelled", finished_at: now })
      .where("name", "=", name)
      .where("key", "=", key)
      .where("state", "=", "waiting")
      .executeTakeFirst();
    const running = await this.store.db
      .updateTable("jobs")
      .set({ cancel_requested: 1 })
      .where("name", "=", name)
      .where("key", "=", key)
      .where("state", "=", "running")
      .returning("id")
      .executeTakeFirst();
    // A running job here stops at once; one in another process stops when that process next renews its lease.
    if (running) this.running.get(running.id)?.controller.abort(new JobAborted("cancelled"));
    return Number(waiting.numUpdatedRows) > 0 || running !== undefined;
  }

  async schedule(recurring: RecurringJob): Promise<void> {
    const values = {
      id: recurring.id,
      name: recurring.name,
      payload: JSON.stringify(recurring.payload ?? null),
      every_ms: recurring.everyMs,
      next_run_at: Date.now(),
    };
    // A new schedule is due at once; an existing one keeps its next run unless its interval changed.
    await this.store.db
      .insertInto("job_schedules")
      .values(values)
      .onConflict((conflict) =>
        conflict.column("id").doUpdateSet({
          name: values.name,
          payload: values.payload,
          every_ms: values.every_ms,
          next_run_at: sql`case when job_schedules.every_ms = ${values.every_ms} then job_schedules.next_run_at else ${values.next_run_at} end`,
        }),
      )
      .execute();
    this.schedulesCheckedAt = 0;
    this.wake();
  }

  async start(): Promise<void> {
    if (this.started || this.options.workers === 0) return;
    this.started = true;
    this.renewTimer = setInterval(() => void this.renewLeases(), Math.max(10, Math.floor(this.leaseMs / 3)));
    this.loop = this.pollLoop();
  }

  /** The jobs live in the service's own database, which /healthz checks itself. */
  async ping(): Promise<void> {}

  async close(graceMs = jobDefaults.graceMs): Promise<void> {
    this.stopping = true;
    this.wake();
    await this.loop;
    const all = () => Promise.allSettled([...this.running.values()].map((job) => job.done));
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, graceMs);
    });
    await Promise.race([all(), deadline]);
    clearTimeout(timer);
    // Whatever still runs is aborted and handed back (runJob puts it back to waiting without using an attempt).
    for (const job of this.running.values()) job.controller.abort(new JobAborted("shutdown"));
    await all();
    if (this.renewTimer) clearInterval(this.renewTimer);
  }

  /** Something to do: a local enqueue, a new schedule, a freed slot, or shutdown. */
  private wake(): void {
    if (this.endSleep) this.endSleep();
    else this.woken = true;
  }

  private async pollLoop(): Promise<void> {
    while (!this.stopping) {
      let claimed = 0;
      // This turn answers every wake-up so far; one arriving during it makes the loop look again.
      this.woken = false;
      try {
        // Schedules are due at most once per interval: no need to look at them on every busy turn.
        if (Date.now() - this.schedulesCheckedAt >= this.pollIntervalMs) {
          this.schedulesCheckedAt = Date.now();
          await this.enqueueDueSchedules();
        }
        claimed = await this.claimAndRun();
      } catch (error) {
        this.options.onError?.(error, {});
      }
      if (this.stopping) break;
      // Busy (claimed a full batch and has room for more): look again at once. Otherwise sleep until the
      // interval passes, a local enqueue arrives, or a slot frees up.
      if ((claimed > 0 && this.anySlotFree()) || this.woken) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, this.pollIntervalMs);
        function done() {
          clearTimeout(timer);
          resolve();
        }
        this.endSleep = done;
      });
      this.endSleep = null;
    }
  }

  /** Moves every due schedule on by one period and enqueues its job, once across all processes. */
  private async enqueueDueSchedules(): Promise<void> {
    const now = Date.now();
    const due = await this.store.db
      .selectFrom("job_schedules")
      .selectAll()
      .where("next_run_at", "<=", now)
      .execute();
    for (const schedule of due) {
      await this.store.db.transaction().execute(async (trx) => {
        // Compare-and-set on next_run_at: of several processes seeing the same due schedule, one moves it on.
        const moved = await trx
          .updateTable("job_schedules")
          .set({ next_run_at: Math.max(now, Number(schedule.next_run_at) + Number(schedule.every_ms)) })
          .where("id", "=", schedule.id)
          .where("next_run_at", "=", schedule.next_run_at)
          .executeTakeFirst();
        if (Number(moved.numUpdatedRows) !== 1) return;
        await this.insert(trx, schedule.name, JSON.parse(schedule.payload), {
          key: `schedule:${schedule.id}`,
        });
      });
    }
  }

  private anySlotFree(): boolean {
    return [...this.handlers.values()].some((registered) => registered.slots.free > 0);
  }

  /** Claims as many due jobs as there are free slots for their names, pool by pool, and starts them. */
  private async claimAndRun(): Promise<number> {
    const pools = new Map<Slots, string[]>();
    for (const [name, registered] of this.handlers) {
      if (registered.running >= registered.concurrency || registered.slots.free <= 0) continue;
      pools.set(registered.slots, [...(pools.get(registered.slots) ?? []), name]);
    }
    let started = 0;
    for (const [slots, names] of pools) started += await this.claimFor(names, slots.free);
    return started;
  }

  /** Claims up to `limit` due jobs of `names`, fairly between their users, and starts them. */
  private async claimFor(names: string[], limit: number): Promise<number> {
    const now = Date.now();
    const ids = await fairCandidates(this.store.db, names, now, limit);
    if (ids.length === 0) return 0;
    const claimed = await this.claims.claim(ids, now);
    if (claimed.length === 0) return 0;
    await recordService(
      this.store.db,
      claimed.map((row) => row.user_id),
      now,
    );
    // In the fair order, so that when there is room for only some of them the first ones start.
    claimed.sort((a, b) => ids.indexOf(a.id) - ids.indexOf(b.id));
    let started = 0;
    for (const row of claimed) {
      // Our own job, re-claimed because a renewal came late: it is still running here.
      if (this.running.has(row.id)) continue;
      const registered = this.handlers.get(row.name);
      // A batch may hold more of one name than its concurrency allows; those go straight back.
      if (!registered || registered.running >= registered.concurrency || !registered.slots.tryTake()) {
        await this.handBack(row.id);
        continue;
      }
      started++;
      this.startJob(row, registered);
    }
    return started;
  }

  private startJob(row: JobRow, registered: Registered): void {
    const controller = new AbortController();
    registered.running++;
    const done = this.runJob(row, registered, controller.signal).finally(() => {
      registered.running--;
      this.running.delete(row.id);
      registered.slots.release();
      this.wake();
    });
    this.running.set(row.id, { controller, done });
  }

  private async runJob(row: JobRow, registered: Registered, signal: AbortSignal): Promise<void> {
    try {
      if (row.attempts_made > row.max_attempts) {
        // Taken over from dead workers more often than it may run: give up rather than loop forever.
        await this.claims.finish(row.id, "failed", "the worker running it stopped before it finished");
        return;
      }
      let payload: unknown;
      try {
        payload = JSON.parse(row.payload);
      } catch {
        payload = null;
      }
      await runUntilAborted(
        () =>
          registered.handler({
            id: String(row.id),
            name: row.name,
            payload,
            attempt: row.attempts_made,
            signal,
          }),
        signal,
      );
      await this.claims.finish(row.id, "completed", null);
    } catch (error) {
      if (error instanceof RunLater && !signal.aborted) {
        await this.runLater(row.id, error.delayMs).catch((storeError: unknown) => {
          this.options.onError?.(storeError, { job: row.name });
        });
        return;
      }
      const reason: AbortReason | null = signal.aborted
        ? ((signal.reason as JobAborted | undefined)?.reason ?? "shutdown")
        : null;
      try {
        if (reason === "cancelled") await this.claims.finish(row.id, "cancelled", "cancelled");
        else if (reason === "shutdown") await this.handBack(row.id, true);
        else if (reason === "lease-lost") return;
        else await this.failOrRetry(row, error);
      } catch (storeError) {
        this.options.onError?.(storeError, { job: row.name });
      }
      if (reason === null) this.options.onError?.(error, { job: row.name });
    }
  }

  private async failOrRetry(row: JobRow, error: unknown): Promise<void> {
    const message = ((error as Error)?.message ?? String(error)).slice(0, 1000);
    if (row.attempts_made >= row.max_attempts) {
      await this.claims.finish(row.id, "failed", message);
      return;
    }
    const delay = retryDelayMs(row.attempts_made, {
      delayMs: row.backoff_ms,
      maxDelayMs: row.backoff_max_ms,
    });
    await this.claims.retry(row.id, Date.now() + delay, message);
  }

  /** Puts a running job back to waiting, due `delayMs` from now, without using one of its attempts. */
  private runLater(id: number, delayMs: number): Promise<void> {
    return this.claims.requeue(id, Date.now() + Math.max(0, delayMs));
  }

  /** Puts a claimed job back to waiting, due now; the claim did not use one of its attempts. */
  private handBack(id: number, ran = false): Promise<void> {
    return this.claims.requeue(id, Date.now(), ran ? "handed back at shutdown" : undefined);
  }

  /** Extends the lease of every job running here; aborts those it could not renew or that were cancelled. */
  private async renewLeases(): Promise<void> {
    const ids = [...this.running.keys()];
    if (ids.length === 0) return;
    try {
      const held = await this.claims.renew(ids);
      for (const id of ids) {
        const job = this.running.get(id);
        if (!job) continue;
        if (!held.has(id)) job.controller.abort(new JobAborted("lease-lost"));
        else if (held.get(id) === 1) job.controller.abort(new JobAborted("cancelled"));
      }
    } catch (error) {
      this.options.onError?.(error, {});
    }
  }
}
