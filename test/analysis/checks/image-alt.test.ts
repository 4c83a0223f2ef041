import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { imageAlt } from "../../../src/analysis/checks/image-alt.js";
import { doc, pageFrom, run } from "../../helpers/page.js";

describe("image-alt", () => {
  it("passes images with alt, and decorative ones", () => {
    const page = pageFrom(
      doc(
        '<img src="/a.png" alt="A chart"><img src="/b.png" alt=""><img src="/c.png" role="presentation"><img src="/d.png" aria-hidden="true">',
      ),
    );
    expect(run(imageAlt, page).status).toBe("pass");
  });
  it("fails and lists images without alt", () => {
    const result = run(imageAlt, pageFrom(doc('<img src="/a.png" alt="x"><img src="/b.png">')));
    expect(result.status).toBe("fail");
    expect(result.items).toEqual([{ src: "https://example.com/b.png", html: '<img src="/b.png">' }]);
  });
  it("does not apply without images", () => {
    expect(run(imageAlt, pageFrom(doc("<p>x</p>"))).status).toBe("na");
  });
  it("leaves out images hidden from the reader (hidden, inline display:none), not hidden=until-found", () => {
    const html = readFileSync(new URL("../../fixtures/pages/hidden-images.html", import.meta.url), "utf8");
    const failing = run(imageAlt, pageFrom(html));
    expect(failing.status).toBe("fail");
    expect(failing.message).toBe("1 of 3 images has no alt attribute.");
    expect(failing.items).toEqual([{ src: "https://example.com/chart.png", html: '<img src="/chart.png">' }]);
    const passing = run(
      imageAlt,
      pageFrom(html.replace('<img src="/chart.png">', '<img src="/chart.png" alt="Sales by month">')),
    );
    expect(passing.status).toBe("pass");
    expect(passing.message).toBe("All 3 images have an alt attribute.");
  });
  it("says so when every image is hidden", () => {
    const result = run(imageAlt, pageFrom(doc('<div hidden><img src="/a.png"></div>')));
    expect(result.status).toBe("na");
    expect(result.message).toBe("The page shows no images (1 image hidden).");
  });
  it("fails an alt of only spaces, which is neither empty nor a description", () => {
    const result = run(imageAlt, pageFrom(doc('<img src="/a.png" alt=" "><img src="/b.png" alt="">')));
    expect(result.status).toBe("fail");
    expect(result.message).toBe(
      '1 of 2 images has an alt of only spaces; use alt="" for a decorative image.',
    );
    expect(result.items).toEqual([{ src: "https://example.com/a.png", html: '<img src="/a.png" alt=" ">' }]);
  });
});
