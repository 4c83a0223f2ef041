import { describe, expect, it } from "vitest";
import { textHtmlRatio } from "../../../src/analysis/checks/text-html-ratio.js";
import { doc, pageFrom, run } from "../../helpers/page.js";

describe("text-html-ratio", () => {
  it("passes text-rich pages and warns on markup-heavy ones", () => {
    expect(run(textHtmlRatio, pageFrom(doc(`<p>${"plain words ".repeat(200)}</p>`))).status).toBe("pass");
    expect(run(textHtmlRatio, pageFrom(doc(`<p>hi</p><script>${"x".repeat(5000)}</script>`))).status).toBe(
      "warn",
    );
  });
});
