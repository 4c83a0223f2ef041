/**
 * The response headers of rate limits and quotas: the X-RateLimit-* trio, the IETF RateLimit-Policy / RateLimit
 * fields, and `Retry-After` on a refusal. The counting itself is in `src/limits/`.
 */
import type { QuotaRefusal } from "../limits/quotas.js";
import type { RateVerdict } from "../limits/rate-limiter.js";

/** The rate-limit response headers: the X-RateLimit-* trio and the IETF RateLimit-Policy / RateLimit fields. */
export function rateLimitHeaders(verdict: RateVerdict, policy: string): Record<string, string> {
  const resetAt = Math.floor(Date.now() / 1000) + verdict.resetSeconds;
  return {
    "x-ratelimit-limit": String(verdict.limit),
    "x-ratelimit-remaining": String(verdict.remaining),
    "x-ratelimit-reset": String(resetAt),
    "ratelimit-policy": `"${policy}";q=${verdict.limit};w=${verdict.windowSeconds}`,
    ratelimit: `"${policy}";r=${verdict.remaining};t=${verdict.resetSeconds}`,
  };
}

/** The headers of a refusal: `Retry-After`, and the rate-limit fields when a window was counted. */
export function refusalHeaders(refusal: QuotaRefusal): Record<string, string> {
  return {
    ...(refusal.verdict ? rateLimitHeaders(refusal.verdict, refusal.name) : {}),
    "retry-after": String(refusal.retryAfterSeconds),
  };
}
