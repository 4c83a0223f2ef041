/**
 * The analysis pool: a few worker threads (PAGEGRADE_ANALYSIS_THREADS) that parse and judge large pages, so a
 * big or hostile document never holds the event loop that answers every other request. A page's session has
 * a thread to itself from its parse to its verdict (the parse stays in the thread; only the bytes go in and
 * the verdict comes out). Pages wait for a thread in a queue that takes turns between owners (users), so one
 * user's large pages do not starve another's.
 *
 * Limits: a page's parse and judging together get `timeLimitMs` of the thread (PAGEGRADE_ANALYSIS_TIME_LIMIT_MS;
 * waiting for the host probes between them does not count); past it the thread is terminated and the analysis
 * fails with FetchFailure `too-complex`. A thread's heap is capped (`resourceLimits`,
 * PAGEGRADE_THREAD_MEMORY_MB); a thread that runs out of it, or stops for any other reason, fails its
 * page the same way. A lost thread is replaced when its slot is next used; an idle thread ends after
 * `idleMs`, giving its memory back.
 */
import { Worker } from "node:worker_threads";
import type { CrawlAsk } from "../crawled-page.js";
import { movable } from "../fetch/body-buffer.js";
import { failures } from "../fetch/fetch-failure.js";
import type { CollectedFacts, Judged, ParseInput } from "../page-work.js";
import type { Scoring } from "../scoring-config.js";
import { FairQueue } from "./fair-queue.js";
import type { PageSession } from "./page-session.js";
import type { ThreadData, ThreadReply, ThreadRequest } from "./thread-protocol.js";

export interface AnalysisPoolOptions {
  threads: number;
  timeLimitMs: number;
  memoryLimitMb: number;
  scoring: Scoring;
  /** An idle thread ends after this long; the next large page starts a new one. */
  idleMs?: number;
}

const entry = new URL("./analysis-thread-entry.mjs", import.meta.url);
/** Starting a thread (loading the parser and the checks) is not the page's time. */
const startTimeoutMs = 60_000;

interface Pending {
  resolve: (reply: ThreadReply) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

/** One thread's place in the pool: its worker (null until started, and after it is lost) and its request. */
interface Slot {
  worker: Worker | null;
  ready: Promise<void> | null;
  pending: Pending | null;
  idleTimer: NodeJS.Timeout | null;
}

type Waiter = (slot: Slot) => void;

export class AnalysisPool {
  private readonly free: Slot[];
  private readonly waiting = new FairQueue<Waiter>();
  private closed = false;

  private readonly slots: Slot[];

  constructor(private readonly options: AnalysisPoolOptions) {
    this.slots = Array.from({ length: options.threads }, () => ({
      worker: null,
      ready: null,
      pending: null,
      idleTimer: null,
    }));
    this.free = [...this.slots];
  }

  /** Pages waiting for a thread. */
  get queued(): number {
    return this.waiting.size;
  }

  /** Waits for a free thread (taking turns with other owners), then opens a page's session on it. */
  async session(owner: string): Promise<PageSession> {
    if (this.closed) throw new Error("The analysis pool is closed.");
    const slot = this.free.pop() ?? (await new Promise<Slot>((resolve) => this.waiting.push(owner, resolve)));
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.idleTimer = null;
    return new ThreadSession(this, slot, this.options.timeLimitMs);
  }

  /** Threads running now (started and not lost or ended). */
  get threadsRunning(): number {
    return this.slots.filter((slot) => slot.worker !== null).length;
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.slots.map((slot) => this.end(slot)));
  }

