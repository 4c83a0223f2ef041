/**
 * pageRecordOf: what a crawl stores of an analysed page is what the analysis returned, as frontier columns; the
 * URLs it adds follow the page's depth, nofollow and the depth limit; its canonical and hreflang alternates are
 * added at no depth when in the crawl's project.
 */
import { describe, expect, it } from "vitest";
import type { CrawledPage } from "../../src/analysis/crawled-page.js";
import type { ResponseFacts } from "../../src/analysis/snapshot.js";
import { pageRecordOf } from "../../src/crawls/page-record.js";

const crawl = { max_depth: 2, project: "site.example", urls: null, extract: "[]" };
const response = {
  status: 200,
  mediaType: "text/html",
  redirects: [],
} as unknown as ResponseFacts;

function crawledPage(facts: Partial<CrawledPage["facts"]> = {}): CrawledPage {
  return {
    facts: {
      title: "Home",
      metaDescription: "About the site",
      canonical: null,
      noindex: false,
      indexable: true,
      nofollowPage: false,
      hreflang: [],
      text: { hash: "f00df00df00df00df00df00df00df00df00df00df00df00df00df00df00df00d", minhash: [3, 1, 2] },
      ...facts,
    },
    links: [
      { to: "https://site.example/a", nofollow: false, anchor: "A" },
      { to: "https://site.example/b", nofollow: true, anchor: "" },
    ],
    linksLeftOut: 0,
    extracted: [],
  };
}

const report = {
  score: 87,
  result: "good",
  results: { title: { status: "pass" }, "image-alt": { status: "fail" }, "llms-txt": { status: "na" } },
};

describe("pageRecordOf", () => {
  it("stores the analysis's facts and response as they are", () => {
    const record = pageRecordOf({ depth: 0 }, crawl, { response, crawled: crawledPage(), report });
    expect(record.facts).toEqual({
      status_code: 200,
      content_type: "text/html",
      indexable: 1,
      noindex: 0,
      canonical: null,
      title: "Home",
      meta_description: "About the site",
      text_fingerprint: Buffer.concat([
        Buffer.from("f00d".repeat(16), "hex"),
        Buffer.from([0, 0, 0, 3, 0, 0, 0, 1, 0, 0, 0, 2]),
      ]),
      hreflang: "[]",
      outlinks: 2,
      score: 87,
      result: "good",
      extracted: null,
    });
    expect(record.links).toEqual(crawledPage().links);
  });

  it("in list mode adds no URL to the frontier, and stores the rules' values as one array per rule", () => {
    const listCrawl = {
      ...crawl,
      urls: JSON.stringify(["https://site.example/"]),
      extract: JSON.stringify([{ name: "h", selector: "h1" }]),
    };
    const crawled = { ...crawledPage({ canonical: "https://site.example/c" }), extracted: [["Hello"]] };
    const record = pageRecordOf({ depth: 0 }, listCrawl, { response, crawled, report });
    expect(record.discovered).toEqual([]);
    expect(record.links).toEqual(crawledPage().links);
    expect(record.facts.extracted).toBe('[["Hello"]]');
  });

  it("takes indexability from the analysis, not from the status", () => {
    const crawled = crawledPage({ noindex: true, indexable: false, text: null });
    const { facts } = pageRecordOf({ depth: 0 }, crawl, { response, crawled, report });
    expect(facts).toMatchObject({ indexable: 0, noindex: 1, text_fingerprint: null });
  });

  it("adds the followed links one click deeper", () => {
    const { discovered } = pageRecordOf({ depth: 1 }, crawl, { response, crawled: crawledPage(), report });
    expect(discovered).toEqual([{ url: "https://site.example/a", depth: 2, beyondDepth: false }]);
  });

  it("lists the links of a page at the depth limit as beyond it", () => {
    const { discovered } = pageRecordOf({ depth: 2 }, crawl, { response, crawled: crawledPage(), report });
    expect(discovered).toEqual([{ url: "https://site.example/a", depth: 3, beyondDepth: true }]);
  });

  it("gives the links of a page known only from a sitemap no depth", () => {
    const { discovered } = pageRecordOf({ depth: null }, crawl, { response, crawled: crawledPage(), report });
    expect(discovered).toEqual([{ url: "https://site.example/a", depth: null, beyondDepth: false }]);
  });

  it("follows no link of a nofollow page, but records them", () => {
    const crawled = crawledPage({ nofollowPage: true });
    const record = pageRecordOf({ depth: 0 }, crawl, { response, crawled, report });
    expect(record.discovered).toEqual([]);
    expect(record.links).toHaveLength(2);
  });

  it("adds the canonical and hreflang alternates within the project, at no depth", () => {
    const crawled = crawledPage({
      nofollowPage: true,
      canonical: "https://www.site.example/",
      hreflang: [
        { lang: "de", url: "https://site.example/de/" },
        { lang: "fr", url: "https://other.example/fr/" },
      ],
    });
    const record = pageRecordOf({ depth: 0 }, crawl, { response, crawled, report });
    expect(record.discovered).toEqual([
      { url: "https://www.site.example/", depth: null },
      { url: "https://site.example/de/", depth: null },
    ]);
    expect(JSON.parse(record.facts.hreflang as string)).toEqual(crawled.facts.hreflang);
  });
});
