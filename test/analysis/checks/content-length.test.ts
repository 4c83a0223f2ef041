import { describe, expect, it } from "vitest";
import { contentLength } from "../../../src/analysis/checks/content-length.js";
import { doc, pageFrom, run } from "../../helpers/page.js";

const words = (count: number) =>
  doc(`<p>${"word ".repeat(count)}</p><script>${"notvisible ".repeat(500)}</script>`);

describe("content-length", () => {
  it("passes 300 words, warns from 100, fails below; scripts do not count", () => {
    expect(run(contentLength, pageFrom(words(300))).status).toBe("pass");
    expect(run(contentLength, pageFrom(words(299))).status).toBe("warn");
    expect(run(contentLength, pageFrom(words(100))).status).toBe("warn");
    expect(run(contentLength, pageFrom(words(99))).status).toBe("fail");
  });
  it("counts unspaced scripts at two characters a word", () => {
    expect(run(contentLength, pageFrom(doc(`<p>${"天気".repeat(300)}</p>`))).value).toBe(300);
  });
});
