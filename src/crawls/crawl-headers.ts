/**
 * A crawl's request headers (a crawl behind a login): read from what was asked (a JSON object of name → value,
 * or `Name: value` lines from a form or the command line), checked (at most 5; `Cookie`, `Authorization` or an
 * `X-…` name; values of at most 4,096 characters on one line; a 422 naming `headers` otherwise), sealed for
 * the database with PAGEGRADE_ENCRYPTION_KEY (a server without the key refuses them: they are never stored in
 * the clear), and opened again only by the crawler. Only their names are ever shown.
 */
import { ValidationFailed } from "../errors.js";
import type { SecretBox } from "../store/secret-box.js";

export const maxCrawlHeaders = 5;
export const maxHeaderValueLength = 4_096;

/** What a crawl row stores of its headers: sealed JSON (null for none) and the names as a JSON array. */
export interface StoredCrawlHeaders {
  headers: string | null;
  header_names: string;
}

/** Names defined as hop-by-hop (RFC 9110 7.6.1, and the proxy ones), and Host: a crawl may not set these. */
const refusedNames = new Set([
  "connection",
  "keep-alive",
  "proxy-authenticate",
  "proxy-authorization",
  "proxy-connection",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
  "host",
]);
const tokenPattern = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;

function refuse(message: string): never {
  throw ValidationFailed.of("headers", message);
}

/** The headers asked for, checked; an empty object when none were. */
export function crawlHeadersOf(raw: unknown): Record<string, string> {
  if (raw === undefined || raw === null || raw === "") return {};
  const pairs: Array<[string, unknown]> = [];
  if (typeof raw === "string" || Array.isArray(raw)) {
    const lines = (Array.isArray(raw) ? raw : [raw]).flatMap((entry: unknown) =>
      typeof entry === "string" ? entry.split(/\r?\n/) : [entry],
    );
    for (const line of lines) {
      if (typeof line !== "string") refuse('Each headers entry must be a line written "Name: value".');
      if (line.trim() === "") continue;
      const colon = line.indexOf(":");
      if (colon < 1) refuse('Each headers entry must be a line written "Name: value".');
      pairs.push([line.slice(0, colon).trim(), line.slice(colon + 1).trim()]);
    }
  } else if (typeof raw === "object") {
    pairs.push(...Object.entries(raw as Record<string, unknown>));
  } else {
    refuse("The headers field must be an object of header names to values.");
  }
  if (pairs.length > maxCrawlHeaders)
    refuse(`The headers field may hold at most ${maxCrawlHeaders} headers.`);
  const headers: Record<string, string> = {};
  const seen = new Set<string>();
  for (const [name, value] of pairs) {
    if (!tokenPattern.test(name)) refuse(`"${name.slice(0, 100)}" is not a header name.`);
    const lower = name.toLowerCase();
    if (refusedNames.has(lower))
      refuse(`The ${name} header cannot be set: it belongs to the connection, not to the request.`);
    if (lower !== "cookie" && lower !== "authorization" && !lower.startsWith("x-"))
      refuse(`The ${name} header cannot be set: only Cookie, Authorization and X-… headers can.`);
    if (seen.has(lower)) refuse(`The ${name} header is given twice.`);
    seen.add(lower);
    if (typeof value !== "string") refuse(`The value of the ${name} header must be a string.`);
    if (value.length > maxHeaderValueLength)
      refuse(`The value of the ${name} header may be at most ${maxHeaderValueLength} characters.`);
    // Visible ASCII and Latin-1 text with spaces and tabs, as a header field value may hold (no line breaks).
    if (!/^[\t\x20-\x7e\x80-\xff]*$/.test(value))
      refuse(`The value of the ${name} header may not hold line breaks or control characters.`);
    headers[name] = value;
  }
  return headers;
}

/** Seals checked headers for the crawl's row; without an encryption key a crawl with headers is refused. */
export function storedCrawlHeaders(
  headers: Record<string, string>,
  secrets: SecretBox | null,
): StoredCrawlHeaders {
  const names = Object.keys(headers);
  if (names.length === 0) return { headers: null, header_names: "[]" };
  if (!secrets?.encrypts) {
    refuse(
      "The headers field cannot be used: this server keeps no secrets without PAGEGRADE_ENCRYPTION_KEY set.",
    );
  }
  return { headers: secrets.seal(JSON.stringify(headers)), header_names: JSON.stringify(names) };
}

/** The crawl's headers, opened (an empty object for none). */
export function openCrawlHeaders(
  sealed: string | null,
  secrets: SecretBox | undefined,
): Record<string, string> {
  if (sealed === null) return {};
  if (!secrets) throw new Error("The crawl has request headers but no key was given to open them.");
  return JSON.parse(secrets.open(sealed)) as Record<string, string>;
}
