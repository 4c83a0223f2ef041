/**
 * Rate-limit counters in Redis (`REDIS_URL`): one key per bucket and window, `<keyPrefix><bucket>:<start>`,
 * incremented and given an expiry of two windows in one transaction, so nothing needs sweeping and a crash
 * between the two commands cannot leave a key that never expires. Requests fail fast while Redis is down
 * instead of queueing behind reconnection attempts.
 */
import { Redis } from "ioredis";
import type { RateCounters } from "./rate-counters.js";

export class RedisRateCounters implements RateCounters {
  private readonly client: Redis;
  /** The last connection error, which says more than the "Connection is closed." a failed command reports. */
  private lastError: Error | null = null;

  constructor(
    url: string,
    private readonly keyPrefix = "pagegrade:rate:",
  ) {
    this.client = new Redis(url, {
      lazyConnect: true,
      connectTimeout: 2000,
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
      retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
    });
    // Connection errors reach callers as rejected commands; without a listener ioredis would also print them.
    this.client.on("error", (error: Error) => {
      this.lastError = error;
    });
  }

  /** Connects and checks the server answers; start-up calls it so a wrong REDIS_URL stops the service at once. */
  async connect(): Promise<void> {
    try {
      await this.client.connect();
      await this.ping();
    } catch (error) {
      throw this.lastError ?? error;
    }
  }

  async increment(bucket: string, windowStart: number, windowSeconds: number, by = 1): Promise<number> {
    const key = this.key(bucket, windowStart);
    const results = await this.client
      .multi()
      .incrby(key, by)
      .expire(key, windowSeconds * 2)
      .exec();
    const [incremented] = results ?? [];
    if (!incremented || incremented[0])
      throw incremented?.[0] ?? new Error("the Redis transaction was discarded");
    return Number(incremented[1]);
  }

  async count(bucket: string, windowStart: number): Promise<number> {
    return Number((await this.client.get(this.key(bucket, windowStart))) ?? 0);
  }

  /** Windows expire in Redis on their own. */
  async sweep(): Promise<void> {}

  async ping(): Promise<void> {
    await this.client.ping();
  }

  async close(): Promise<void> {
    if (this.client.status === "end") return;
    await this.client.quit().catch(() => this.client.disconnect());
  }

  private key(bucket: string, windowStart: number): string {
    return `${this.keyPrefix}${bucket}:${windowStart}`;
  }
}
