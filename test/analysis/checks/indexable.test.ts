import { describe, expect, it } from "vitest";
import { indexable } from "../../../src/analysis/checks/indexable.js";
import { doc, pageFrom, run } from "../../helpers/page.js";

describe("indexable", () => {
  it("passes without noindex", () => {
    expect(run(indexable, pageFrom(doc("", '<meta name="robots" content="index, follow">'))).status).toBe(
      "pass",
    );
  });
  it("fails on noindex or none in meta robots, googlebot or bingbot", () => {
    expect(run(indexable, pageFrom(doc("", '<meta name="robots" content="NOINDEX,follow">'))).status).toBe(
      "fail",
    );
    expect(run(indexable, pageFrom(doc("", '<meta name="googlebot" content="none">'))).status).toBe("fail");
  });
  it("reads X-Robots-Tag, including crawler-scoped directives", () => {
    const blocked = run(indexable, pageFrom(doc(""), { headers: { "x-robots-tag": "noindex" } }));
    expect(blocked.status).toBe("fail");
    expect(blocked.items).toEqual([{ source: "X-Robots-Tag: noindex" }]);
    expect(
      run(indexable, pageFrom(doc(""), { headers: { "x-robots-tag": "otherbot: noindex" } })).status,
    ).toBe("pass");
    expect(
      run(indexable, pageFrom(doc(""), { headers: { "x-robots-tag": "googlebot: noindex, nofollow" } }))
        .status,
    ).toBe("fail");
    expect(
      run(indexable, pageFrom(doc(""), { headers: { "x-robots-tag": "unavailable_after: 2030-01-01" } }))
        .status,
    ).toBe("pass");
  });
});
