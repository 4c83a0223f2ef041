/**
 * A generated crawl of N pages with every kind of site defect, page by page (so 100,000 pages never sit in
 * memory at once), and its writer straight into a crawl's `crawl_pages` and `crawl_links` rows (no site is
 * fetched). The site is a tree of 10 children per page under https://bench.example/ (so depth grows with N),
 * each page linking to its children, its parent, three navigation pages and two pages across the tree; among
 * them 404s, 5xx, unreachable pages, redirects (single, chains, a loop), http:// links, nofollow links, shared
 * titles and descriptions, identical and near-identical texts, noindex pages, canonicals to bad targets,
 * hreflang alternates without return links, and sitemap-only orphans.
 */
import type { Insertable } from "kysely";
import type { SitePage } from "../../src/analysis/site-checks/site-facts.js";
import type { Database } from "../../src/store/schema.js";
import type { Store } from "../../src/store/store.js";
import { packFingerprint } from "../../src/store/stored-fingerprint.js";
import { sitePage } from "./site-page.js";

export const syntheticOrigin = "https://bench.example";
export const syntheticStart = `${syntheticOrigin}/`;

export interface SyntheticLink {
  to: string;
  nofollow: boolean;
}

const urlOf = (index: number) => (index === 0 ? syntheticStart : `${syntheticOrigin}/p/${index}`);
const orphanUrl = (index: number) => `${syntheticOrigin}/orphan/${index}`;

function depthOf(index: number): number {
  let depth = 0;
  for (let at = index; at > 0; at = Math.floor((at - 1) / 10)) depth++;
  return depth;
}

/** A deterministic 32-bit hash of (seed, slot): the minhash values. */
function mix(seed: number, slot: number): number {
  let hash = (seed * 2654435761 + slot * 40503 + 0x9e3779b9) >>> 0;
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b) >>> 0;
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35) >>> 0;
  return (hash ^ (hash >>> 16)) >>> 0;
}

function textOf(index: number): SitePage["text"] {
  if (index % 97 === 13) return null;
  // Every 100th page copies its neighbour's text; every 150th differs from it in 3 of 64 hashes (≥ 90 %).
  const seed = index % 100 === 1 ? index - 1 : index;
  const minhash = Array.from({ length: 64 }, (_, slot) =>
    index % 150 === 7 && slot >= 61 ? mix(index, slot) : mix(seed, slot),
  );
  // A SHA-256 as hex, as the crawler stores it: one per distinct text.
  return { hash: (index % 150 === 7 ? index : seed).toString(16).padStart(64, "0"), minhash };
}

/** Page `index` of a crawl of `pages` pages (the last `pages / 1000` are orphans known from the sitemap). */
export function syntheticPage(index: number, pages: number): { page: SitePage; links: SyntheticLink[] } {
  const orphans = Math.max(2, Math.floor(pages / 1000));
  const tree = pages - orphans;
  if (index >= tree) {
    const url = orphanUrl(index);
    return {
      page: {
        ...plainPage(url, index),
        depth: null,
        canonical: url,
      },
      links: [],
    };
  }
  const url = urlOf(index);
  const page = plainPage(url, index);
  page.depth = depthOf(index);
  if (index > 0 && index % 200 === 0) Object.assign(page, failed(404));
  else if (index > 0 && index % 331 === 0) Object.assign(page, failed(503));
  else if (index > 0 && index % 1009 === 0) Object.assign(page, failed(null), { error: "timeout" });
  else if (index > 0 && index % 300 === 0) {
    // A redirect to the next page; every 900th goes through the one after it first (a chain).
    Object.assign(page, failed(301), { redirectTo: urlOf(index % 900 === 0 ? index + 1 : index + 2) });
  } else if (index > 0 && index % 900 === 1)
    Object.assign(page, failed(302), { redirectTo: urlOf(index + 1) });
  else if (index === tree - 1 && tree > 10) {
    Object.assign(page, failed(301), { redirectTo: urlOf(tree - 2) });
  } else if (index === tree - 2 && tree > 10) {
    Object.assign(page, failed(301), { redirectTo: urlOf(tree - 1) });
  }
  if (page.statusCode === 200) {
    if (index % 700 === 3) Object.assign(page, { noindex: true, indexable: false });
    if (index % 50 === 5) page.title = `Shared title ${index % 7}`;
    if (index % 60 === 9) page.title = ` shared   TITLE ${index % 7} `;
    if (index % 40 === 11) page.metaDescription = `The same description ${index % 3}`;
    if (index % 400 === 17) page.canonical = urlOf(index - (index % 300));
    if (index % 410 === 19) page.canonical = urlOf(3);
    if (index % 500 === 21) {
      page.hreflang = [
        { lang: "de", url: urlOf(index + 1) },
        { lang: "fr", url: urlOf(200) },
        { lang: "en", url },
      ];
    }
  }
  const links: SyntheticLink[] = [];
  if (page.statusCode === 200) {
    for (let child = index * 10 + 1; child <= index * 10 + 10 && child < tree; child++) {
      links.push({ to: urlOf(child), nofollow: child % 77 === 0 });
    }
    if (index > 0) links.push({ to: urlOf(Math.floor((index - 1) / 10)), nofollow: false });
    for (const nav of [1, 2, 3])
      if (nav < tree && nav !== index) links.push({ to: urlOf(nav), nofollow: false });
    links.push({ to: urlOf((index * 7919 + 11) % tree), nofollow: false });
    links.push({ to: urlOf((index * 104_729 + 5) % tree), nofollow: index % 13 === 0 });
    if (index % 250 === 4) links.push({ to: `http://bench.example/p/${index + 1}`, nofollow: false });
    if (index % 333 === 8) links.push({ to: url, nofollow: false });
  }
  const seen = new Set<string>();
  return { page, links: links.filter((link) => !seen.has(link.to) && seen.add(link.to) !== undefined) };
}

