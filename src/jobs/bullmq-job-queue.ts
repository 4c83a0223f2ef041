/**
 * The distributed job queue: BullMQ on Redis (PAGEGRADE_QUEUE_URL), so API processes and `pagegrade worker`
 * processes on any machines share the work. One BullMQ queue per job name, its keys under
 * `<PAGEGRADE_REDIS_KEY_PREFIX>queue:<name>:…`. Everything is BullMQ's own: deduplication ids for keys, delayed
 * jobs, attempts with a custom backoff strategy (ours, for the jitter), job schedulers for recurring jobs, locks
 * and the stalled-job check to take over a dead worker's jobs, `Worker.cancelJob` for the abort signal, and
 * `moveToWait` to hand a job back at shutdown. The one addition is a Redis channel that carries a cancellation to
 * the process running the job, since a Worker can only abort its own. Users take turns through BullMQ's job
 * priorities, given at enqueue (fair-priorities.ts); a job that throws `RunLater` is moved to BullMQ's delayed
 * set (`moveToDelayed` and `DelayedError`, BullMQ's own way) without using an attempt.
 */
import { randomUUID } from "node:crypto";
import { DelayedError, type Job, Queue, UnrecoverableError, WaitingError, Worker } from "bullmq";
import { Redis } from "ioredis";
import { retryDelayMs } from "./backoff.js";
import { FairPriorities } from "./fair-priorities.js";
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

export interface BullMqJobQueueOptions {
  url: string;
  /** PAGEGRADE_REDIS_KEY_PREFIX ("pagegrade:"); the queue's keys start with `<prefix>queue:`. */
  keyPrefix: string;
  /** Jobs this process runs at once; 0: it only enqueues. */
  workers: number;
  /** BullMQ's lock duration: a job whose worker stopped renewing its lock this long is taken over. */
  leaseMs?: number;
  onError?: (error: unknown, context: { job?: string }) => void;
}

interface JobData {
  payload: unknown;
  backoff: { delayMs: number; maxDelayMs: number };
  /** The user the job works for (absent: the service's own). */
  userId?: number;
  /** Runs that ended in `RunLater`: BullMQ counts them as started, the handler's attempt does not. */
  deferrals?: number;
}

interface Registered {
  handler: JobHandler<unknown>;
  concurrency: number;
  /** The shared slots, or the name's own. */
  slots: Slots;
}

export class BullMqJobQueue implements JobQueue {
  private readonly queues = new Map<string, Queue<JobData>>();
  private readonly handlers = new Map<string, Registered>();
  private readonly workers: Worker<JobData>[] = [];
  private readonly slots: Slots;
  private readonly prefix: string;
  private readonly cancelChannel: string;
  /** Why this process aborted a running job, by job id (BullMQ's cancelJob carries only a string). */
  private readonly abortReasons = new Map<string, AbortReason>();
  /** Jobs running in this process, by id. */
  private readonly active = new Set<string>();
  private publisher: Redis | null = null;
  private subscriber: Redis | null = null;
  private health: Redis | null = null;
  private started = false;
  private readonly fair: FairPriorities;

  constructor(private readonly options: BullMqJobQueueOptions) {
    this.slots = new Slots(options.workers);
    this.prefix = `${options.keyPrefix}queue`;
    this.cancelChannel = `${this.prefix}:cancel`;
    this.fair = new FairPriorities(() => this.commands(), this.prefix);
  }

  /** The client for this adapter's own commands (cancellations, fair priorities). */
  private commands(): Redis {
    this.publisher ??= new Redis(this.options.url, { lazyConnect: false });
    return this.publisher;
  }

