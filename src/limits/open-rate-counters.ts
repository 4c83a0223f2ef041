/**
 * Chooses where rate-limit counters live: in Redis when `REDIS_URL` is set (one INCR per hit, ended windows expire
 * on their own), otherwise in the database. The Redis client is loaded only when it is used.
 */
import type { Store } from "../store/store.js";
import { DatabaseRateCounters } from "./database-rate-counters.js";
import type { RateCounters } from "./rate-counters.js";

/** The counters the configuration asks for: Redis when `redisUrl` is set (connected and checked), else the database. */
export async function openRateCounters(
  store: Store,
  settings: { redisUrl: string | null; redisKeyPrefix: string },
): Promise<RateCounters> {
  if (settings.redisUrl === null) return new DatabaseRateCounters(store);
  const { RedisRateCounters } = await import("./redis-rate-counters.js");
  const counters = new RedisRateCounters(settings.redisUrl, `${settings.redisKeyPrefix}rate:`);
  try {
    await counters.connect();
  } catch (error) {
    await counters.close();
    throw new Error(`cannot reach Redis at REDIS_URL: ${(error as Error).message}`);
  }
  return counters;
}
