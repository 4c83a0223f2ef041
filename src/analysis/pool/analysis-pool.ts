/**
 * The analysis pool: a few child processes (PAGEGRADE_ANALYSIS_THREADS) that parse and judge large pages, so a
 * big or hostile document never holds the event loop that answers every other request, and never takes the
 * service down with it. A page's session has a process to itself from its parse to its verdict (the parse stays
 * in the process; only the bytes go in and the verdict comes out). Pages wait for a process in a queue that
 * takes turns between owners (users), so one user's large pages do not starve another's.
 *
 * Why processes and not worker threads: a worker thread's heap limit (`resourceLimits`) is best-effort. When
 * one large allocation fails at the limit, V8 aborts the whole process instead of ending the thread (Node.js
 * documents the limit as such; on Node.js 24 a page with 700,000 elements did it in 3 runs of 6). A child
 * process at its heap limit ends alone.
 *
 * Limits: a page's parse and judging together get `timeLimitMs` of the process (PAGEGRADE_ANALYSIS_TIME_LIMIT_MS;
 * waiting for the host probes between them does not count); past it the process is killed and the analysis
 * fails with FetchFailure `too-complex`. A process's heap is capped (`--max-old-space-size`,
 * PAGEGRADE_THREAD_MEMORY_MB); a process that runs out of it (V8 says so on its standard error before it
 * aborts), or stops for any other reason, fails its page the same way. A lost process is replaced when its slot
 * is next used; an idle process ends after `idleMs`, giving its memory back. A process resident in more than
 * `recycleMb` when its page is judged ends when the page is released, and the next page starts a new one: a
 * long crawl's processes do not keep what their largest pages made them grow to.
 */
import { type ChildProcess, fork } from "node:child_process";
import type { CrawlAsk } from "../crawled-page.js";
import { failures } from "../fetch/fetch-failure.js";
import type { CollectedFacts, Judged, ParseInput } from "../page-work.js";
import type { Scoring } from "../scoring-config.js";
import { FairQueue } from "./fair-queue.js";
import type { PageSession } from "./page-session.js";
import {
  type PoolReply,
  type PoolRequest,
  type ProcessArguments,
  processArgumentsVariable,
} from "./pool-protocol.js";

export interface AnalysisPoolOptions {
  /** Processes, at most. */
  processes: number;
  timeLimitMs: number;
  memoryLimitMb: number;
  scoring: Scoring;
  /** An idle process ends after this long; the next large page starts a new one. */
  idleMs?: number;
  /** A process resident in more than this (MB) after a page is replaced by a new one; 0 or unset: never. */
  recycleMb?: number;
  /**
   * V8's semi-space (MB) in each process; unset: Node.js's own (16 MB on Node.js 20 and 22). Smaller saves memory
   * at a CPU cost that `npm run bench:analysis-memory` measures: at 8 MB, 15–20 MB less a process for 11–22 % more
   * CPU a page, which took a 100,000-page crawl under its rate (README, "The 100,000-page run on this code").
   */
  semiSpaceMb?: number;
}

const entry = new URL("./analysis-process-entry.mjs", import.meta.url);
/** Starting a process (loading the parser and the checks) is not the page's time. */
const startTimeoutMs = 60_000;
/** How much of a process's standard error is kept, to tell why it ended. */
const stderrTailBytes = 4096;
/** What V8 writes before it aborts a process that reached its heap limit. */
const outOfMemory = /JavaScript heap out of memory/;

interface Pending {
  resolve: (reply: PoolReply) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

/** One process's place in the pool: its child (null until started, and after it is lost) and its request. */
interface Slot {
  child: ChildProcess | null;
  ready: Promise<void> | null;
  pending: Pending | null;
  idleTimer: NodeJS.Timeout | null;
  /** The process grew past `recycleMb`: it ends when its page is released. */
  recycle: boolean;
}

type Waiter = (slot: Slot) => void;

export class AnalysisPool {
  private readonly free: Slot[];
  private readonly waiting = new FairQueue<Waiter>();
  private readonly ended = new Set<Promise<void>>();
  private closed = false;

  private readonly slots: Slot[];

