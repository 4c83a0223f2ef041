import { describe, expect, it } from "vitest";
import { linkCount } from "../../../src/analysis/checks/link-count.js";
import { doc, pageFrom, run } from "../../helpers/page.js";

describe("link-count", () => {
  it("passes and counts internal, external and nofollow links", () => {
    const result = run(
      linkCount,
      pageFrom(
        doc(
          '<a href="/a">a</a><a href="https://www.example.com/b">b</a><a href="https://other.org/" rel="nofollow">c</a><a href="mailto:x@y.z">m</a>',
        ),
      ),
    );
    expect(result.status).toBe("pass");
    expect(result.value).toEqual({ total: 3, internal: 2, external: 1, nofollow: 1 });
  });
  it("warns above the limit", () => {
    const links = Array.from({ length: 151 }, (_, i) => `<a href="/p${i}">p</a>`).join("");
    expect(run(linkCount, pageFrom(doc(links))).status).toBe("warn");
  });
});
