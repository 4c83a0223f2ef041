/**
 * The wait before a retry: exponential (the delay doubles with every failed attempt, up to a cap) with "equal
 * jitter" (a random point in the upper half), so jobs that failed together do not all come back at once while
 * each still waits at least half its nominal delay. Both adapters use this one function.
 */
import { type Backoff, jobDefaults } from "./job-queue.js";

/** Milliseconds to wait after the `failedAttempt`-th run (1-based) failed. */
export function retryDelayMs(
  failedAttempt: number,
  backoff: Backoff = jobDefaults.backoff,
  random: () => number = Math.random,
): number {
  const cap = backoff.maxDelayMs ?? jobDefaults.backoff.maxDelayMs;
  const nominal = Math.min(cap, backoff.delayMs * 2 ** Math.max(0, failedAttempt - 1));
  return Math.round(nominal / 2 + random() * (nominal / 2));
}
