/**
 * What a crawl stores of an analysed page, from what the analysis returned for it: its response and the facts
 * read where the page was parsed (`CrawledPage`) as the page's frontier columns, its internal links, and the URLs
 * it adds to the frontier (the links it follows one click deeper, or listed beyond the depth limit; its canonical
 * and hreflang alternates within the crawl's project, at no depth; none in list mode, which analyses its list
 * only), and the values of the crawl's extraction rules (its failed and warned checks are `failedChecksOf`'s).
 * A pure function: nothing here reads the page.
 */
import { inScope } from "../analysis/crawl-url.js";
import type { CrawledPage } from "../analysis/crawled-page.js";
import type { ResponseFacts } from "../analysis/snapshot.js";
import { packFingerprint } from "../store/stored-fingerprint.js";
import type { CrawlPageRow, CrawlRow } from "./crawl-store.js";
import type { FrontierEntry, PageFacts } from "./frontier-store.js";

export interface PageRecord {
  facts: PageFacts;
  links: CrawledPage["links"];
  /** Links past those the analysis kept (`maxLinksPerPage`): counted as dropped. */
  linksLeftOut: number;
  discovered: FrontierEntry[];
}

export function pageRecordOf(
  page: Pick<CrawlPageRow, "depth">,
  crawl: Pick<CrawlRow, "max_depth" | "project" | "urls" | "extract">,
  analysed: {
    response: ResponseFacts;
    crawled: CrawledPage;
    report: { score: number; result: string };
  },
): PageRecord {
  const { response, crawled, report } = analysed;
  const { facts, links } = crawled;
  const discovered: FrontierEntry[] = [];
  const listMode = crawl.urls !== null;
  // A page known only from a sitemap (depth null) gives its links no depth either: no click path is known.
  // Those of a page at the depth limit are listed as excluded by it.
  if (!facts.nofollowPage && !listMode) {
    const depth = page.depth === null ? null : page.depth + 1;
    const beyondDepth = page.depth !== null && page.depth >= crawl.max_depth;
    for (const link of links) if (!link.nofollow) discovered.push({ url: link.to, depth, beyondDepth });
  }
  for (const url of listMode ? [] : [facts.canonical, ...facts.hreflang.map((alternate) => alternate.url)]) {
    if (url && inScope(url, crawl.project)) discovered.push({ url, depth: null });
  }
  const stored: PageFacts = {
    status_code: response.status,
    content_type: response.mediaType,
    indexable: facts.indexable ? 1 : 0,
    noindex: facts.noindex ? 1 : 0,
    canonical: facts.canonical,
    title: facts.title,
    meta_description: facts.metaDescription,
    text_fingerprint: facts.text ? packFingerprint(facts.text) : null,
    hreflang: JSON.stringify(facts.hreflang),
    outlinks: links.length + crawled.linksLeftOut,
    score: report.score,
    result: report.result,
    extracted: crawl.extract === "[]" ? null : JSON.stringify(crawled.extracted),
  };
  return { facts: stored, links, linksLeftOut: crawled.linksLeftOut, discovered };
}
