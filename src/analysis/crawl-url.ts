/**
 * URLs the way a crawl compares them: fragment dropped, default port dropped, host lower-cased (the URL parser
 * does both), only http(s). A crawl's scope is its start URL's project: the host with and without `www.`.
 * Include and exclude patterns are matched against path and query like robots.txt rules (`*` any run, a final
 * `$` anchors the end, otherwise a prefix), by the same linear-time matcher, compiled once per crawl.
 * A URL a crawl finds (a link, a canonical or hreflang URL, a redirect's target, a sitemap's `<loc>`) is at most
 * `maxCrawlUrlLength` characters once normalised: a longer one is no URL a crawl takes, so every URL it stores,
 * lists and sends back is bounded (docs/api.md, "Response sizes").
 */
import { compilePathPattern, type PathPattern, pathPatternMatches } from "./robots/path-pattern.js";
import { projectOf } from "./submitted-url.js";

/** The longest URL a crawl takes from what it finds, normalised: twice the 2,048 characters browsers agree on. */
export const maxCrawlUrlLength = 4096;

/**
 * The normalised absolute URL, or null for anything a crawl never fetches (mailto:, javascript:, a URL longer than
 * `maxCrawlUrlLength` characters, …).
 */
export function crawlUrl(href: string, base?: string): string | null {
  let url: URL;
  try {
    url = base === undefined ? new URL(href) : new URL(href, base);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  if (url.username || url.password) return null;
  url.hash = "";
  return url.href.length > maxCrawlUrlLength ? null : url.href;
}

export function inScope(url: string, project: string): boolean {
  return projectOf(url) === project;
}

export interface PathPatterns {
  include: PathPattern[];
  exclude: PathPattern[];
}

/** A crawl's include and exclude patterns, compiled. */
export function pathPatterns(include: string[], exclude: string[]): PathPatterns {
  return { include: include.map(compilePathPattern), exclude: exclude.map(compilePathPattern) };
}

/** Whether the patterns let the crawl fetch this URL (the start URL always may). */
export function patternsAllow(url: string, patterns: PathPatterns): boolean {
  const parsed = new URL(url);
  const path = parsed.pathname + parsed.search;
  if (patterns.exclude.some((pattern) => pathPatternMatches(pattern, path))) return false;
  return (
    patterns.include.length === 0 || patterns.include.some((pattern) => pathPatternMatches(pattern, path))
  );
}
