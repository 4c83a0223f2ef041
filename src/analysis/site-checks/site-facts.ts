/**
 * What a crawl knows about a site once it has fetched it: the input of every site check. The crawler
 * (src/crawls/) gathers these facts page by page into the database; the site checks
 * (src/analysis/site-checks/<id>.ts) read them through a `SiteSource` (site-source.ts: the database's, or facts
 * held in memory) and know nothing of storage or the network.
 * Every URL here is absolute and normalised the crawler's way (fragment dropped, default port dropped, host
 * lower-cased), so two facts about one URL compare equal as strings.
 */

/** One URL the crawl came to know, whether it was fetched or not. */
export interface SitePage {
  url: string;
  /** Link clicks from the start page; null for a URL known only from a sitemap, canonical or hreflang. */
  depth: number | null;
  /** The HTTP status of the URL's own response (not followed); null when it was not fetched or failed. */
  statusCode: number | null;
  /** A fetch failure's stable reason (`timeout`, `connection-failed`, …); null when it answered. */
  error: string | null;
  /** For a 3xx: the next hop (absolute, normalised); null otherwise. */
  redirectTo: string | null;
  contentType: string | null;
  /** Listed in one of the site's sitemaps. */
  inSitemap: boolean;
  /** robots.txt disallows it for pagegrade. */
  disallowed: boolean;
  /** Why the crawl did not fetch it, or null when it did. */
  excluded: null | "robots" | "pattern" | "limit" | "not-html";
  /** A 200 HTML page without noindex (meta robots or X-Robots-Tag). False for anything else. */
  indexable: boolean;
  /** The page says noindex (meta robots or X-Robots-Tag). */
  noindex: boolean;
  /** The page's canonical URL (absolute, normalised), or null when it declares none. */
  canonical: string | null;
  title: string | null;
  metaDescription: string | null;
  /**
   * The visible text's fingerprint for duplicate detection, null for pages without text: `hash` is the SHA-256
   * (hex) of the text with whitespace collapsed and lower-cased; `minhash` is 64 minimum hashes over the
   * text's 5-word shingles (hash i of a shingle = 32-bit FNV-1a of the shingle XOR seed i, seeds fixed), so the
   * share of equal positions between two pages estimates their Jaccard similarity.
   */
  text: { hash: string; minhash: number[] } | null;
  /** `<link rel=alternate hreflang>` targets the page declares. */
  hreflang: { lang: string; url: string }[];
}

/** An `<a href>` from one crawled page to a URL of the same site (in scope). */
export interface SiteLink {
  from: string;
  /** The target as normalised, scheme kept (so an http:// link on an https site stays visible). */
  to: string;
  /** The link carries rel=nofollow. */
  nofollow: boolean;
}

export interface SiteFacts {
  /** The start URL of the crawl. */
  startUrl: string;
  pages: SitePage[];
  links: SiteLink[];
  /** Links the crawl found but did not record (its bounds): the checks that read links say so. */
  linksLeftOut?: number;
}

/** One finding's item; every item names the URL(s) it concerns. */
export interface SiteIssueItem {
  url?: string;
  pages?: string[];
  /** For link findings: up to 5 pages that link to `url`. */
  sources?: string[];
  /** The finding's identity across crawls (finding-fingerprint.ts). */
  fingerprint?: string;
  [detail: string]: unknown;
}

/** What a site check reports when it finds something (the contract's `site_issue`, without `object`). */
export interface SiteIssue {
  check: string;
  category: "seo" | "performance" | "security" | "miscellaneous";
  importance: "high" | "medium" | "low";
  title: string;
  message: string;
  /** Findings in all, including those beyond `items`. */
  count: number;
  items: SiteIssueItem[];
  /** Findings left out of `items` (a check lists at most 100). */
  truncated: number;
  /** Every finding, `items` being the first of them: what is stored for comparing crawls. */
  findings: SiteIssueItem[];
}