  constructor(private readonly options: AnalysisPoolOptions) {
    this.slots = Array.from({ length: options.processes }, () => ({
      child: null,
      ready: null,
      pending: null,
      idleTimer: null,
      recycle: false,
    }));
    this.free = [...this.slots];
  }

  /** Pages waiting for a process. */
  get queued(): number {
    return this.waiting.size;
  }

  /** Waits for a free process (taking turns with other owners), then opens a page's session on it. */
  async session(owner: string): Promise<PageSession> {
    if (this.closed) throw new Error("The analysis pool is closed.");
    const slot = this.free.pop() ?? (await new Promise<Slot>((resolve) => this.waiting.push(owner, resolve)));
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.idleTimer = null;
    return new ProcessSession(this, slot, this.options.timeLimitMs);
  }

  /** Processes running now (started and not lost or ended). */
  get processesRunning(): number {
    return this.slots.filter((slot) => slot.child !== null).length;
  }

  /** The process ids of the processes running now. */
  get processIds(): number[] {
    return this.slots.flatMap((slot) => (slot.child?.pid === undefined ? [] : [slot.child.pid]));
  }

  /**
   * Ends the processes that have no page now, as their idle timer would: before work that needs memory of its
   * own (a crawl's judgement), so that the two do not add up. The next large page starts a process again.
   */
  endIdle(): void {
    for (const slot of this.free) this.end(slot);
  }

  /** Ends every process and waits until each has exited. */
  async close(): Promise<void> {
    this.closed = true;
    for (const slot of this.slots) this.end(slot);
    await Promise.all(this.ended);
  }

