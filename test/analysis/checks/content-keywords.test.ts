import { describe, expect, it } from "vitest";
import { contentKeywords } from "../../../src/analysis/checks/content-keywords.js";
import { doc, pageFrom, run } from "../../helpers/page.js";

describe("content-keywords", () => {
  it("passes when the title's words appear in the text", () => {
    const result = run(
      contentKeywords,
      pageFrom(
        doc(
          "<p>Our bicycle repair shop fixes any bike.</p>",
          "<title>The Bicycle Repair Shop | Home</title>",
        ),
      ),
    );
    expect(result.status).toBe("pass");
    expect(result.value).toEqual({ found: ["bicycle", "repair", "shop"], missing: [] });
  });
  it("fails when none appear, ignoring stop words", () => {
    const result = run(
      contentKeywords,
      pageFrom(doc("<p>The and of the welcome.</p>", "<title>The Bicycle Repair Shop</title>")),
    );
    expect(result.status).toBe("fail");
    expect(result.items?.map((item) => item.keyword)).toEqual(["bicycle", "repair", "shop"]);
  });
  it("segments titles in scripts written without spaces", () => {
    const page = pageFrom(doc("<p>東京の天気予報をお届けします。</p>", "<title>東京の天気</title>"));
    expect(run(contentKeywords, page).status).toBe("pass");
  });
  it("does not apply to a title of stop words only", () => {
    expect(run(contentKeywords, pageFrom(doc("<p>x</p>", "<title>Welcome home</title>"))).status).toBe("na");
  });
});
