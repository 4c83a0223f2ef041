/**
 * GET with redirects followed by hand: every hop is a new request through the guarded agent (so each hop's
 * host is vetted again), with a deadline over the whole chain and a cap on the decoded body. A redirect's target
 * is at most `maxRedirectUrlLength` characters once resolved (a longer one is no redirect followed: the hop's
 * status is the failure), so a report's `final_url` is bounded whatever the Location headers say.
 */
import { request } from "undici";
import { maxUrlLength } from "../submitted-url.js";
import { BodyBuffer } from "./body-buffer.js";
import { decodeContent, parseContentEncoding } from "./content-decoding.js";
import { FetchFailure, failures } from "./fetch-failure.js";
import type { GuardedAgent } from "./guarded-agent.js";
import type { SiteRequests } from "./site-requests.js";

export interface GetOptions {
  accept: string;
  acceptEncoding: string;
  userAgent: string;
  /** Deadline for the whole chain: every hop, every header and body byte. */
  timeoutMs: number;
  /** Cap on the raw and on the decoded body, in bytes. */
  maxBodyBytes: number;
  /** Redirects to follow; 0 returns the first response as it is, redirect or not. */
  maxRedirects: number;
  /** When false, the body is discarded unread (status probes). */
  readBody: boolean;
  /** Past maxBodyBytes: "fail" with a too-large failure, or "truncate" and keep the first bytes. */
  overLimit: "fail" | "truncate";
  /** Called with the final response's status and headers before its body is read; may throw to refuse it. */
  inspect?: (status: number, headers: Record<string, string>) => void;
  /**
   * A crawl's say over each hop: its turn (the wait does not count against `timeoutMs`) and the headers it
   * carries, decided per hop, so a redirect to another host gets none.
   */
  site?: SiteRequests;
}

export interface RedirectHop {
  url: string;
  status: number;
  location: string;
}

export interface GetResponse {
  /** URL of the response (after redirects). */
  url: string;
  status: number;
  /** Header names lower-cased; repeated headers joined with ", ". */
  headers: Record<string, string>;
  redirects: RedirectHop[];
  /** From sending the last request (the final hop) to receiving its headers. */
  ttfbMs: number;
  /** From the first request to the last body byte. */
  totalMs: number;
  /** Bytes received on the wire for the final body (before content decoding). */
  transferBytes: number;
  /** The decoded body (empty when readBody is false). */
  body: Buffer;
}

const redirectStatuses = new Set([301, 302, 303, 307, 308]);

export async function guardedGet(agent: GuardedAgent, url: URL, options: GetOptions): Promise<GetResponse> {
  const started = performance.now();
  const deadline = new PausableDeadline(options.timeoutMs);
  const redirects: RedirectHop[] = [];
  let current = url;
  try {
    for (;;) {
      const turn = options.site ? await deadline.pausedFor(options.site.turn(current)) : undefined;
      try {
        const hopStarted = performance.now();
        const response = await request(current, {
          dispatcher: agent.dispatcher,
          method: "GET",
          signal: deadline.signal,
          headers: {
            ...turn?.headers,
            accept: options.accept,
            "accept-encoding": options.acceptEncoding,
            "user-agent": options.userAgent,
          },
        });
        const headers = flattenHeaders(response.headers);
        const location = headers.location;
        if (redirectStatuses.has(response.statusCode) && location !== undefined && options.maxRedirects > 0) {
          await response.body.dump();
          const next = redirectTarget(current, location);
          if (!next) throw failures.httpStatus(response.statusCode);
          redirects.push({ url: current.href, status: response.statusCode, location: next.href });
          if (redirects.length > options.maxRedirects) throw failures.tooManyRedirects(options.maxRedirects);
          current = next;
          continue;
        }
        const ttfbMs = performance.now() - hopStarted;
        if (options.inspect) {
          try {
            options.inspect(response.statusCode, headers);
          } catch (error) {
            discard(response.body);
            throw error;
          }
        }
        let raw: Buffer = Buffer.alloc(0);
        if (options.readBody) {
          raw = await readCapped(
            response.body,
            announcedLength(headers["content-length"]),
            options.maxBodyBytes,
            options.overLimit,
          );
        } else {
          await response.body.dump();
        }
        const codings = parseContentEncoding(headers["content-encoding"]);
        const body =
          options.overLimit === "truncate"
            ? await decodeContent(raw, codings, options.maxBodyBytes).catch(() => Buffer.alloc(0))
            : await decodeContent(raw, codings, options.maxBodyBytes);
        return {
          url: current.href,
          status: response.statusCode,
          headers,
          redirects,
          ttfbMs,
          totalMs: performance.now() - started,
          transferBytes: raw.length,
          body,
        };
      } finally {
        turn?.done();
      }
    }
  } catch (error) {
    throw toFetchFailure(error, deadline.signal.aborted);
  } finally {
    deadline.clear();
  }
}

