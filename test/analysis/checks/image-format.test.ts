import { describe, expect, it } from "vitest";
import { imageFormat } from "../../../src/analysis/checks/image-format.js";
import { doc, pageFrom, run } from "../../helpers/page.js";

describe("image-format", () => {
  it("passes AVIF, WebP, SVG, pictures offering modern sources and negotiating CDNs", () => {
    const html = doc(
      '<img src="/a.avif"><img src="/b.webp"><img src="/c.svg"><picture><source type="image/avif" srcset="/d.avif"><img src="/d.jpg"></picture><img src="https://cdn.example.com/e.jpg?auto=format&w=400">',
    );
    expect(run(imageFormat, pageFrom(html)).status).toBe("pass");
  });
  it("warns and lists JPEG, PNG and GIF images", () => {
    const result = run(
      imageFormat,
      pageFrom(doc('<img src="/a.JPG"><img src="/b.png?v=2"><img src="/c.webp">')),
    );
    expect(result.status).toBe("warn");
    expect(result.items?.map((item) => item.src)).toEqual([
      "https://example.com/a.JPG",
      "https://example.com/b.png?v=2",
    ]);
  });
  it("does not apply without images loaded by URL", () => {
    expect(run(imageFormat, pageFrom(doc('<img src="data:image/png;base64,AA==">'))).status).toBe("na");
  });
});
