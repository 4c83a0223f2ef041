import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { linkText } from "../../../src/analysis/checks/link-text.js";
import { doc, pageFrom, run } from "../../helpers/page.js";

describe("link-text", () => {
  it("passes descriptive texts and ignores nofollow links", () => {
    expect(
      run(
        linkText,
        pageFrom(doc('<a href="/pricing">Pricing for teams</a><a href="/x" rel="nofollow">click here</a>')),
      ).status,
    ).toBe("pass");
  });
  it("warns on generic texts in several languages", () => {
    const result = run(
      linkText,
      pageFrom(
        doc(
          '<a href="/a">Click here</a><a href="/b">Read more…</a><a href="/c">Lire la suite</a><a href="/d">Weiterlesen</a>',
        ),
      ),
    );
    expect(result.status).toBe("warn");
    expect(result.value).toBe(4);
  });
  it("judges the text search engines read, not an aria-label over it", () => {
    // As on a news site's navigation: the visible text is "More", the label only names it for screen readers.
    const result = run(
      linkText,
      pageFrom(
        doc('<a href="https://news.example/more" aria-label="More News" class="subnav__link">More</a>'),
      ),
    );
    expect(result.status).toBe("warn");
    expect(result.items).toEqual([{ text: "More", href: "https://news.example/more" }]);
  });
  it("reads the title attribute, and not aria-label, for a link without text", () => {
    // As on a magazine's article page: an empty "read more" link named only for screen readers.
    const page = doc(
      '<a href="/a" title="more"><svg></svg></a><a href="/b" class="article-read-more-link" aria-label="Read More"></a>',
    );
    const result = run(linkText, pageFrom(page));
    expect(result.items).toEqual([{ text: "more", href: "https://example.com/a" }]);
  });
  it('warns on a bare "information" and on Japanese generic texts', () => {
    // As on a civil-liberties article (a citation linked as "information") and a Japanese agency's footer.
    const english = run(
      linkText,
      pageFrom(doc('<a href="https://en.wikipedia.org/wiki/HTTP_referer">information</a>')),
    );
    expect(english.status).toBe("warn");
    const japanese = run(
      linkText,
      pageFrom(
        '<html lang="ja"><body><a href="/about/links/index.html">リンク</a><a href="/x">続きを読む</a></body></html>',
      ),
    );
    expect(japanese.items).toEqual([
      { text: "リンク", href: "https://example.com/about/links/index.html" },
      { text: "続きを読む", href: "https://example.com/x" },
    ]);
  });
  it("does not apply without followed links", () => {
    expect(run(linkText, pageFrom(doc("<p>x</p>"))).status).toBe("na");
  });
  it("leaves out links to the same page and links hidden from the reader", () => {
    const html = readFileSync(new URL("../../fixtures/pages/link-text.html", import.meta.url), "utf8");
    const url = "https://example.com/links";
    const warned = run(linkText, pageFrom(html, { url }));
    expect(warned.status).toBe("warn");
    expect(warned.items).toEqual([{ text: "Read more", href: "https://example.com/guide" }]);
    const passing = run(
      linkText,
      pageFrom(html.replace('<a href="/guide">Read more</a>', '<a href="/guide">The setup guide</a>'), {
        url,
      }),
    );
    expect(passing.status).toBe("pass");
    expect(passing.message).toBe("All 2 followed links have descriptive text.");
  });
  it("does not apply when every link stays on the page", () => {
    const result = run(linkText, pageFrom(doc('<a href="#top">More</a>'), { url: "https://example.com/a" }));
    expect(result.status).toBe("na");
    expect(result.message).toBe("The page has no visible followed links to other pages.");
  });
});

describe("link-text where pagegrade differs from Lighthouse", () => {
  it("warns on generic words behind decoration and on words only pagegrade lists", () => {
    const html = readFileSync(
      new URL("../../fixtures/pages/generic-link-texts.html", import.meta.url),
      "utf8",
    );
    const result = run(linkText, pageFrom(html));
    expect(result.status).toBe("warn");
    expect(result.items?.map((item) => item.text)).toEqual(["More ›", "Read more…", "Details", "link"]);
    const descriptive = html.replace(/<p><a href="\/archive">[\s\S]*<\/main>/, "</main>");
    expect(run(linkText, pageFrom(descriptive)).status).toBe("pass");
  });
});
