/**
 * The quotas every door applies alike (the API, the web pages, and whatever calls the service over HTTP):
 * analyses (store and re-run), crawl starts, webhook pings and PDFs per user, PDFs of public reports per client
 * address for visitors who are not signed in, sign-ups per client address, and the event streams a user may
 * hold open at once. Each kind is counted here and nowhere else; a route only names the kind and who is asking.
 * A refusal is a `QuotaExceeded`, which the error handler answers with 429, `Retry-After` and a message that
 * names the limit: a problem object on the API, a page on the web.
 */

import { DomainError } from "../errors.js";
import type { RateCounters } from "./rate-counters.js";
import { RateLimiter, type RateVerdict } from "./rate-limiter.js";

export type QuotaKind =
  | "analyses"
  | "crawl-starts"
  | "pings"
  | "pdfs"
  | "sign-ups"
  | "team-creations"
  | "invitations";

/** Who is counted: a signed-in user (by API key or session), or a client address. */
export type QuotaSubject = { userId: number } | { address: string };

export interface QuotaSettings {
  /** Analyses (store, re-run) per minute per user; 0 turns the quota off. */
  analysesPerMinute: number;
  crawlStartsPerMinute: number;
  pingsPerMinute: number;
  /** PDFs per minute per user, or per client address for visitors who are not signed in. */
  pdfsPerMinute: number;
  signUpsPerHour: number;
  /** Teams created per hour per user. */
  teamCreationsPerHour: number;
  /** Team invitations sent per hour per user. */
  invitationsPerHour: number;
  /** Event streams open at once per user (in this process). */
  eventStreamsPerUser: number;
}

/** What a refusal says: the limit's name, its number and window, and when to come back. */
export interface QuotaRefusal {
  name: QuotaKind | "event-streams" | "crawls" | "requests";
  limit: number;
  /** Seconds the limit counts over; null for a limit on what is open at once. */
  windowSeconds: number | null;
  retryAfterSeconds: number;
  /** The counted window's verdict, for the rate-limit headers; null for the event streams. */
  verdict: RateVerdict | null;
}

const nouns: Record<QuotaRefusal["name"], string> = {
  analyses: "analyses",
  "crawl-starts": "crawl starts",
  pings: "webhook pings",
  pdfs: "PDFs",
  "sign-ups": "sign-ups",
  "team-creations": "teams created",
  invitations: "invitations",
  "event-streams": "open event streams",
  crawls: "crawls queued or running",
  requests: "requests",
};

/** A quota reached: 429 with the refusal's headers (limit, window, when to retry). */
export class QuotaExceeded extends DomainError {
  override readonly name = "QuotaExceeded";
  readonly code = "quota_exceeded";
  readonly status = 429;

  constructor(
    readonly refusal: QuotaRefusal,
    per: string,
  ) {
    super(quotaMessage(refusal, per));
  }
}

/** "Too many analyses: at most 10 per minute per user. Try again in 42 seconds." */
export function quotaMessage(refusal: QuotaRefusal, per: string): string {
  const window =
    refusal.windowSeconds === null
      ? "at once"
      : refusal.windowSeconds === 60
        ? "per minute"
        : refusal.windowSeconds === 3600
          ? "per hour"
          : `per ${refusal.windowSeconds} seconds`;
  const seconds = refusal.retryAfterSeconds;
  return `Too many ${nouns[refusal.name]}: at most ${refusal.limit} ${window} per ${per}. Try again in ${seconds} second${seconds === 1 ? "" : "s"}.`;
}

/** How long a client refused an event stream is asked to wait: streams end at unknown times. */
const streamRetrySeconds = 10;

/** How long a user with all their crawls queued or running is asked to wait: crawls end at unknown times. */
const crawlRetrySeconds = 60;

/**
 * The refusal of a crawl start past the crawls a user may have queued or running at once (CrawlLimitReached,
 * PAGEGRADE_CRAWLS_PER_USER), in the terms of every other quota: the API and the web page say it alike.
 */
export function crawlLimitRefusal(limit: number): QuotaRefusal {
  return { name: "crawls", limit, windowSeconds: null, retryAfterSeconds: crawlRetrySeconds, verdict: null };
}

export class Quotas {
  private readonly limiters = new Map<QuotaKind, RateLimiter>();
  private readonly openStreams = new Map<number, number>();

  constructor(
    counters: RateCounters,
    private readonly settings: QuotaSettings,
  ) {
    const windows: Array<[QuotaKind, number, number]> = [
      ["analyses", settings.analysesPerMinute, 60],
      ["crawl-starts", settings.crawlStartsPerMinute, 60],
      ["pings", settings.pingsPerMinute, 60],
      ["pdfs", settings.pdfsPerMinute, 60],
      ["sign-ups", settings.signUpsPerHour, 3600],
      ["team-creations", settings.teamCreationsPerHour, 3600],
      ["invitations", settings.invitationsPerHour, 3600],
    ];
    for (const [kind, limit, windowSeconds] of windows) {
      if (limit > 0) this.limiters.set(kind, new RateLimiter(counters, kind, limit, windowSeconds));
    }
  }

  /** Counts one use of the kind by the subject; throws `QuotaExceeded` past the limit. */
  async charge(kind: QuotaKind, subject: QuotaSubject): Promise<void> {
    const limiter = this.limiters.get(kind);
    if (!limiter) return;
    const bucket = "userId" in subject ? `user:${subject.userId}` : `address:${subject.address}`;
    const verdict = await limiter.hit(bucket);
    if (verdict.allowed) return;
    const refusal = {
      name: kind,
      limit: verdict.limit,
      windowSeconds: verdict.windowSeconds,
      retryAfterSeconds: verdict.retryAfterSeconds,
      verdict,
    };
    throw new QuotaExceeded(refusal, "userId" in subject ? "user" : "client address");
  }

  /**
   * Takes one of the user's event-stream places; throws `QuotaExceeded` when they are all taken. The returned
   * function gives the place back (calling it again does nothing).
   */
  openStream(userId: number): () => void {
    const open = this.openStreams.get(userId) ?? 0;
    const limit = this.settings.eventStreamsPerUser;
    if (open >= limit) {
      const refusal = {
        name: "event-streams" as const,
        limit,
        windowSeconds: null,
        retryAfterSeconds: streamRetrySeconds,
        verdict: null,
      };
      throw new QuotaExceeded(refusal, "user");
    }
    this.openStreams.set(userId, open + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.openStreams.get(userId) ?? 1) - 1;
      if (left > 0) this.openStreams.set(userId, left);
      else this.openStreams.delete(userId);
    };
  }

  /** The counting limiters, whose ended windows the app sweeps. */
  sweepers(): RateLimiter[] {
    return [...this.limiters.values()];
  }
}
