/**
 * What a crawl keeps of an analysed page, read from its snapshot where the snapshot lives (on the analysis
 * pool's thread for a large page): the facts the site checks need (title, canonical, noindex and indexability,
 * hreflang, the text's fingerprint), the page's links within the crawl's project and the values of the crawl's
 * extraction rules (run over the judged document by `page-work.ts`). The crawl stores them as they are; it never reads the page again.
 * Bounded like a check result's strings: title and meta description cut at `maxResultTextLength` characters, a URL
 * longer than `maxCrawlUrlLength` not kept (`crawlUrl`), anchors at `maxAnchorLength` (docs/api.md, "Response sizes").
 */

import { crawlUrl, inScope } from "./crawl-url.js";
import type { ExtractedValues } from "./extract/extract-values.js";
import type { ExtractionRule } from "./extract/extraction-rules.js";
import { noindexSources } from "./page-facts.js";
import { boundText } from "./result-bounds.js";
import { textFingerprint } from "./site-checks/text-fingerprint.js";
import type { PageSnapshot } from "./snapshot.js";

/** What a crawl asks of each page it analyses: its project (for the links) and its extraction rules. */
export interface CrawlAsk {
  project: string;
  extract: ExtractionRule[];
}

export interface CrawledPage {
  facts: ReturnType<typeof pageFacts>;
  /** Its first `maxLinksPerPage` distinct internal links, in document order. */
  links: Array<{ to: string; nofollow: boolean; anchor: string }>;
  /** Its distinct internal links past `maxLinksPerPage`, counted, not kept. */
  linksLeftOut: number;
  /** The extraction rules' values, in the rules' order (empty without rules). */
  extracted: ExtractedValues;
}

/**
 * The distinct internal links a crawl keeps of one page (and so the URLs one page may add to its frontier): a
 * page of 340,000 links stalled the service's event loop 1.7 s while they crossed from the analysis process and
 * were merged and looked up in the frontier. The rest are counted (`linksLeftOut`: the page's outlinks and the
 * crawl's `links_dropped` include them), here, in the analysis process.
 */
export const maxLinksPerPage = 10_000;

/** The anchor text a link keeps (the crawl's links export), in characters. */
export const maxAnchorLength = 100;

/** The page's crawl facts; `extracted` are the values of the crawl's rules (`extractValues`, run beside this). */
export function crawledPageOf(
  snapshot: PageSnapshot,
  project: string,
  extracted: ExtractedValues = [],
): CrawledPage {
  return { facts: pageFacts(snapshot), ...internalLinks(snapshot, project), extracted };
}

/** What the site checks need from one analysed page. */
function pageFacts(snapshot: PageSnapshot) {
  const document = snapshot.document;
  const canonicalLink = document.links.find((link) => link.inHead && link.rel.includes("canonical"));
  const metaRobots = document.metas
    .filter((meta) => meta.inHead && (meta.name ?? "").toLowerCase() === "robots")
    .map((meta) => (meta.content ?? "").toLowerCase());
  const noindex = noindexSources(snapshot).length > 0;
  return {
    title: boundedText(document.titles[0]?.replace(/\s+/g, " ").trim()),
    metaDescription: boundedText(
      document.metas
        .find((meta) => meta.inHead && (meta.name ?? "").toLowerCase() === "description")
        ?.content?.trim(),
    ),
    canonical: canonicalLink?.href ? crawlUrl(canonicalLink.href) : null,
    noindex,
    /** A 200 that no robots directive keeps out of the index. */
    indexable: snapshot.response.status === 200 && !noindex,
    nofollowPage: metaRobots.some((content) => /\b(nofollow|none)\b/.test(content)),
    hreflang: document.links
      .filter((link) => link.inHead && link.rel.includes("alternate") && link.hreflang && link.href)
      .map((link) => ({ lang: (link.hreflang as string).toLowerCase(), url: crawlUrl(link.href as string) }))
      .filter((alternate): alternate is { lang: string; url: string } => alternate.url !== null),
    text: textFingerprint(document.text),
  };
}

/** Page text as a crawl keeps it: null when empty, else cut like a check result's strings. */
function boundedText(text: string | undefined): string | null {
  return text ? boundText(text) : null;
}

/**
 * The page's `<a href>` links to URLs of the crawl's project, each once: nofollow when every anchor to the URL
 * is, with the first non-empty anchor text (cut at `maxAnchorLength`); the first `maxLinksPerPage` of them, and
 * how many more there are.
 */
function internalLinks(snapshot: PageSnapshot, project: string): Pick<CrawledPage, "links" | "linksLeftOut"> {
  const links = new Map<string, { to: string; nofollow: boolean; anchor: string }>();
  const leftOut = new Set<string>();
  for (const anchor of snapshot.document.anchors) {
    if (anchor.href === null) continue;
    const to = crawlUrl(anchor.href);
    if (!to || !inScope(to, project)) continue;
    const nofollow = anchor.rel.includes("nofollow");
    const text = anchor.text.trim().slice(0, maxAnchorLength);
    const known = links.get(to);
    if (!known && links.size >= maxLinksPerPage) leftOut.add(to);
    else if (!known) links.set(to, { to, nofollow, anchor: text });
    else {
      known.nofollow &&= nofollow;
      if (known.anchor === "") known.anchor = text;
    }
  }
  return { links: [...links.values()], linksLeftOut: leftOut.size };
}
