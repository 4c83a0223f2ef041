import { describe, expect, it } from "vitest";
import { socialPreview } from "../../../src/analysis/checks/social-preview.js";
import { doc, pageFrom, run } from "../../helpers/page.js";

const og = (property: string, content: string) => `<meta property="${property}" content="${content}">`;
const complete =
  og("og:title", "T") + og("og:description", "D") + og("og:image", "https://example.com/i.png");

describe("social-preview", () => {
  it("passes complete Open Graph tags (X falls back to them)", () => {
    expect(run(socialPreview, pageFrom(doc("", complete))).status).toBe("pass");
  });
  it("warns and names what is missing, including a relative image", () => {
    const result = run(socialPreview, pageFrom(doc("", og("og:title", "T") + og("og:image", "/i.png"))));
    expect(result.status).toBe("warn");
    expect(result.items?.map((item) => item.missing)).toEqual([
      "og:description",
      "an absolute og:image URL",
      "twitter:card",
    ]);
  });
  it("fails without any tag", () => {
    expect(run(socialPreview, pageFrom(doc(""))).status).toBe("fail");
  });
});
