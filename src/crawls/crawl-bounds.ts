/**
 * How much a crawl stores of what it finds, bounded by its page budget (`max_pages`) so that a site whose pages
 * each link to thousands of new URLs cannot fill the database: at most `urlsPerPage` × max_pages URLs in its
 * pages list (fetched or not), at most `linksPerPage` internal links recorded per page, and at most
 * `meanLinksPerPage` × max_pages links in all. What does not fit is counted on the crawl, never silently lost.
 */

import { type CrawlBoundSettings, defaultCrawlBounds } from "../config.js";

/** One crawl's bounds. */
export interface CrawlBounds {
  /** URLs in its pages list. */
  urls: number;
  /** Links recorded for one page (its first ones, in document order). */
  linksPerPage: number;
  /** Links recorded in all. */
  links: number;
}

export function crawlBounds(
  maxPages: number,
  settings: CrawlBoundSettings = defaultCrawlBounds,
): CrawlBounds {
  return {
    urls: maxPages * settings.urlsPerPage,
    linksPerPage: settings.linksPerPage,
    links: maxPages * settings.meanLinksPerPage,
  };
}

/** How many of `asked` more fit under `bound` when `before` were asked for already. */
export function roomFor(before: number, asked: number, bound: number): number {
  return Math.max(0, Math.min(asked, bound - before));
}
