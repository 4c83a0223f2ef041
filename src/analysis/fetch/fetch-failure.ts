/**
 * The typed, sanitised reasons a page cannot be fetched. Messages are written here, never taken from a
 * library error, so nothing internal (stack traces, resolver output, socket details) reaches a client.
 */

export type FetchFailureReason =
  | "unresolvable"
  | "private-address"
  | "timeout"
  | "connection-failed"
  | "http-status"
  | "too-large"
  | "not-html"
  | "too-many-redirects"
  | "redirect"
  | "invalid-response"
  | "too-complex";

export class FetchFailure extends Error {
  override readonly name = "FetchFailure";

  constructor(
    readonly reason: FetchFailureReason,
    message: string,
    /** Extra facts for logs and callers (an HTTP status, a limit); never free text from a server. */
    readonly facts: Readonly<Record<string, string | number>> = {},
  ) {
    super(message);
  }
}

export const failures = {
  unresolvable: () => new FetchFailure("unresolvable", "The host name cannot be resolved."),
  privateAddress: () =>
    new FetchFailure("private-address", "The URL points to a private or reserved network address."),
  timeout: () => new FetchFailure("timeout", "The server did not respond in time."),
  connectionFailed: () =>
    new FetchFailure("connection-failed", "A connection to the server could not be established."),
  /** An error status; with the seconds the server's Retry-After asks for, when it sent a valid one. */
  httpStatus: (status: number, retryAfterSeconds: number | null = null) =>
    new FetchFailure("http-status", `The server returned HTTP ${status}.`, {
      status,
      ...(retryAfterSeconds === null ? {} : { retry_after: retryAfterSeconds }),
    }),
  tooLarge: (limitBytes: number) =>
    new FetchFailure("too-large", `The response is too large (more than ${formatBytes(limitBytes)}).`, {
      limit: limitBytes,
    }),
  /** The URL answered with a redirect that the caller asked not to follow (a crawl records each hop itself). */
  redirect: (status: number, location: string) =>
    new FetchFailure("redirect", `The URL redirects (HTTP ${status}).`, { status, location }),
  notHtml: (mediaType: string) =>
    new FetchFailure(
      "not-html",
      mediaType ? `The URL is not an HTML page (it is ${mediaType}).` : "The URL is not an HTML page.",
      { media_type: mediaType },
    ),
  invalidResponse: () =>
    new FetchFailure("invalid-response", "The server sent a response that cannot be decoded."),
  /** The page's parse and checks went past the analysis pool's time or memory limit, or stopped its thread. */
  tooComplex: (limit: "time" | "memory" | "crash", timeLimitMs = 0) =>
    new FetchFailure(
      "too-complex",
      limit === "time"
        ? `The page took too long to analyse (more than ${timeLimitMs / 1000} s).`
        : limit === "memory"
          ? "The page needs too much memory to analyse."
          : "The page's analysis stopped unexpectedly.",
      { limit },
    ),
  tooManyRedirects: (limit: number) =>
    new FetchFailure("too-many-redirects", `The URL redirects too many times (more than ${limit}).`, {
      limit,
    }),
};

function formatBytes(bytes: number): string {
  const mib = bytes / (1024 * 1024);
  if (mib >= 1 && Number.isInteger(mib)) return `${mib} MiB`;
  const kib = bytes / 1024;
  if (kib >= 1 && Number.isInteger(kib)) return `${kib} KiB`;
  return `${bytes} bytes`;
}

/** Retry-After's delay in whole seconds (delay-seconds or an HTTP date, RFC 9110 §10.2.3); null when absent or invalid. */
export function retryAfterSeconds(header: string | string[] | undefined, now = Date.now()): number | null {
  const value = (Array.isArray(header) ? header[0] : header)?.trim();
  if (!value) return null;
  if (/^\d{1,9}$/.test(value)) return Number(value);
  // An HTTP date names its month and its time of day (IMF-fixdate, and the obsolete RFC 850 and asctime forms).
  if (!/\b(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\b/.test(value) || !/\d\d:\d\d:\d\d/.test(value))
    return null;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}