  /**
   * Checks Redis answers, failing fast with the reason: BullMQ's own clients retry forever, which would leave a
   * wrong PAGEGRADE_QUEUE_URL hanging the start-up instead of stopping it.
   */
  async connect(): Promise<void> {
    const probe = new Redis(this.options.url, {
      lazyConnect: true,
      connectTimeout: 2000,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    let lastError: Error | null = null;
    probe.on("error", (error: Error) => {
      lastError = error;
    });
    try {
      await probe.connect();
      await probe.ping();
    } catch (error) {
      throw new Error(
        `cannot reach Redis at PAGEGRADE_QUEUE_URL: ${(lastError ?? (error as Error)).message}`,
      );
    } finally {
      probe.disconnect();
    }
  }

  /** Pings Redis on a client of its own that fails at once while Redis is down (BullMQ's clients wait). */
  async ping(): Promise<void> {
    if (!this.health) {
      this.health = new Redis(this.options.url, {
        lazyConnect: true,
        connectTimeout: 2000,
        maxRetriesPerRequest: 0,
        enableOfflineQueue: false,
      });
      this.health.on("error", () => undefined); // a failed ping says so; the client reconnects by itself
    }
    if (this.health.status === "wait") await this.health.connect();
    await this.health.ping();
  }

  private connection() {
    // BullMQ needs maxRetriesPerRequest: null for its blocking commands; it makes its own clients from this.
    return { url: this.options.url, maxRetriesPerRequest: null };
  }

  private queue(name: string): Queue<JobData> {
    let queue = this.queues.get(name);
    if (!queue) {
      queue = new Queue<JobData>(name, { connection: this.connection(), prefix: this.prefix });
      queue.on("error", (error) => this.options.onError?.(error, { job: name }));
      this.queues.set(name, queue);
    }
    return queue;
  }

  register<Payload>(name: string, handler: JobHandler<Payload>, options: HandlerOptions = {}): void {
    if (this.started) throw new Error(`register "${name}" before the queue starts`);
    const concurrency = options.ownSlots
      ? Math.max(1, options.concurrency ?? 1)
      : Math.max(1, Math.min(options.concurrency ?? this.options.workers, this.options.workers));
    const slots = options.ownSlots ? new Slots(concurrency) : this.slots;
    this.handlers.set(name, { handler: handler as JobHandler<unknown>, concurrency, slots });
  }

  async enqueue(name: string, payload: unknown, options: EnqueueOptions = {}): Promise<EnqueueResult> {
    const id = randomUUID();
    const backoff = options.backoff ?? jobDefaults.backoff;
    const priority = await this.fair.next(name, options.userId);
    const job = await this.queue(name).add(
      name,
      {
        payload: payload ?? null,
        backoff: {
          delayMs: backoff.delayMs,
          maxDelayMs: backoff.maxDelayMs ?? jobDefaults.backoff.maxDelayMs,
        },
        ...(options.userId !== undefined ? { userId: options.userId } : {}),
      },
      {
        jobId: id,
        priority,
        // Without a ttl the key holds until the job completes or fails: exactly "while waiting or running".
        ...(options.key ? { deduplication: { id: options.key } } : {}),
        ...(options.delayMs ? { delay: options.delayMs } : {}),
        attempts: Math.max(1, options.attempts ?? jobDefaults.attempts),
        backoff: { type: "jittered" },
        removeOnComplete: { age: 24 * 3600, count: 1000 },
        removeOnFail: { age: 7 * 24 * 3600 },
      },
    );
    // A deduplicated add answers with the job that holds the key.
    if (job.id === id) await this.fair.added(name, options.userId, id);
    return { id: job.id ?? id, enqueued: job.id === id };
  }

  async cancel(name: string, key: string): Promise<boolean> {
    const queue = this.queue(name);
    const id = await queue.getDeduplicationJobId(key);
    if (!id) return false;
    const job = await queue.getJob(id);
    if (!job) return false;
    const state = await job.getState();
    if (state === "active") {
      await this.publish(id);
      return true;
    }
    if (state !== "waiting" && state !== "delayed" && state !== "prioritized") return false;
    try {
      await job.remove();
      await this.fair.ended(name, job.data.userId, id);
    } catch {
      // It became active between the look and the removal (it is locked): stop it where it runs.
      await this.publish(id);
    }
    // Frees the key for new jobs, unless a new job already holds it.
    if ((await queue.getDeduplicationJobId(key)) === id) await queue.removeDeduplicationKey(key);
    return true;
  }

  private async publish(jobId: string): Promise<void> {
    await this.commands().publish(this.cancelChannel, jobId);
  }

  async schedule(recurring: RecurringJob): Promise<void> {
    await this.queue(recurring.name).upsertJobScheduler(
      recurring.id,
      { every: recurring.everyMs },
      {
        name: recurring.name,
        data: { payload: recurring.payload ?? null, backoff: { ...jobDefaults.backoff } },
        opts: {
          attempts: jobDefaults.attempts,
          backoff: { type: "jittered" },
          removeOnComplete: { age: 24 * 3600, count: 100 },
          removeOnFail: { age: 7 * 24 * 3600 },
        },
      },
    );
  }

  async start(): Promise<void> {
    if (this.started || this.options.workers === 0) return;
    this.started = true;
    const leaseMs = this.options.leaseMs ?? 30_000;
    for (const [name, registered] of this.handlers) {
      const worker = new Worker<JobData>(
        name,
        (job, token, signal) => this.process(job, token, registered, signal),
        {
          connection: this.connection(),
          prefix: this.prefix,
          concurrency: registered.concurrency,
          lockDuration: leaseMs,
          stalledInterval: Math.max(100, Math.floor(leaseMs / 2)),
          // A job taken over from a dead worker this many times fails instead of looping.
          maxStalledCount: jobDefaults.attempts,
          settings: {
            backoffStrategy: (attemptsMade, _type, _error, job) =>
              retryDelayMs(attemptsMade, (job?.data as JobData | undefined)?.backoff),
          },
        },
      );
      worker.on("error", (error) => this.options.onError?.(error, { job: name }));
      this.workers.push(worker);
    }
    await Promise.all(this.workers.map((worker) => worker.waitUntilReady()));
    this.subscriber = new Redis(this.options.url);
    this.subscriber.on("message", (_channel, jobId: string) => this.abortHere(jobId, "cancelled"));
    this.subscriber.on("error", (error) => this.options.onError?.(error, {}));
    await this.subscriber.subscribe(this.cancelChannel);
  }

  private abortHere(jobId: string, reason: AbortReason): void {
    if (!this.active.has(jobId)) return;
    // Recorded first: cancelJob aborts the signal synchronously, and process() reads the reason right then.
    this.abortReasons.set(jobId, reason);
    for (const worker of this.workers) worker.cancelJob(jobId, reason);
  }

  private async process(
    job: Job<JobData>,
    token: string | undefined,
    registered: Registered,
    signal?: AbortSignal,
  ): Promise<void> {
    const id = job.id ?? "";
    this.active.add(id);
    const controller = new AbortController();
    const relay = () => {
      controller.abort(new JobAborted(this.abortReasons.get(id) ?? "lease-lost"));
    };
    signal?.addEventListener("abort", relay, { once: true });
    await registered.slots.take();
    try {
      await runUntilAborted(
        () =>
          registered.handler({
            id,
            name: job.name,
            payload: job.data.payload,
            attempt: job.attemptsStarted - (job.data.deferrals ?? 0),
            signal: controller.signal,
          }),
        controller.signal,
      );
      await this.leaveTurn(job);
    } catch (error) {
      const reason = controller.signal.aborted ? (controller.signal.reason as JobAborted).reason : null;
      if (error instanceof RunLater && reason === null) {
        // Back to BullMQ's delayed set, its attempts as they were; the slot is free meanwhile.
        await job.updateData({ ...job.data, deferrals: (job.data.deferrals ?? 0) + 1 });
        await job.moveToDelayed(Date.now() + Math.max(0, error.delayMs), token);
        throw new DelayedError();
      }
      if (reason === "shutdown") {
        // Back to the waiting list without using an attempt; another worker picks it up.
        await job.moveToWait(token);
        throw new WaitingError();
      }
      if (reason === "cancelled" || job.attemptsMade + 1 >= (job.opts.attempts ?? 1))
        await this.leaveTurn(job);
      if (reason === "cancelled") throw new UnrecoverableError("cancelled");
      if (reason === null) this.options.onError?.(error, { job: job.name });
      throw error;
    } finally {
      signal?.removeEventListener("abort", relay);
      this.abortReasons.delete(id);
      this.active.delete(id);
      registered.slots.release();
    }
  }

  /** The job has ended: it no longer counts in its user's turn (a failure to say so only costs them a turn). */
  private async leaveTurn(job: Job<JobData>): Promise<void> {
    await this.fair
      .ended(job.name, job.data.userId, job.id ?? "")
      .catch((error: unknown) => this.options.onError?.(error, { job: job.name }));
  }

  async close(graceMs = jobDefaults.graceMs): Promise<void> {
    await this.subscriber?.quit().catch(() => undefined);
    // Worker.close stops taking jobs and waits for the active ones; past the grace period they are aborted
    // and handed back (process → moveToWait), which lets close finish.
    const closing = Promise.all(this.workers.map((worker) => worker.close()));
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<"late">((resolve) => {
      timer = setTimeout(() => resolve("late"), graceMs);
    });
    if ((await Promise.race([closing, deadline])) === "late") {
      for (const jobId of this.active) this.abortHere(jobId, "shutdown");
    }
    await closing;
    clearTimeout(timer);
    await Promise.all([...this.queues.values()].map((queue) => queue.close()));
    await this.publisher?.quit().catch(() => undefined);
    this.health?.disconnect();
  }
}