function plainPage(url: string, index: number): SitePage {
  return sitePage(url, {
    depth: null,
    inSitemap: index % 3 !== 2,
    canonical: url,
    title: `Page ${index}`,
    metaDescription: `What page ${index} is about`,
    text: textOf(index),
  });
}

function failed(status: number | null): Partial<SitePage> {
  return {
    statusCode: status,
    contentType: status === null ? null : "text/html",
    indexable: false,
    canonical: null,
    title: null,
    metaDescription: null,
    text: null,
  };
}

/** The `crawl_pages` row of a page. */
export function pageRow(crawlId: number, page: SitePage): Insertable<Database["crawl_pages"]> {
  return {
    crawl_id: crawlId,
    url: page.url,
    depth: page.depth,
    state:
      page.excluded !== null
        ? "excluded"
        : page.statusCode === null && page.error === null
          ? "queued"
          : "done",
    status_code: page.statusCode,
    error: page.error,
    redirect_to: page.redirectTo,
    content_type: page.contentType,
    in_sitemap: page.inSitemap ? 1 : 0,
    disallowed: page.disallowed ? 1 : 0,
    excluded: page.excluded,
    indexable: page.indexable ? 1 : 0,
    noindex: page.noindex ? 1 : 0,
    canonical: page.canonical,
    title: page.title,
    meta_description: page.metaDescription,
    text_fingerprint: page.text ? packFingerprint(page.text) : null,
    hreflang: page.hreflang.length === 0 ? null : JSON.stringify(page.hreflang),
  };
}

/**
 * Writes pages `0 … count - 1` of `pageAt` (and their links) into the crawl, a thousand pages per transaction.
 * Returns how many links were written.
 */
export async function writeCrawl(
  store: Store,
  crawlId: number,
  count: number,
  pageAt: (index: number) => { page: SitePage; links: SyntheticLink[] },
): Promise<number> {
  let written = 0;
  for (let start = 0; start < count; start += 1000) {
    const pages: Insertable<Database["crawl_pages"]>[] = [];
    const outlinks: Array<{ from: string; link: SyntheticLink }> = [];
    for (let index = start; index < Math.min(count, start + 1000); index++) {
      const { page, links: out } = pageAt(index);
      pages.push(pageRow(crawlId, page));
      for (const link of out) outlinks.push({ from: page.url, link });
    }
    written += outlinks.length;
    await store.db.transaction().execute(async (trx) => {
      // A link names its source by the page's id (migration 042).
      const ids = new Map<string, number>();
      for (let at = 0; at < pages.length; at += 200) {
        const rows = await trx
          .insertInto("crawl_pages")
          .values(pages.slice(at, at + 200))
          .returning(["id", "url"])
          .execute();
        for (const row of rows) ids.set(row.url, row.id);
      }
      const links: Insertable<Database["crawl_links"]>[] = outlinks.map(({ from, link }) => ({
        crawl_id: crawlId,
        from_page: ids.get(from) as number,
        to_url: link.to,
        nofollow: link.nofollow ? 1 : 0,
      }));
      for (let at = 0; at < links.length; at += 500) {
        await trx
          .insertInto("crawl_links")
          .values(links.slice(at, at + 500))
          .execute();
      }
    });
  }
  return written;
}
