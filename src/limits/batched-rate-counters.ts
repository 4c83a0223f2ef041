/**
 * Rate-limit counters for a high-volume limit (every API request): hits are counted in the process and added to
 * the shared counters (database or Redis) in one write per bucket every `flushMs`, instead of one write per
 * request, which on SQLite was the largest single cost of serving a stored report.
 *
 * Exactness: the first hit of a bucket's window in this process goes straight to the shared counters, so the
 * process starts from everyone's count; after that it reports the last shared count it read plus its own hits
 * since, which with one process is exact. With several, each would see the others' hits up to `flushMs` late, so
 * once a window's count reaches `exactFrom` (half the limit) every hit is written and read back at once: a
 * client near its limit is counted exactly across instances, and batching only ever applies far below it.
 * Limits that guard secrets (log-ins, report passwords) and the analysis limit do not use this at all.
 */
import type { RateCounters } from "./rate-counters.js";

interface WindowCount {
  bucket: string;
  windowStart: number;
  windowSeconds: number;
  /** The shared count as last read (it includes every hit of ours added so far). */
  shared: number;
  /** Our hits being added right now. */
  adding: number;
  /** Our hits not yet added. */
  pending: number;
  /** Set while the first hit reads the shared count; later hits of the window wait for it. */
  ready: Promise<void> | null;
}

export class BatchedRateCounters implements RateCounters {
  private readonly windows = new Map<string, WindowCount>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;

  constructor(
    private readonly shared: RateCounters,
    /** From this count on, hits of a window are counted at once (half the limit is a good choice). */
    private readonly exactFrom: number,
    private readonly flushMs = 100,
  ) {}

  async increment(bucket: string, windowStart: number, windowSeconds: number, by = 1): Promise<number> {
    const id = `${bucket}\u0000${windowStart}`;
    const window = this.windows.get(id);
    if (!window) {
      const created: WindowCount = {
        bucket,
        windowStart,
        windowSeconds,
        shared: 0,
        adding: by,
        pending: 0,
        ready: null,
      };
      created.ready = this.shared
        .increment(bucket, windowStart, windowSeconds, by)
        .then((count) => {
          created.shared = count;
          created.adding -= by;
        })
        .finally(() => {
          created.ready = null;
        });
      this.windows.set(id, created);
      try {
        await created.ready;
      } catch (error) {
        this.windows.delete(id);
        throw error;
      }
      return created.shared + created.adding + created.pending;
    }
    window.pending += by;
    if (window.ready) await window.ready.catch(() => {});
    if (window.shared + window.adding + window.pending < this.exactFrom) {
      this.scheduleFlush();
      return window.shared + window.adding + window.pending;
    }
    // Near the limit: add this hit (and any still pending) now and answer with the shared count.
    const hits = window.pending;
    window.pending = 0;
    window.adding += hits;
    try {
      // Counts only grow within a window; answers to concurrent writes may arrive in either order.
      const count = await this.shared.increment(bucket, windowStart, windowSeconds, hits);
      window.shared = Math.max(window.shared, count);
    } finally {
      window.adding -= hits;
    }
    return window.shared + window.adding + window.pending;
  }

  /** The shared count plus this process's hits not yet added. */
  async count(bucket: string, windowStart: number): Promise<number> {
    const window = this.windows.get(`${bucket}\u0000${windowStart}`);
    const shared = await this.shared.count(bucket, windowStart);
    return window ? shared + window.adding + window.pending : shared;
  }

  sweep(prefix: string, before: number): Promise<void> {
    return this.shared.sweep(prefix, before);
  }

  ping(): Promise<void> {
    return this.shared.ping();
  }

  /** Adds every pending hit; the shared counters belong to the caller, who closes them. */
  async close(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.flush();
  }

  /** Adds the pending hits of every window, one write each, and forgets windows that have ended. */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing;
    this.flushing = this.addPending().finally(() => {
      this.flushing = null;
    });
    await this.flushing;
  }

  private async addPending(): Promise<void> {
    const nowSeconds = Date.now() / 1000;
    const writes: Promise<void>[] = [];
    for (const [id, window] of this.windows) {
      if (window.pending > 0 && !window.ready) {
        const hits = window.pending;
        window.pending = 0;
        window.adding += hits;
        writes.push(
          this.shared.increment(window.bucket, window.windowStart, window.windowSeconds, hits).then(
            (count) => {
              window.shared = Math.max(window.shared, count);
              window.adding -= hits;
            },
            () => {
              // Not lost: counted again at the next flush.
              window.adding -= hits;
              window.pending += hits;
            },
          ),
        );
      } else if (
        window.pending === 0 &&
        window.adding === 0 &&
        window.windowStart + window.windowSeconds < nowSeconds
      ) {
        this.windows.delete(id);
      }
    }
    await Promise.all(writes);
    if ([...this.windows.values()].some((window) => window.pending > 0)) this.scheduleFlush();
  }

  private scheduleFlush(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, this.flushMs);
    this.timer.unref();
  }
}
