import { describe, expect, it } from "vitest";
import { parseSrcset } from "../../src/analysis/srcset.js";

describe("parseSrcset", () => {
  it("splits candidates on the comma-space grammar, keeping commas inside URLs", () => {
    expect(parseSrcset("/a.jpg 1x, /b.jpg 2x")).toEqual(["/a.jpg", "/b.jpg"]);
    expect(parseSrcset("https://cdn.x/w_100,h_100/a.jpg 100w, https://cdn.x/w_200,h_200/a.jpg 200w")).toEqual(
      ["https://cdn.x/w_100,h_100/a.jpg", "https://cdn.x/w_200,h_200/a.jpg"],
    );
    expect(parseSrcset("/a.jpg,/b.jpg 2x")).toEqual(["/a.jpg,/b.jpg"]);
    expect(parseSrcset("/a.jpg, /b.jpg")).toEqual(["/a.jpg", "/b.jpg"]);
    expect(parseSrcset("  ")).toEqual([]);
  });
});
