/**
 * Validation and normalisation of a URL someone submits for analysis, and the project it belongs to.
 * Shared by the command line, the API and the web pages so the rules exist once.
 */
import { domainToUnicode } from "node:url";

export const maxUrlLength = 2048;

export class InvalidUrl extends Error {
  override readonly name = "InvalidUrl";
}

/** Parses and normalises (scheme and host lower-cased, default port and fragment removed); throws InvalidUrl. */
export function normaliseSubmittedUrl(input: string): URL {
  const raw = input.trim();
  if (raw === "") throw new InvalidUrl("The url is empty.");
  if (raw.length > maxUrlLength)
    throw new InvalidUrl(`The url may not be longer than ${maxUrlLength} characters.`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new InvalidUrl("The url must be an absolute http or https URL.");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new InvalidUrl("The url must be an absolute http or https URL.");
  }
  if (url.username || url.password) throw new InvalidUrl("The url may not contain a user name or password.");
  if (!url.hostname) throw new InvalidUrl("The url must name a host.");
  url.hash = "";
  return url;
}

/** The project of a URL: its host, lower-cased, without a leading "www.", internationalised names in Unicode. */
export function projectOf(url: string | URL): string {
  const host = (typeof url === "string" ? new URL(url) : url).hostname.toLowerCase();
  const unicode = host.startsWith("[") ? host : domainToUnicode(host) || host;
  return unicode.startsWith("www.") ? unicode.slice(4) : unicode;
}
