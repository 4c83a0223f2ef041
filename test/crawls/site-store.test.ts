/**
 * SiteStore on SQLite and on PostgreSQL: the facts the site checks read (its source) come back as the crawl stored them
 * (pages through the frontier, links with their page), inlinks are counted from the recorded links, findings
 * replace earlier ones with the crawl's counts by importance, and the mean score rounds.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SiteIssue } from "../../src/analysis/site-checks/site-facts.js";
import { crawlBounds } from "../../src/crawls/crawl-bounds.js";
import type { CrawlPageRow, CrawlRow } from "../../src/crawls/crawl-store.js";
import type { CrawlStores } from "../../src/crawls/crawl-stores.js";
import type { PageFacts } from "../../src/crawls/frontier-store.js";
import { packFingerprint } from "../../src/store/stored-fingerprint.js";
import { databaseKinds, type TestDatabase } from "../helpers/api.js";
import { crawlStoresOn, runningCrawl, siteUrl } from "../helpers/crawl-rows.js";
import { sitePage } from "../helpers/site-page.js";

const url = (path: string) => new URL(path, siteUrl).href;

function issue(check: string, importance: SiteIssue["importance"], count: number): SiteIssue {
  return {
    check,
    category: "seo",
    importance,
    title: `${check} found`,
    message: `${count} found.`,
    count,
    items: [{ url: url(`/${check}`), sources: [siteUrl], fingerprint: `${check}-1` }],
    truncated: Math.max(0, count - 1),
    findings: Array.from({ length: count }, (_, index) => ({
      url: url(`/${check}/${index}`),
      fingerprint: `${check}-${index + 1}`,
    })),
  };
}

describe.each(databaseKinds)("SiteStore on %s", (kind) => {
  let database: TestDatabase;
  let stores: CrawlStores;
  let userId: number;

  beforeAll(async () => {
    ({ database, stores, userId } = await crawlStoresOn(kind));
  });
  afterAll(async () => database.drop());

  /** Fetches every queued page of the crawl, storing what `pageOf` says of each. */
  async function crawlPages(
    crawl: CrawlRow,
    pageOf: (url: string) => { facts: PageFacts; links: string[] },
  ): Promise<void> {
    for (;;) {
      const claim = await stores.frontier.claim(crawl.id, 0, "9999-01-01T00:00:00.000Z", true);
      if (claim === undefined) return;
      const page = claim as CrawlPageRow;
      const { facts, links } = pageOf(page.url);
      await stores.frontier.completePage(
        crawl.id,
        page,
        facts,
        {
          links: links.map((to) => ({ to, nofollow: false })),
          discovered: links.map((to) => ({ url: to, depth: (page.depth ?? 0) + 1 })),
          bounds: crawlBounds(crawl.max_pages),
        },
        async () => ({ id: page.id + 1000 }),
      );
    }
  }

  it("reads back every fact the site checks judge, links included, and counts inlinks", async () => {
    const crawl = await runningCrawl(stores, userId);
    await stores.frontier.discover(
      crawl.id,
      [
        { url: siteUrl, depth: 0 },
        { url: url("/listed"), depth: null, inSitemap: true },
      ],
      crawlBounds(crawl.max_pages),
    );
    const text = { hash: "abc123".padEnd(64, "0"), minhash: [1, 2, 3, 0xffffffff] };
    await crawlPages(crawl, (at) => {
      if (at === siteUrl) {
        return {
          facts: {
            status_code: 200,
            content_type: "text/html",
            indexable: 1,
            canonical: siteUrl,
            title: "Home",
            meta_description: "The home page",
            text_fingerprint: packFingerprint(text),
            hreflang: JSON.stringify([{ lang: "de", url: url("/de") }]),
            score: 80,
          },
          links: [url("/a"), url("/listed")],
        };
      }
      if (at === url("/a")) {
        return {
          facts: { status_code: 200, noindex: 1, score: 61 },
          links: [siteUrl, url("/a"), url("/listed")],
        };
      }
      return { facts: { status_code: 301, redirect_to: url("/a") }, links: [] };
    });
    await stores.site.countInlinks(crawl.id);
    const source = await stores.site.source(crawl);
    expect(source.startUrl).toBe(siteUrl);
    expect(source.linksLeftOut).toBe(0);
    const pages = await source.pagesAt([siteUrl, url("/listed"), url("/a"), url("/unknown")]);
    expect([...pages.keys()].sort()).toEqual([siteUrl, url("/a"), url("/listed")].sort());
    const home = sitePage(siteUrl, {
      depth: 0,
      canonical: siteUrl,
      title: "Home",
      metaDescription: "The home page",
      hreflang: [{ lang: "de", url: url("/de") }],
    });
    expect(pages.get(siteUrl)).toEqual(home);
    // Only the pages read with their text carry it.
    const texts = [];
    for await (const batch of source.pages("texts")) texts.push(...batch);
    expect(texts).toEqual([{ ...home, text }]);
    expect(pages.get(url("/listed"))).toMatchObject({
      depth: 1,
      inSitemap: true,
      statusCode: 301,
      redirectTo: url("/a"),
    });
    expect(pages.get(url("/a"))).toMatchObject({
      depth: 1,
      noindex: true,
      indexable: false,
      text: null,
      hreflang: [],
    });
    const selected = async (selection: Parameters<typeof source.pages>[0]) => {
      const urls = [];
      for await (const batch of source.pages(selection)) urls.push(...batch.map((page) => page.url));
      return urls;
    };
    expect(await selected("indexable")).toEqual([siteUrl]);
    expect(await selected("sitemap")).toEqual([url("/listed")]);
    expect(await selected("redirects")).toEqual([url("/listed")]);
    expect(await selected("hreflang")).toEqual([siteUrl]);
    expect(await selected("canonicals")).toEqual([]);
    // Links to the redirect from both pages (in crawl order), none counted from /a to itself.
    expect(await source.linkTargets("redirected", 5)).toEqual([
      expect.objectContaining({ url: url("/listed"), sourceCount: 2, sources: [siteUrl, url("/a")] }),
    ]);
    expect(await source.linkTargets("redirected", 1)).toEqual([
      expect.objectContaining({ url: url("/listed"), sourceCount: 2, sources: [siteUrl] }),
    ]);
    expect(await source.linkTargets("broken", 5)).toEqual([]);
    expect(await source.unlinkedSitemapPages()).toEqual([]);
    const counted = () =>
      database.store.db
        .selectFrom("crawl_pages")
        .innerJoin("crawl_page_inlinks", "crawl_page_inlinks.page_id", "crawl_pages.id")
        .select(["url", "inlinks"])
        .where("crawl_id", "=", crawl.id)
        .orderBy("id")
        .execute();
    const inlinks = await counted();
    // A page's link to itself is no inlink.
    expect(inlinks).toEqual([
      { url: siteUrl, inlinks: 1 },
      { url: url("/listed"), inlinks: 2 },
      { url: url("/a"), inlinks: 1 },
    ]);
    // Counted with every linked page as heavy (its sources a slice at a time): the same counts.
    await database.store.db
      .updateTable("crawl_page_inlinks")
      .set({ inlinks: -1 })
      .where("page_id", "in", (eb) =>
        eb.selectFrom("crawl_pages").select("id").where("crawl_id", "=", crawl.id),
      )
      .execute();
    await stores.site.countInlinks(crawl.id, 0);
    expect(await counted()).toEqual(inlinks);
    expect(await stores.site.meanScore(crawl.id)).toBe(71); // (80 + 61) / 2 = 70.5
  });

  it("says how many links the bounds left out", async () => {
    const crawl = await runningCrawl(stores, userId);
    await stores.crawls.update(crawl.id, { links_dropped: 7 });
    expect((await stores.site.source(crawl)).linksLeftOut).toBe(7);
  });

  it("has no mean score before a page is analysed", async () => {
    const crawl = await runningCrawl(stores, userId);
    expect(await stores.site.meanScore(crawl.id)).toBeNull();
  });

  it("stores findings in order, replacing earlier ones, and the crawl's counts by importance", async () => {
    const crawl = await runningCrawl(stores, userId);
    await stores.site.saveIssues(crawl.id, [issue("old-finding", "high", 9)]);
    const findings = [
      issue("broken-links", "high", 3),
      issue("orphan-pages", "low", 2),
      issue("titles", "high", 1),
    ];
    await stores.site.saveIssues(crawl.id, findings);
    const stored = await stores.listings.issues(crawl.id);
    expect(stored.map((row) => [row.position, row.check_id, row.count, row.truncated])).toEqual([
      [0, "broken-links", 3, 2],
      [1, "orphan-pages", 2, 1],
      [2, "titles", 1, 0],
    ]);
    expect(JSON.parse(stored[0]?.items ?? "null")).toEqual(findings[0]?.items);
    const every = await database.store.db
      .selectFrom("crawl_findings")
      .select(["check_id", "position", "fingerprint"])
      .where("crawl_id", "=", crawl.id)
      .orderBy("check_id")
      .orderBy("position")
      .execute();
    expect(every.map((finding) => `${finding.check_id}:${finding.position}:${finding.fingerprint}`)).toEqual([
      "broken-links:0:broken-links-1",
      "broken-links:1:broken-links-2",
      "broken-links:2:broken-links-3",
      "orphan-pages:0:orphan-pages-1",
      "orphan-pages:1:orphan-pages-2",
      "titles:0:titles-1",
    ]);
    const row = (await stores.crawls.find(userId, crawl.id)) as CrawlRow;
    expect([row.issues_high, row.issues_medium, row.issues_low]).toEqual([4, 0, 2]);
    await stores.site.saveIssues(crawl.id, []);
    expect(await stores.listings.issues(crawl.id)).toEqual([]);
    expect(
      await database.store.db
        .selectFrom("crawl_findings")
        .selectAll()
        .where("crawl_id", "=", crawl.id)
        .execute(),
    ).toEqual([]);
    const cleared = (await stores.crawls.find(userId, crawl.id)) as CrawlRow;
    expect([cleared.issues_high, cleared.issues_medium, cleared.issues_low]).toEqual([0, 0, 0]);
  });
  it("keeps staged findings out of the crawl until they are saved, and clears what a cut-off judgement left", async () => {
    const crawl = await runningCrawl(stores, userId);
    const fingerprints = (table: "crawl_findings" | "crawl_findings_staged") =>
      database.store.db
        .selectFrom(table)
        .select(["check_id", "position", "fingerprint"])
        .where("crawl_id", "=", crawl.id)
        .orderBy("check_id")
        .orderBy("position")
        .execute()
        .then((rows) => rows.map((row) => `${row.check_id}:${row.position}:${row.fingerprint}`));
    await stores.site.saveIssues(crawl.id, [issue("old-finding", "high", 1)]);
    // A judgement cut off halfway: its rows are staged, the crawl's findings untouched.
    const cutOff = stores.site.stagedFindings(crawl.id);
    await cutOff.write("broken-links", 0, issue("broken-links", "high", 2).findings);
    expect(await fingerprints("crawl_findings")).toEqual(["old-finding:0:old-finding-1"]);
    // Judged again, beside the leftovers: a failed check's rows are discarded, the rest written in parts.
    const staged = stores.site.stagedFindings(crawl.id);
    const broken = issue("broken-links", "high", 3);
    await staged.write("broken-links", 0, broken.findings.slice(0, 2));
    await staged.write("broken-links", 2, broken.findings.slice(2));
    await staged.write("orphan-pages", 0, issue("orphan-pages", "low", 1).findings);
    await staged.discard("orphan-pages");
    expect(await fingerprints("crawl_findings")).toEqual(["old-finding:0:old-finding-1"]);
    await stores.site.saveIssues(crawl.id, [{ ...broken, findings: [] }], { staged: staged.judgement });
    expect(await fingerprints("crawl_findings")).toEqual([
      "broken-links:0:broken-links-1",
      "broken-links:1:broken-links-2",
      "broken-links:2:broken-links-3",
    ]);
    // The leftovers went with it.
    expect(await fingerprints("crawl_findings_staged")).toEqual([]);
    expect((await stores.listings.issues(crawl.id)).map((row) => [row.check_id, row.count])).toEqual([
      ["broken-links", 3],
    ]);
  });

  it("saves nothing from a judgement whose staged findings a later judgement's saving deleted", async () => {
    const crawl = await runningCrawl(stores, userId);
    const earlier = stores.site.stagedFindings(crawl.id);
    const later = stores.site.stagedFindings(crawl.id);
    const mine = issue("broken-links", "high", 2);
    await earlier.write("broken-links", 0, mine.findings);
    const theirs = issue("orphan-pages", "low", 1);
    await later.write("orphan-pages", 0, theirs.findings);
    await stores.site.saveIssues(crawl.id, [{ ...theirs, findings: [] }], { staged: later.judgement });
    await expect(
      stores.site.saveIssues(crawl.id, [{ ...mine, findings: [] }], { staged: earlier.judgement }),
    ).rejects.toThrow("broken-links staged 0 of its 2 findings");
    expect((await stores.listings.issues(crawl.id)).map((row) => [row.check_id, row.count])).toEqual([
      ["orphan-pages", 1],
    ]);
  });
});
