import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { crawlableLinks } from "../../../src/analysis/checks/crawlable-links.js";
import { doc, pageFrom, run } from "../../helpers/page.js";

const fixture = readFileSync(new URL("../../fixtures/pages/crawlable-links.html", import.meta.url), "utf8");
/** The fixture without its paragraph of uncrawlable links. */
const followableOnly = fixture.replace(/<p id="uncrawlable">[\s\S]*?<\/p>/, "");

describe("crawlable-links", () => {
  it("passes followable hrefs", () => {
    expect(
      run(
        crawlableLinks,
        pageFrom(doc('<a href="/a">a</a><a href="#top">top</a><a href="https://x.org">x</a>')),
      ).status,
    ).toBe("pass");
  });
  it("passes an empty href (the page itself), placeholders and <a role=button>", () => {
    const result = run(crawlableLinks, pageFrom(followableOnly, { url: "https://example.com/guide" }));
    expect(result.status).toBe("pass");
    expect(result.message).toBe("All 3 links can be crawled.");
  });
  it("fails <a> used as a link without href, and javascript: URLs", () => {
    const result = run(crawlableLinks, pageFrom(fixture, { url: "https://example.com/guide" }));
    expect(result.status).toBe("fail");
    expect(result.message).toBe("3 links cannot be crawled (no href, though the element is used as a link).");
    expect(result.items?.map((item) => [item.problem, item.html])).toEqual([
      ["no href, though the element is used as a link", '<a target="_blank" rel="noopener" class="share">'],
      ["no href, though the element is used as a link", `<a onclick="location.href='/next'">`],
      ["javascript: URL", '<a href="javascript:showProducts()">'],
    ]);
  });
  it("fails and names javascript: and invalid hrefs, not empty ones", () => {
    const result = run(
      crawlableLinks,
      pageFrom(doc('<a href="">a</a><a href="javascript:void(0)">b</a><a href="http://[bad">c</a>')),
    );
    expect(result.status).toBe("fail");
    expect(result.items?.map((item) => item.problem)).toEqual(["javascript: URL", "not a valid URL"]);
  });
  it("fails an href-less <a> meant as a link even with an id (Lighthouse skips it as a fragment target)", () => {
    // As on two corpus pages: a close button and a share link, each an <a> with an id and no href.
    const result = run(
      crawlableLinks,
      pageFrom(doc('<a id="pin_close" onclick="hide()">x</a><a id="center-link" target="_blank">Go</a>')),
    );
    expect(result.items?.map((item) => item.html)).toEqual([
      '<a id="pin_close" onclick="hide()">',
      '<a id="center-link" target="_blank">',
    ]);
  });
  it("does not apply without links", () => {
    expect(run(crawlableLinks, pageFrom(doc("<a>no href</a>"))).status).toBe("na");
  });
});
