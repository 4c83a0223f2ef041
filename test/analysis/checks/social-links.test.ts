import { describe, expect, it } from "vitest";
import { socialLinks } from "../../../src/analysis/checks/social-links.js";
import { doc, pageFrom, run } from "../../helpers/page.js";

describe("social-links", () => {
  it("passes links to profiles", () => {
    const result = run(
      socialLinks,
      pageFrom(doc('<a href="https://www.instagram.com/brand">i</a><a href="https://x.com/brand">x</a>')),
    );
    expect(result.status).toBe("pass");
    expect(result.value).toEqual(["Instagram", "X"]);
  });
  it("reports info without profiles; share buttons and bare hosts are not profiles", () => {
    const result = run(
      socialLinks,
      pageFrom(
        doc(
          '<a href="https://www.facebook.com/sharer/sharer.php?u=x">share</a><a href="https://twitter.com/intent/tweet">t</a><a href="https://youtube.com/">y</a>',
        ),
      ),
    );
    expect(result.status).toBe("info");
  });
});
