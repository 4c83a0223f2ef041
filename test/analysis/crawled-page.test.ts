/**
 * crawledPageOf: what a crawl keeps of a page, read from its snapshot: the facts the site checks need (indexable
 * only for a 200 without noindex, from a meta tag or the header) and the page's links within the project, each
 * once, nofollow only when every link to the URL says so; at most `maxLinksPerPage` of them, the rest counted.
 */
import { describe, expect, it } from "vitest";
import { maxCrawlUrlLength } from "../../src/analysis/crawl-url.js";
import { crawledPageOf, maxLinksPerPage } from "../../src/analysis/crawled-page.js";
import { maxResultTextLength } from "../../src/analysis/result-bounds.js";
import { doc, pageFrom } from "../helpers/page.js";

const url = "https://site.example/guide/";

describe("crawledPageOf", () => {
  it("reads the page's facts and its links within the project", () => {
    const html = doc(
      `<a href="/a">A</a><a href="/a#part" rel="nofollow">A again</a><a href="/b" rel="nofollow">B</a>
       <a href="https://www.site.example/c">C</a><a href="https://other.example/">out</a>
       <a href="mailto:me@site.example">mail</a><p>${"Words of the page. ".repeat(40)}</p>`,
      `<title> The   guide </title><meta name="description" content=" All of it ">
       <link rel="canonical" href="https://site.example/guide/#top">
       <link rel="alternate" hreflang="DE" href="/de/guide/">`,
    );
    const { facts, links } = crawledPageOf(pageFrom(html, { url }), "site.example");
    expect(facts).toMatchObject({
      title: "The guide",
      metaDescription: "All of it",
      canonical: "https://site.example/guide/",
      noindex: false,
      indexable: true,
      nofollowPage: false,
      hreflang: [{ lang: "de", url: "https://site.example/de/guide/" }],
    });
    expect(facts.text?.hash).toMatch(/./);
    expect(links).toEqual([
      { to: "https://site.example/a", nofollow: false, anchor: "A" },
      { to: "https://site.example/b", nofollow: true, anchor: "B" },
      { to: "https://www.site.example/c", nofollow: false, anchor: "C" },
    ]);
  });

  it.each([
    ["a 200 page", doc("<p>Hi</p>"), {}, true],
    ["a noindex meta tag", doc("<p>Hi</p>", '<meta name="robots" content="noindex, nofollow">'), {}, false],
    ["an X-Robots-Tag header", doc("<p>Hi</p>"), { headers: { "x-robots-tag": "noindex" } }, false],
    ["a 404 page", doc("<p>Hi</p>"), { response: { status: 404 } }, false],
  ] as const)("gives indexable for %s: %s", (_, html, options, indexable) => {
    const { facts } = crawledPageOf(pageFrom(html, { url, ...options }), "site.example");
    expect(facts.indexable).toBe(indexable);
    expect(facts.noindex).toBe(!indexable && !("response" in options));
  });

  it("marks a page whose meta robots says nofollow or none", () => {
    const html = doc('<a href="/a">A</a>', '<meta name="robots" content="none">');
    expect(crawledPageOf(pageFrom(html, { url }), "site.example").facts.nofollowPage).toBe(true);
  });

  it(`keeps a page's first ${maxLinksPerPage} distinct links and counts the rest`, () => {
    const anchors = Array.from({ length: maxLinksPerPage + 500 }, (_, i) => `<a href="/${i}">${i}</a>`);
    const html = doc(`${anchors.join("")}<a href="/0">again</a><a href="/${maxLinksPerPage + 1}">again</a>`);
    const { links, linksLeftOut } = crawledPageOf(pageFrom(html, { url }), "site.example");
    expect(links).toHaveLength(maxLinksPerPage);
    expect(links.at(-1)?.to).toBe(`https://site.example/${maxLinksPerPage - 1}`);
    expect(linksLeftOut).toBe(500);
  });

  it(`keeps no URL longer than ${maxCrawlUrlLength} characters and cuts a title like a check's strings`, () => {
    const base = "https://site.example/";
    const longest = `/${"p".repeat(maxCrawlUrlLength - base.length)}`;
    const tooLong = `/${"q".repeat(maxCrawlUrlLength - base.length + 1)}`;
    const html = doc(
      `<a href="${longest}">fits</a><a href="${tooLong}">too long</a><a href="/${"é".repeat(maxCrawlUrlLength)}">encoded</a>`,
      `<title>${"T".repeat(2 * maxResultTextLength)}</title><meta name="description" content="${"d".repeat(2 * maxResultTextLength)}">
       <link rel="canonical" href="${tooLong}"><link rel="alternate" hreflang="de" href="${tooLong}">`,
    );
    const { facts, links, linksLeftOut } = crawledPageOf(pageFrom(html, { url }), "site.example");
    expect(links.map((link) => link.to)).toEqual([`https://site.example${longest}`]);
    expect(links[0]?.to).toHaveLength(maxCrawlUrlLength);
    expect(linksLeftOut).toBe(0);
    expect(facts.canonical).toBeNull();
    expect(facts.hreflang).toEqual([]);
    expect(facts.title).toHaveLength(maxResultTextLength);
    expect(facts.title?.endsWith("T…")).toBe(true);
    expect(facts.metaDescription).toHaveLength(maxResultTextLength);
  });
});
