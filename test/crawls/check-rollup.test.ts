/**
 * The roll-up's pure rules: a page's URL pattern, the priority formula (rounded half up in integers), the order
 * of the roll-up, which results a crawl keeps of a page, and the CSV fields (quoting, formulas neutralised).
 */
import { describe, expect, it } from "vitest";
import { priorityOf, rollupOf } from "../../src/crawls/check-rollup.js";
import { csvField, csvLine } from "../../src/crawls/csv.js";
import { itemDetail } from "../../src/crawls/findings-present.js";
import { checkEvidence, failedChecksOf, urlTemplate } from "../../src/crawls/page-checks.js";

describe("urlTemplate", () => {
  it.each([
    ["https://site.example/", "/"],
    ["https://site.example/?page=2", "/"],
    ["https://site.example/about", "/about"],
    ["https://site.example/about?x=1", "/about"],
    ["https://site.example/blog/", "/blog/*"],
    ["https://site.example/blog/2024/post", "/blog/*"],
    ["https://site.example/shop/a", "/shop/*"],
  ])("%s → %s", (url, pattern) => {
    expect(urlTemplate(url)).toBe(pattern);
  });
});

describe("priorityOf", () => {
  it("weighs importance × (fail + warn / 2), rounded half up", () => {
    expect(priorityOf("high", 120, 0)).toBe(1200);
    expect(priorityOf("medium", 3, 1)).toBe(18); // 5 × 3.5 = 17.5
    expect(priorityOf("low", 0, 1)).toBe(1); // 0.5
    expect(priorityOf("low", 2, 3)).toBe(4); // 3.5
    expect(priorityOf("info", 10, 10)).toBe(0);
  });
});

describe("rollupOf", () => {
  it("orders by priority, then check id, with the catalogue's category and importance", () => {
    const rows = rollupOf([
      { check_id: "title", fail: 1, warn: 0 },
      { check_id: "image-alt", fail: 1, warn: 0 },
      { check_id: "inline-css", fail: 0, warn: 30 },
    ]);
    expect(rows.map((row) => [row.check, row.priority])).toEqual([
      ["inline-css", 15],
      ["image-alt", 10],
      ["title", 10],
    ]);
    expect(rows[1]).toMatchObject({ category: "seo", importance: "high", pages: 1 });
  });
});

describe("failedChecksOf and checkEvidence", () => {
  it("keeps failed and warned checks; their evidence is the message and first five items", () => {
    const items = Array.from({ length: 8 }, (_, index) => ({ src: `/${index}.png` }));
    const result = (status: string, details?: { items: typeof items; truncated: number }) =>
      ({
        category: "seo",
        importance: "high",
        status,
        passed: null,
        value: null,
        message: status,
        details,
      }) as never;
    const kept = failedChecksOf({
      a: result("pass"),
      b: result("fail", { items, truncated: 0 }),
      c: result("warn"),
      d: result("na"),
      e: result("error"),
    });
    expect(kept.map((check) => [check.check, check.status])).toEqual([
      ["b", "fail"],
      ["c", "warn"],
    ]);
    const results = {
      b: result("fail", { items, truncated: 0 }),
      c: result("warn"),
    };
    expect(JSON.parse(checkEvidence(results, "b").items)).toEqual(items.slice(0, 5));
    expect(checkEvidence(results, "b").message).toBe("fail");
    expect(checkEvidence(results, "c")).toEqual({ message: "warn", items: "[]" });
    // Results no longer stored (the report deleted): listed without evidence.
    expect(checkEvidence(null, "b")).toEqual({ message: "", items: "[]" });
  });
});

describe("CSV fields", () => {
  it("quotes what needs it and neutralises formulas", () => {
    expect(csvLine(["a", 'say "hi"', "x,y", null, 3, true])).toBe('a,"say ""hi""","x,y",,3,true\r\n');
    expect(csvField("=SUM(A1)")).toBe("'=SUM(A1)");
    expect(csvField("-1")).toBe("'-1");
    expect(csvField("\tx")).toBe("'\tx");
    expect(csvField({ a: 1 })).toBe('"{""a"":1}"');
  });

  it("quotes a semicolon and neutralises every ;-separated segment (a spreadsheet splitting on ; sees no formula)", () => {
    expect(csvField("x;=3+3")).toBe(`"x;'=3+3"`);
    expect(csvField("a;b")).toBe(`"a;b"`);
    expect(csvField("=1;+2;@SUM(A1);-3;\tx")).toBe(`"'=1;'+2;'@SUM(A1);'-3;'\tx"`);
    expect(csvField("line\nbreak;=cmd|' /C calc'!A0")).toBe(`"line\nbreak;'=cmd|' /C calc'!A0"`);
    expect(csvField("plain text")).toBe("plain text");
  });

  it("describes an item by what is not its URLs", () => {
    expect(itemDetail({ url: "u", status: 404, error: null, links: 3, sources: ["s"] })).toBe("status: 404");
    expect(itemDetail({ url: "u", chain: ["a", "b"], loop: false })).toBe("chain: a → b; loop: false");
    expect(itemDetail({ title: "Same", pages: ["a", "b"] })).toBe("title: Same");
  });
});
