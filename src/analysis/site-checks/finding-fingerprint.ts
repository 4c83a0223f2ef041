/**
 * A site finding's identity: a hash of its check and the URLs or key it is about (each check's own rule, passed
 * to `issueOf`), so the same finding in two crawls of a site has the same fingerprint whatever its ids, times,
 * counts or the order its sources were found in, and two findings of a crawl never share one.
 */
import { createHash } from "node:crypto";

/** The fingerprint of a finding of `check` identified by `parts` (URLs, a group's key): 32 hex characters. */
export function fingerprintOf(check: string, parts: readonly string[]): string {
  return createHash("sha256")
    .update(JSON.stringify([check, ...parts]))
    .digest("hex")
    .slice(0, 32);
}

/** The parts of a group of pages found together (no key of its own): its pages, in URL order. */
export function groupMembers(pages: readonly string[]): string[] {
  return [...new Set(pages)].sort();
}

/** A shared text as a group's key: case and runs of spacing ignored, as the duplicate checks compare it. */
export function textKey(text: string): string {
  return text.replace(/\s+/g, " ").trim().toLowerCase();
}