/** A deadline over a whole chain of hops that stands still while a hop waits for its turn. */
class PausableDeadline {
  private readonly controller = new AbortController();
  private remainingMs: number;
  private startedAt = performance.now();
  private timer: NodeJS.Timeout | undefined;

  constructor(timeoutMs: number) {
    this.remainingMs = timeoutMs;
    this.timer = setTimeout(() => this.controller.abort(), timeoutMs);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  async pausedFor<T>(wait: Promise<T>): Promise<T> {
    clearTimeout(this.timer);
    this.remainingMs -= performance.now() - this.startedAt;
    try {
      return await wait;
    } finally {
      this.startedAt = performance.now();
      this.timer = setTimeout(() => this.controller.abort(), Math.max(0, this.remainingMs));
    }
  }

  clear(): void {
    clearTimeout(this.timer);
  }
}

/** Where a redirect response points (absolute, without fragment), or null when it is no followable redirect. */
export function redirectLocation(from: URL, status: number, location: string | undefined): string | null {
  if (!redirectStatuses.has(status) || location === undefined) return null;
  return redirectTarget(from, location)?.href ?? null;
}

/**
 * The longest redirect target followed: as long as a submitted URL may become once normalised (its 2,048
 * characters percent-encoded, 9 for a character at worst). Without it, five relative hops of 16 KiB Location
 * headers (each byte percent-encoded to up to 9 characters) made a final URL of hundreds of thousands.
 */
export const maxRedirectUrlLength = 9 * maxUrlLength;

/** Resolves a Location header; only http(s) targets without credentials, of a bounded length, are followed. */
function redirectTarget(from: URL, location: string): URL | null {
  let next: URL;
  try {
    next = new URL(location, from);
  } catch {
    return null;
  }
  if (next.protocol !== "http:" && next.protocol !== "https:") return null;
  if (next.username || next.password) return null;
  next.hash = "";
  return next.href.length > maxRedirectUrlLength ? null : next;
}

/**
 * Reads the body up to `maxBytes`, each chunk copied into the body's memory as it arrives (body-buffer.ts), so
 * no turn of the event loop copies the whole body at once.
 */
async function readCapped(
  body: AsyncIterable<Buffer> & { destroy(): void; on(event: "error", listener: () => void): unknown },
  expectedBytes: number | null,
  maxBytes: number,
  overLimit: "fail" | "truncate",
): Promise<Buffer> {
  const gathered = new BodyBuffer(expectedBytes, maxBytes);
  for await (const chunk of body) {
    if (gathered.size + chunk.length > maxBytes) {
      discard(body);
      if (overLimit === "fail") throw failures.tooLarge(maxBytes);
      gathered.append(chunk.subarray(0, maxBytes - gathered.size));
      break;
    }
    gathered.append(chunk);
  }
  return gathered.take();
}

/** The body size a Content-Length header announces, or null when there is none or it is not a number. */
function announcedLength(header: string | undefined): number | null {
  if (header === undefined || !/^\d{1,15}$/.test(header.trim())) return null;
  return Number(header.trim());
}

/** Drops a response body without reading it; the abort this causes is expected, not an error. */
function discard(body: { destroy(): void; on(event: "error", listener: () => void): unknown }): void {
  body.on("error", () => {});
  body.destroy();
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    flat[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  }
  return flat;
}

const timeoutCodes = new Set([
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
  "UND_ERR_ABORTED",
  "ETIMEDOUT",
  "ABORT_ERR",
]);

/** Maps whatever was thrown to a typed, sanitised failure; a library's error text never escapes. */
function toFetchFailure(error: unknown, deadlinePassed: boolean): FetchFailure {
  for (let cause = error; cause; cause = (cause as { cause?: unknown }).cause) {
    if (cause instanceof FetchFailure) return cause;
  }
  if (deadlinePassed) return failures.timeout();
  const code = (error as { code?: string }).code ?? "";
  const name = (error as { name?: string }).name ?? "";
  if (timeoutCodes.has(code) || name === "AbortError" || name === "TimeoutError") return failures.timeout();
  return failures.connectionFailed();
}
