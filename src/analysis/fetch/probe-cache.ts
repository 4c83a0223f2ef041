/**
 * A small time-limited cache of host probe results (robots.txt and the like), so analysing many pages of one
 * site fetches each of them once every few minutes. It stores the promise, so concurrent analyses of the
 * same host share one request. Failures are kept only briefly (our own access problem should not stick to a
 * host for minutes), and the bytes the entries hold are bounded: the oldest go first.
 */

interface Entry {
  expires: number;
  bytes: number;
  value: Promise<unknown>;
}

export interface ProbeCacheOptions {
  ttlMs: number;
  /** How long a result that `isFailure` says is a failure is kept. */
  failureTtlMs?: number;
  maxBytes?: number;
}

export class ProbeCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;
  private readonly ttlMs: number;
  private readonly failureTtlMs: number;
  private readonly maxBytes: number;

  constructor(options: ProbeCacheOptions) {
    this.ttlMs = options.ttlMs;
    this.failureTtlMs = Math.min(options.failureTtlMs ?? 30_000, options.ttlMs);
    this.maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
  }

  /** The cached value for the key, or the loader's; `describe` says how large a value is and if it failed. */
  get<T>(
    key: string,
    load: () => Promise<T>,
    describe: (value: T) => { bytes: number; failed: boolean },
  ): Promise<T> {
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && hit.expires > now) return hit.value as Promise<T>;
    if (hit) this.remove(key, hit);
    const value = load();
    if (this.ttlMs <= 0) return value;
    const entry: Entry = { expires: now + this.ttlMs, bytes: 0, value };
    this.entries.set(key, entry);
    void value.then((result) => {
      if (this.entries.get(key) !== entry) return;
      const { bytes, failed } = describe(result);
      if (failed) entry.expires = Math.min(entry.expires, Date.now() + this.failureTtlMs);
      entry.bytes = bytes;
      this.bytes += bytes;
      this.evictOverBudget();
    });
    return value;
  }

  /** Bytes currently held by resolved entries. */
  get heldBytes(): number {
    return this.bytes;
  }

  private evictOverBudget(): void {
    for (const [key, entry] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.remove(key, entry);
    }
  }

  private remove(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.bytes -= entry.bytes;
  }
}
