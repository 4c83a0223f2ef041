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
  | "invalid-response";

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
  httpStatus: (status: number) =>
    new FetchFailure("http-status", `The server returned HTTP ${status}.`, { status }),
  tooLarge: (limitBytes: number) =>
    new FetchFailure("too-large", `The response is too large (more than ${formatBytes(limitBytes)}).`, {
      limit: limitBytes,
    }),
  notHtml: (mediaType: string) =>
    new FetchFailure(
      "not-html",
      mediaType ? `The URL is not an HTML page (it is ${mediaType}).` : "The URL is not an HTML page.",
      { media_type: mediaType },
    ),
  invalidResponse: () =>
    new FetchFailure("invalid-response", "The server sent a response that cannot be decoded."),
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
