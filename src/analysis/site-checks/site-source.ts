/**
 * Where the site checks read a crawl from: never the whole crawl at once. Pages come a batch at a time in crawl
 * order, narrowed to what a check needs; what compares every link with its target (broken, redirected, insecure
 * and nofollow link targets, unlinked sitemap pages) is answered whole by the source, as the database answers it
 * (src/crawls/site-store.ts: joins, group-bys and anti-joins). `factsSource` answers the same questions over
 * facts in memory (a crawl's facts built by hand, in tests and for small sites).
 *
 * Link order, for the checks that list a link's sources: the links of a crawl are taken in the order of their
 * source page in the crawl, then of their target URL. So a target's sources are listed in crawl order, and link
 * targets come in the order of their first source, then of their URL.
 */
import type { SiteFacts, SitePage } from "./site-facts.js";

/**
 * Which pages a check reads: `indexable` (indexable pages that answered 200), `texts` (those with a text
 * fingerprint, read with it: the other selections leave `text` null), `sitemap` (listed in a sitemap),
 * `redirects` (with a redirect target), `canonicals` (naming another URL as canonical), `hreflang` (declaring
 * alternates).
 */
export type PageSelection = "indexable" | "texts" | "sitemap" | "redirects" | "canonicals" | "hreflang";

/** Which link targets a check reads (see `linkTargets`). */
export type LinkTargetKind = "broken" | "redirected" | "insecure" | "nofollow";

/** A URL some crawled pages link to, with what is known of it. */
export interface LinkedTarget {
  url: string;
  /** The target page, when the crawl knows the URL as a page (always, except for `insecure`). */
  page: SitePage | null;
  /** How many distinct pages link to it (for `nofollow`: with a nofollow link). */
  sourceCount: number;
  /** The first of them, in crawl order (at most `sourceLimit`). */
  sources: string[];
}

export interface SiteSource {
  startUrl: string;
  /** Links the crawl found but did not record (its bounds): the checks that read links say so. */
  linksLeftOut: number;
  /** The selected pages in crawl order, a batch at a time. */
  pages(selection: PageSelection): AsyncIterable<SitePage[]>;
  /** Indexable pages that answered 200 deeper than `depth` clicks, deepest first (then in crawl order), in batches. */
  deepPages(depth: number): AsyncIterable<SitePage[]>;
  /** The pages the crawl knows at these URLs (text left null), by URL. */
  pagesAt(urls: readonly string[]): Promise<Map<string, SitePage>>;
  /**
   * The link targets of a kind, in link order, with their first `sourceLimit` distinct sources. Links from a
   * page to itself do not count. `broken`: targets that are pages answering 404, 410, 5xx or failing (not
   * excluded); `redirected`: pages with a redirect target; `insecure`: http:// URLs (whether the crawl knows
   * them or not); `nofollow`: indexable 200 pages, counting nofollow links only.
   */
  linkTargets(kind: LinkTargetKind, sourceLimit: number): Promise<LinkedTarget[]>;
  /** Pages listed in a sitemap that no other crawled page links to, the start page aside, in crawl order. */
  unlinkedSitemapPages(): Promise<SitePage[]>;
}

/** A page that answers 404, 410, 5xx or could not be fetched, and was not left out by the crawl. */
export function isBroken(page: SitePage): boolean {
  if (page.excluded !== null) return false;
  if (page.statusCode === null) return page.error !== null;
  return page.statusCode === 404 || page.statusCode === 410 || page.statusCode >= 500;
}

const selected: Record<PageSelection, (page: SitePage) => boolean> = {
  indexable: (page) => page.indexable && page.statusCode === 200,
  texts: (page) => page.indexable && page.statusCode === 200 && page.text !== null,
  sitemap: (page) => page.inSitemap,
  redirects: (page) => page.redirectTo !== null,
  canonicals: (page) => page.canonical !== null && page.canonical !== page.url,
  hreflang: (page) => page.hreflang.length > 0,
};

const batchPages = 1000;

/** The source of facts held in memory, answering as the database does. */
export function factsSource(site: SiteFacts): SiteSource {
  const byUrl = new Map(site.pages.map((page) => [page.url, page]));
  const order = new Map(site.pages.map((page, index) => [page.url, index]));
  const withoutText = (page: SitePage): SitePage => ({ ...page, text: null });
  // Links in link order: by their source's place in the crawl (unknown sources last, as given), then target.
  const links = site.links
    .map((link, index) => ({ link, index, source: order.get(link.from) ?? Number.POSITIVE_INFINITY }))
    .sort(
      (a, b) =>
        a.source - b.source ||
        (a.source === Number.POSITIVE_INFINITY ? a.index - b.index : compare(a.link.to, b.link.to)) ||
        a.index - b.index,
    )
    .map(({ link }) => link);
  const sourcesOf = (keep: (link: SiteFacts["links"][number]) => boolean) => {
    const sources = new Map<string, string[]>();
    for (const link of links) {
      if (!keep(link) || link.from === link.to) continue;
      const list = sources.get(link.to) ?? [];
      if (!list.includes(link.from)) list.push(link.from);
      sources.set(link.to, list);
    }
    return sources;
  };
  const targets = (
    keep: (link: SiteFacts["links"][number]) => boolean,
    accept: (url: string, page: SitePage | undefined) => boolean,
    limit: number,
  ): LinkedTarget[] =>
    [...sourcesOf(keep)]
      .filter(([url]) => accept(url, byUrl.get(url)))
      .map(([url, sources]) => {
        const page = byUrl.get(url);
        return {
          url,
          page: page ? withoutText(page) : null,
          sourceCount: sources.length,
          sources: sources.slice(0, limit),
        };
      });
  return {
    startUrl: site.startUrl,
    linksLeftOut: site.linksLeftOut ?? 0,
    async *pages(selection) {
      const chosen = site.pages.filter(selected[selection]);
      for (let start = 0; start < chosen.length; start += batchPages) {
        const batch = chosen.slice(start, start + batchPages);
        yield selection === "texts" ? batch : batch.map(withoutText);
      }
    },
    async *deepPages(depth) {
      yield site.pages
        .filter((page) => selected.indexable(page) && page.depth !== null && page.depth > depth)
        .sort((a, b) => (b.depth as number) - (a.depth as number))
        .map(withoutText);
    },
    async pagesAt(urls) {
      const found = new Map<string, SitePage>();
      for (const url of urls) {
        const page = byUrl.get(url);
        if (page) found.set(url, withoutText(page));
      }
      return found;
    },
    async linkTargets(kind, limit) {
      switch (kind) {
        case "broken":
          return targets(
            () => true,
            (_, page) => page !== undefined && isBroken(page),
            limit,
          );
        case "redirected":
          return targets(
            () => true,
            (_, page) => (page?.redirectTo ?? null) !== null,
            limit,
          );
        case "insecure":
          return targets(
            (link) => link.to.startsWith("http:"),
            () => true,
            limit,
          );
        case "nofollow":
          return targets(
            (link) => link.nofollow,
            (_, page) => page !== undefined && selected.indexable(page),
            limit,
          );
      }
    },
    async unlinkedSitemapPages() {
      const linked = sourcesOf(() => true);
      return site.pages
        .filter((page) => page.inSitemap && page.url !== site.startUrl && !linked.has(page.url))
        .map(withoutText);
    },
  };
}

/** Code-unit order, as the databases compare URLs (SQLite's BINARY, PostgreSQL's "C" collation). */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
