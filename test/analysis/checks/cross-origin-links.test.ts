import { describe, expect, it } from "vitest";
import { crossOriginLinks } from "../../../src/analysis/checks/cross-origin-links.js";
import { doc, pageFrom, run } from "../../helpers/page.js";

describe("cross-origin-links", () => {
  it("passes external new-tab links with noopener or noreferrer", () => {
    expect(
      run(
        crossOriginLinks,
        pageFrom(
          doc(
            '<a href="https://x.org" target="_blank" rel="noopener">x</a><a href="https://y.org" target="_blank" rel="noreferrer">y</a>',
          ),
        ),
      ).status,
    ).toBe("pass");
  });
  it("warns and lists unsafe ones, ignoring internal links", () => {
    const result = run(
      crossOriginLinks,
      pageFrom(doc('<a href="https://x.org" target="_blank">x</a><a href="/in" target="_blank">in</a>')),
    );
    expect(result.status).toBe("warn");
    expect(result.items?.map((item) => item.href)).toEqual(["https://x.org/"]);
  });
  it("does not apply without external new-tab links", () => {
    expect(run(crossOriginLinks, pageFrom(doc('<a href="https://x.org">x</a>'))).status).toBe("na");
  });
});
