/**
 * The one rule every comparison of two crawls follows (the API's diff and the pages built on it, the
 * `crawl.regressed` webhook, the command line's site gate): a comparison is about what both crawls could see.
 * A site finding of one crawl that the other lacks is a change (new, or resolved) only when the other crawl
 * reached every URL the finding is about (the page or link target in `url`, every page of a group in `pages`;
 * not the pages that link to it); otherwise the other crawl simply did not look there, and the finding counts
 * under coverage: `newly_checked` (only the later crawl saw it) or `no_longer_checked` (only the earlier did).
 * One case more is a change: a link finding (broken, redirected… links to `url`) whose every linking page the
 * other crawl reached while never coming upon `url` at all: those pages no longer link there (the link removed
 * is the fix, though the target was not fetched again).
 */

/** Findings counted as coverage rather than as a change. */
export interface Coverage {
  newly_checked: number;
  no_longer_checked: number;
}

export function noCoverage(): Coverage {
  return { newly_checked: 0, no_longer_checked: 0 };
}

/** The URLs whose reaching decides whether a finding is a change: its page or link target, its group's pages. */
export function subjectUrls(item: Record<string, unknown>): string[] {
  const urls = typeof item.url === "string" ? [item.url] : [];
  if (Array.isArray(item.pages)) for (const url of item.pages) if (typeof url === "string") urls.push(url);
  return urls;
}

/** What the other crawl could see: the URLs it reached, and (where known) the URLs it came upon at all. */
export interface OtherCrawl {
  reached(url: string): boolean;
  /** Whether the crawl came upon the URL (reached, queued, excluded…); omitted where that is not known. */
  knows?(url: string): boolean;
}

/**
 * Whether a finding present in one crawl only is a change against the other crawl: that crawl reached (fetched,
 * or tried to and failed) every URL the finding is about; or, for a link finding listing all its linking pages,
 * it reached all of them and never came upon the target. A finding naming no URL is always a change.
 */
export function isChange(item: Record<string, unknown>, other: OtherCrawl): boolean {
  const urls = subjectUrls(item);
  if (urls.every((url) => other.reached(url))) return true;
  const sources = Array.isArray(item.sources) ? item.sources.filter((url) => typeof url === "string") : [];
  return (
    other.knows !== undefined &&
    typeof item.url === "string" &&
    sources.length > 0 &&
    item.links === sources.length &&
    !other.knows(item.url) &&
    sources.every((url) => other.reached(url))
  );
}

/** The URLs whose reaching (or being come upon) decides whether a finding is a change. */
export function decidingUrls(item: Record<string, unknown>): string[] {
  const sources = Array.isArray(item.sources) ? item.sources.filter((url) => typeof url === "string") : [];
  return [...subjectUrls(item), ...sources];
}
