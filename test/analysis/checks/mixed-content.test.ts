import { describe, expect, it } from "vitest";
import { mixedContent } from "../../../src/analysis/checks/mixed-content.js";
import { doc, pageFrom, run } from "../../helpers/page.js";

describe("mixed-content", () => {
  it("passes https and relative resources", () => {
    expect(
      run(
        mixedContent,
        pageFrom(
          doc(
            '<img src="/a.png"><script src="https://cdn.x/a.js"></script><a href="http://x.org">a link is fine</a>',
          ),
        ),
      ).status,
    ).toBe("pass");
  });
  it("fails and lists http scripts, styles, images, srcset candidates, frames and media", () => {
    const html = doc(
      '<img src="/a.png" srcset="http://x.org/a,1.png 2x, /b.png 3x"><iframe src="http://x.org/f"></iframe><video src="http://x.org/v.mp4"></video>',
      '<script src="http://x.org/a.js"></script><link rel="stylesheet" href="http://x.org/s.css">',
    );
    const result = run(mixedContent, pageFrom(html));
    expect(result.status).toBe("fail");
    expect(result.items?.map((item) => item.url).sort()).toEqual(
      [
        "http://x.org/a,1.png",
        "http://x.org/a.js",
        "http://x.org/f",
        "http://x.org/s.css",
        "http://x.org/v.mp4",
      ].sort(),
    );
  });
  it("does not apply to http pages", () => {
    expect(run(mixedContent, pageFrom(doc(""), { url: "http://example.com/" })).status).toBe("na");
  });
});
