/**
 * The jobs port: what services use to run work in the background. A job is a name and a JSON payload; a handler
 * registered for the name runs it with an AbortSignal. Two adapters implement it: the embedded queue (a table in
 * the service's own database, database-job-queue.ts) and BullMQ on Redis (bullmq-job-queue.ts). Delivery is at
 * least once — a job whose worker died is run again — so every handler must be idempotent.
 *
 * Workers are shared fairly: a job names the user it works for, and of the jobs that are due the next one taken
 * is of the user with the fewest running and, among equals, the one served least recently — so one user's
 * backlog delays another's job by at most the one job that frees a slot. A handler may also run in slots of its
 * own (`ownSlots`) instead of the shared ones, and may hand its slot back until later by throwing `RunLater`.
 */

export interface Backoff {
  /** Delay before the first retry; each further retry doubles it. */
  delayMs: number;
  /** Upper bound of a single delay. */
  maxDelayMs?: number;
}

export interface EnqueueOptions {
  /**
   * Deduplication key: while a job with this key is waiting, delayed or running, enqueueing another one with the
   * same key does nothing (and says so). Also what `cancel` finds the job by.
   */
  key?: string;
  /** Run no earlier than this many milliseconds from now. */
  delayMs?: number;
  /** Runs in all, the first included (default 3). */
  attempts?: number;
  /** Wait between attempts: exponential with jitter (default 1 s doubling, at most 5 minutes). */
  backoff?: Backoff;
  /** The user the job works for: users take turns for the workers. Absent: the service's own job. */
  userId?: number;
}

export interface EnqueueResult {
  /** The job's id: the new job's, or the one already holding the key. */
  id: string;
  /** false when a job with the same key was already waiting or running, so nothing was added. */
  enqueued: boolean;
}

export interface JobContext<Payload> {
  id: string;
  name: string;
  payload: Payload;
  /** 1 for the first run, 2 for the first retry, … */
  attempt: number;
  /**
   * Aborted when the job is cancelled, when the process shuts down and the job has to be handed back, or when
   * the worker lost its claim on the job. A handler stops promptly once it fires; whatever it does after that
   * is ignored.
   */
  signal: AbortSignal;
}

export type JobHandler<Payload> = (job: JobContext<Payload>) => Promise<void>;

export interface HandlerOptions {
  /**
   * Jobs of this name this process runs at once: never more than the process's PAGEGRADE_WORKERS, unless the
   * name has slots of its own.
   */
  concurrency?: number;
  /**
   * Jobs of this name run in `concurrency` slots of their own, in addition to the PAGEGRADE_WORKERS shared by
   * the other names, so however long they take they never hold a shared slot (webhook deliveries).
   */
  ownSlots?: boolean;
}

export interface RecurringJob {
  /** Stable id: every process declaring the same schedule shares it, so each period enqueues one job. */
  id: string;
  name: string;
  payload: unknown;
  everyMs: number;
}

export interface JobQueue {
  /** Declares how jobs of `name` run in this process. Call before `start`. */
  register<Payload>(name: string, handler: JobHandler<Payload>, options?: HandlerOptions): void;
  enqueue(name: string, payload: unknown, options?: EnqueueOptions): Promise<EnqueueResult>;
  /**
   * Cancels the waiting or running job of `name` holding `key`: a waiting one never runs, a running one sees its
   * signal abort and is not retried. Resolves false when no such job exists.
   */
  cancel(name: string, key: string): Promise<boolean>;
  /** Enqueues `name` every `everyMs` (created or updated by id), once per period whatever the number of processes. */
  schedule(recurring: RecurringJob): Promise<void>;
  /** Resolves when the queue's store answers; rejects otherwise (for /healthz). */
  ping(): Promise<void>;
  /** Starts taking jobs for the registered names (does nothing when this process runs no workers). */
  start(): Promise<void>;
  /**
   * Stops taking jobs, lets running ones finish for up to `graceMs`, then aborts and hands back the rest so
   * another worker runs them, and releases the connections.
   */
  close(graceMs?: number): Promise<void>;
}

/** Defaults both adapters apply. */
export const jobDefaults = {
  attempts: 3,
  backoff: { delayMs: 1_000, maxDelayMs: 5 * 60_000 } satisfies Backoff,
  graceMs: 10_000,
};

/**
 * Thrown by a handler that cannot go on before `delayMs` from now (a crawl waiting out a Crawl-delay): the job
 * goes back to the queue, due then, with its key, payload and attempts as they were, and its slot is free
 * meanwhile. Its work so far must be saved, since the next run starts from the beginning of the handler.
 */
export class RunLater extends Error {
  override readonly name = "RunLater";
  constructor(readonly delayMs: number) {
    super(`run again in ${delayMs} ms`);
  }
}

/** Why a running job's signal was aborted. */
export type AbortReason = "cancelled" | "shutdown" | "lease-lost";

export class JobAborted extends Error {
  override readonly name = "JobAborted";
  constructor(readonly reason: AbortReason) {
    super(`job aborted: ${reason}`);
  }
}

/**
 * Runs a handler and settles as soon as either it does or its signal aborts: a handler that ignores its signal
 * cannot hold up shutdown or a cancellation.
 */
export async function runUntilAborted(run: () => Promise<void>, signal: AbortSignal): Promise<void> {
  if (signal.aborted) throw signal.reason;
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_resolve, reject) => {
    onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    await Promise.race([run(), aborted]);
  } finally {
    if (onAbort) signal.removeEventListener("abort", onAbort);
  }
}

/** A counting semaphore: how many jobs this process runs at once, across names. */
export class Slots {
  private used = 0;
  private readonly waiters: Array<() => void> = [];

  constructor(readonly size: number) {}

  get free(): number {
    return this.size - this.used;
  }

  tryTake(): boolean {
    if (this.used >= this.size) return false;
    this.used++;
    return true;
  }

  async take(): Promise<void> {
    if (this.tryTake()) return;
    await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  release(): void {
    const next = this.waiters.shift();
    if (next) next();
    else this.used--;
  }
}