  /**
   * Sends a request to the slot's thread (starting it first if need be); `budgetMs` bounds the thread's time
   * on it, which comes back with the reply.
   */
  async request(
    slot: Slot,
    message: ThreadRequest,
    budgetMs: number,
    transfer: ArrayBuffer[] = [],
  ): Promise<{ reply: ThreadReply; spentMs: number }> {
    const worker = slot.worker ?? this.start(slot);
    await slot.ready;
    if (slot.worker !== worker) throw failures.tooComplex("crash");
    const sent = performance.now();
    const reply = await new Promise<ThreadReply>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.lose(slot, worker, failures.tooComplex("time", this.options.timeLimitMs));
        void worker.terminate();
      }, budgetMs);
      slot.pending = { resolve, reject, timer };
      worker.ref();
      worker.postMessage(message, transfer);
    });
    return { reply, spentMs: performance.now() - sent };
  }

  /** Tells the slot's thread to drop its page (no answer), and gives the slot to the next page. */
  release(slot: Slot): void {
    slot.worker?.postMessage({ kind: "release" } satisfies ThreadRequest);
    const next = this.waiting.shift();
    if (next) {
      next(slot);
      return;
    }
    this.free.push(slot);
    const worker = slot.worker;
    if (!worker) return;
    worker.unref();
    slot.idleTimer = setTimeout(() => void this.end(slot), this.options.idleMs ?? 60_000);
    slot.idleTimer.unref();
  }

  private start(slot: Slot): Worker {
    const worker = new Worker(entry, {
      workerData: { scoring: this.options.scoring } satisfies ThreadData,
      resourceLimits: { maxOldGenerationSizeMb: this.options.memoryLimitMb },
      // The thread loads tsx itself (see its entry); the process's flags (--import tsx, heap sizes) are not its.
      execArgv: [],
    });
    slot.worker = worker;
    slot.ready = new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.lose(slot, worker, failures.tooComplex("crash"));
        void worker.terminate();
        resolve();
      }, startTimeoutMs);
      const onReady = (reply: ThreadReply) => {
        if (reply.kind !== "ready") return;
        clearTimeout(timer);
        worker.off("message", onReady);
        resolve();
      };
      worker.on("message", onReady);
      worker.once("exit", () => {
        clearTimeout(timer);
        resolve();
      });
    });
    worker.on("message", (reply: ThreadReply) => {
      if (reply.kind === "ready" || slot.worker !== worker) return;
      const pending = slot.pending;
      if (!pending) return;
      slot.pending = null;
      clearTimeout(pending.timer);
      worker.unref();
      pending.resolve(reply);
    });
    worker.on("error", (error: Error & { code?: string }) => {
      const limit = error.code === "ERR_WORKER_OUT_OF_MEMORY" ? "memory" : "crash";
      this.lose(slot, worker, failures.tooComplex(limit));
    });
    worker.on("exit", () => this.lose(slot, worker, failures.tooComplex("crash")));
    return worker;
  }

  /** The slot's thread is gone (or going): its request fails with `failure`, and the slot has no thread. */
  private lose(slot: Slot, worker: Worker, failure: Error): void {
    if (slot.worker !== worker) return;
    slot.worker = null;
    slot.ready = null;
    const pending = slot.pending;
    slot.pending = null;
    if (pending) {
      clearTimeout(pending.timer);
      pending.reject(failure);
    }
  }

  private async end(slot: Slot): Promise<void> {
    const worker = slot.worker;
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.idleTimer = null;
    if (!worker) return;
    this.lose(slot, worker, new Error("The analysis pool is closed."));
    await worker.terminate();
  }
}

/** A page's session on one of the pool's threads; its time budget is shared by its parse and its judging. */
class ThreadSession implements PageSession {
  private released = false;

  constructor(
    private readonly pool: AnalysisPool,
    private readonly slot: Slot,
    private budgetMs: number,
  ) {}

  async parse(input: ParseInput): Promise<{ declaresIcon: boolean; parseMs: number }> {
    // The page's bytes are moved to the thread, not copied (copying 5 MiB held the event loop for tens of
    // milliseconds): the fetched body as it is when nothing else views its memory, or else a copy of it.
    const body = movable(input.body) ? input.body : new Uint8Array(input.body);
    const reply = await this.timed({ kind: "parse", input: { ...input, body } }, [
      body.buffer as ArrayBuffer,
    ]);
    if (reply.kind !== "parsed") throw this.unexpected(reply);
    return { declaresIcon: reply.declaresIcon, parseMs: reply.parseMs };
  }

  async judge(facts: CollectedFacts, crawl: CrawlAsk | null): Promise<Judged> {
    const reply = await this.timed({ kind: "judge", facts, crawl });
    if (reply.kind !== "judged") throw this.unexpected(reply);
    return reply.judged;
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    this.pool.release(this.slot);
  }

  private async timed(message: ThreadRequest, transfer: ArrayBuffer[] = []): Promise<ThreadReply> {
    if (this.released) throw new Error("The page's session has ended.");
    const { reply, spentMs } = await this.pool.request(
      this.slot,
      message,
      Math.max(1, this.budgetMs),
      transfer,
    );
    this.budgetMs -= spentMs;
    return reply;
  }

  private unexpected(reply: ThreadReply): Error {
    return new Error(reply.kind === "failed" ? reply.message : `Unexpected reply ${reply.kind}.`);
  }
}