  /**
   * Sends a request to the slot's process (starting it first if need be); `budgetMs` bounds the process's time
   * on it, which comes back with the reply.
   */
  async request(
    slot: Slot,
    message: PoolRequest,
    budgetMs: number,
  ): Promise<{ reply: PoolReply; spentMs: number }> {
    const child = slot.child ?? this.start(slot);
    await slot.ready;
    if (slot.child !== child) throw failures.tooComplex("crash");
    const sent = performance.now();
    const reply = await new Promise<PoolReply>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.lose(slot, child, failures.tooComplex("time", this.options.timeLimitMs));
        child.kill("SIGKILL");
      }, budgetMs);
      slot.pending = { resolve, reject, timer };
      this.hold(child, true);
      // A message the channel cannot take fails the request when the process's end is seen.
      child.send(message, () => {});
    });
    return { reply, spentMs: performance.now() - sent };
  }

  /** Tells the slot's process to drop its page (no answer), and gives the slot to the next page. */
  release(slot: Slot): void {
    if (slot.recycle) {
      slot.recycle = false;
      this.end(slot);
    } else {
      slot.child?.send({ kind: "release" } satisfies PoolRequest, () => {});
    }
    const next = this.waiting.shift();
    if (next) {
      next(slot);
      return;
    }
    this.free.push(slot);
    const child = slot.child;
    if (!child) return;
    this.hold(child, false);
    slot.idleTimer = setTimeout(() => this.end(slot), this.options.idleMs ?? 60_000);
    slot.idleTimer.unref();
  }

  private start(slot: Slot): ChildProcess {
    const { NODE_OPTIONS: _flags, ...inherited } = process.env;
    const env = {
      ...inherited,
      // glibc's arenas capped as `npm start` and `pagegrade worker` cap theirs, whoever started the pool.
      MALLOC_ARENA_MAX: inherited.MALLOC_ARENA_MAX ?? "2",
      [processArgumentsVariable]: JSON.stringify({
        scoring: this.options.scoring,
      } satisfies ProcessArguments),
    };
    const child = fork(entry, [], {
      // Only the heap limit (and a young generation if one is given): the service's own flags (its loader, its heap sizes) are not
      // the process's, and NODE_OPTIONS could raise the limit.
      execArgv: [
        `--max-old-space-size=${this.options.memoryLimitMb}`,
        ...(this.options.semiSpaceMb === undefined
          ? []
          : [`--max-semi-space-size=${this.options.semiSpaceMb}`]),
      ],
      env,
      serialization: "advanced",
      stdio: ["ignore", "ignore", "pipe", "ipc"],
    });
    slot.child = child;
    let stderrTail = "";
    child.stderr?.setEncoding("utf8");
    child.stderr?.on("data", (text: string) => {
      stderrTail = (stderrTail + text).slice(-stderrTailBytes);
    });
    slot.ready = new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.lose(slot, child, failures.tooComplex("crash"));
        child.kill("SIGKILL");
        resolve();
      }, startTimeoutMs);
      const onReady = (reply: PoolReply) => {
        if (reply.kind !== "ready") return;
        clearTimeout(timer);
        child.off("message", onReady);
        resolve();
      };
      child.on("message", onReady);
      child.once("close", () => {
        clearTimeout(timer);
        resolve();
      });
    });
    child.on("message", (reply: PoolReply) => {
      if (reply.kind === "ready" || slot.child !== child) return;
      const pending = slot.pending;
      if (!pending) return;
      slot.pending = null;
      clearTimeout(pending.timer);
      this.hold(child, false);
      const recycleMb = this.options.recycleMb ?? 0;
      if (reply.kind === "judged" && recycleMb > 0 && reply.rssMb > recycleMb) slot.recycle = true;
      pending.resolve(reply);
    });
    // 'close' comes after the process has exited and its standard error has been read to the end.
    const closed = new Promise<void>((resolve) => {
      child.once("close", () => {
        this.lose(slot, child, failures.tooComplex(outOfMemory.test(stderrTail) ? "memory" : "crash"));
        resolve();
      });
    });
    this.ended.add(closed);
    void closed.then(() => this.ended.delete(closed));
    child.on("error", () => {
      // The process could not be started, or a signal could not be sent: it is lost either way.
      this.lose(slot, child, failures.tooComplex("crash"));
      child.kill("SIGKILL");
    });
    return child;
  }

  /** Whether the process (its handle, its channel and its standard error) keeps this one alive. */
  private hold(child: ChildProcess, held: boolean): void {
    // The standard error pipe is a socket (it has ref and unref), typed only as a readable stream.
    const stderr = child.stderr as (NodeJS.ReadableStream & { ref(): void; unref(): void }) | null;
    for (const handle of [child, child.channel, stderr]) {
      if (!handle) continue;
      if (held) handle.ref();
      else handle.unref();
    }
  }

  /** The slot's process is gone (or going): its request fails with `failure`, and the slot has no process. */
  private lose(slot: Slot, child: ChildProcess, failure: Error): void {
    if (slot.child !== child) return;
    slot.child = null;
    slot.ready = null;
    slot.recycle = false; // the mark was this process's: the slot's next one starts unmarked
    const pending = slot.pending;
    slot.pending = null;
    if (pending) {
      clearTimeout(pending.timer);
      pending.reject(failure);
    }
  }

  /**
   * Ends the slot's process. It is held (referenced) until it has gone, so that `close` settles: an idle
   * process's handles are unreferenced, and a caller whose only pending work is an unreferenced child's exit
   * would end with `close` never settled.
   */
  private end(slot: Slot): void {
    const child = slot.child;
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.idleTimer = null;
    if (!child) return;
    this.lose(slot, child, new Error("The analysis pool is closed."));
    this.hold(child, true);
    child.kill("SIGKILL");
  }
}

/** A page's session on one of the pool's processes; its time budget is shared by its parse and its judging. */
class ProcessSession implements PageSession {
  private released = false;

  constructor(
    private readonly pool: AnalysisPool,
    private readonly slot: Slot,
    private budgetMs: number,
  ) {}

  async parse(input: ParseInput): Promise<{ declaresIcon: boolean; parseMs: number }> {
    // Only the body's own bytes are written to the channel (Node.js serialises a view, not the memory behind it).
    const reply = await this.timed({ kind: "parse", input });
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

  private async timed(message: PoolRequest): Promise<PoolReply> {
    if (this.released) throw new Error("The page's session has ended.");
    const { reply, spentMs } = await this.pool.request(this.slot, message, Math.max(1, this.budgetMs));
    this.budgetMs -= spentMs;
    return reply;
  }

  private unexpected(reply: PoolReply): Error {
    return new Error(reply.kind === "failed" ? reply.message : `Unexpected reply ${reply.kind}.`);
  }
}
