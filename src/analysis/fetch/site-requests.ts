/**
 * What a crawl asks of every request it makes to a site, whoever sends it (the page fetch, each redirect hop,
 * the host probes, robots.txt and the sitemaps, the rendered page's browser): to wait for the request's turn
 * (the crawl's politeness: starts `delay` apart, a bounded number at once) and to carry the crawl's own headers
 * only where they belong. The crawl implements it; the fetcher and the browser only call it.
 */

/** A request's turn: the headers to add to it, and `done` to call once its response is read (or abandoned). */
export interface RequestTurn {
  headers: Record<string, string>;
  done(): void;
}

export interface SiteRequests {
  /** Waits until a request to `url` may start (at once for a host that is not the site's). */
  turn(url: URL): Promise<RequestTurn>;
  /** The headers a request to `url` carries (none for any host but the crawl's own), without waiting. */
  headersFor(url: URL): Record<string, string>;
  /**
   * Results fetched with these requests' headers belong to their crawl alone: a cache shared with other analyses
   * keys them by this scope (null when the requests carry no headers, so their results may be shared).
   */
  readonly cacheScope: string | null;
}
