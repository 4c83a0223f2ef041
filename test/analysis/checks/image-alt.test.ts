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
});
