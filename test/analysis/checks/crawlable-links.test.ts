import { describe, expect, it } from "vitest";
import { crawlableLinks } from "../../../src/analysis/checks/crawlable-links.js";
import { doc, pageFrom, run } from "../../helpers/page.js";

describe("crawlable-links", () => {
  it("passes followable hrefs", () => {
    expect(
      run(
        crawlableLinks,
        pageFrom(doc('<a href="/a">a</a><a href="#top">top</a><a href="https://x.org">x</a>')),
      ).status,
    ).toBe("pass");
  });
  it("fails and names empty, javascript: and invalid hrefs", () => {
    const result = run(
      crawlableLinks,
      pageFrom(doc('<a href="">a</a><a href="javascript:void(0)">b</a><a href="http://[bad">c</a>')),
    );
    expect(result.status).toBe("fail");
    expect(result.items?.map((item) => item.problem)).toEqual([
      "empty href",
      "javascript: URL",
      "not a valid URL",
    ]);
  });
  it("does not apply without links", () => {
    expect(run(crawlableLinks, pageFrom(doc("<a>no href</a>"))).status).toBe("na");
  });
});
