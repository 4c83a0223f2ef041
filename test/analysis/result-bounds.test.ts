import { describe, expect, it } from "vitest";
import { checks } from "../../src/analysis/checks/index.js";
import { judge } from "../../src/analysis/judge.js";
import {
  boundEvidence,
  boundText,
  boundValue,
  maxEvidenceTextLength,
  maxResultTextLength,
  maxValueEntries,
} from "../../src/analysis/result-bounds.js";
import { defaultScoring } from "../../src/analysis/scoring-config.js";
import { doc, pageFrom } from "../helpers/page.js";

describe("result bounds", () => {
  it("keeps a string up to the bound and cuts a longer one, ending in an ellipsis", () => {
    const atBound = "a".repeat(maxResultTextLength);
    expect(boundText(atBound)).toBe(atBound);
    const cut = boundText(`${atBound}b`);
    expect(cut).toHaveLength(maxResultTextLength);
    expect(cut.endsWith("a…")).toBe(true);
  });

  it("never cuts between the halves of a surrogate pair", () => {
    const text = `${"a".repeat(maxResultTextLength - 2)}😀${"b".repeat(10)}`;
    const cut = boundText(text);
    expect(cut).toBe(`${"a".repeat(maxResultTextLength - 2)}…`);
  });

  it("bounds every string inside a value and leaves other values as they are", () => {
    const long = "x".repeat(maxResultTextLength + 10);
    expect(boundValue({ title: long, list: [long, 3], nested: { flag: true, none: null } })).toEqual({
      title: boundText(long),
      list: [boundText(long), 3],
      nested: { flag: true, none: null },
    });
    expect(boundValue(42)).toBe(42);
    expect(boundValue(null)).toBeNull();
  });

  it(`keeps the first ${maxValueEntries} entries of a list inside a value`, () => {
    const urls = Array.from({ length: maxValueEntries + 30 }, (_, index) => `https://site.example/${index}`);
    expect(boundValue({ found: urls, total: urls.length })).toEqual({
      found: urls.slice(0, maxValueEntries),
      total: maxValueEntries + 30,
    });
  });

  it("keeps a list's entries, after its first, while the value's text fits", () => {
    const words = ["a", "b", "c"].map((letter) => letter.repeat(maxEvidenceTextLength / 2 - 10));
    expect(boundValue({ found: words, total: 3 })).toEqual({ found: words.slice(0, 2), total: 3 });
    const huge = "h".repeat(2 * maxResultTextLength);
    expect(boundValue([huge, "x", 7])).toEqual([boundText(huge)]);
  });

  it("keeps the canonical check's value small on a page of 2,000 distinct canonical links", () => {
    const links = Array.from(
      { length: 2000 },
      (_, index) => `<link rel="canonical" href="https://site.example/page-${index}">`,
    );
    const page = pageFrom(doc("<h1>Canonicals</h1>", `<title>Canonicals</title>${links.join("")}`));
    const result = judge(page, checks, defaultScoring.thresholds).canonical;
    expect(result?.message).toContain("2000 different canonical URLs");
    expect(result?.value).toHaveLength(maxValueEntries);
  });

  it("keeps evidence items while their text fits, the first always, and counts the rest", () => {
    const quarter = "q".repeat(maxEvidenceTextLength / 4);
    const items = Array.from({ length: 10 }, (_, index) => ({ index, src: quarter }));
    const bounded = boundEvidence(items);
    expect(bounded.items).toHaveLength(4);
    expect(bounded.truncated).toBe(6);
    const huge = boundEvidence([{ content: "h".repeat(5 * 1024 * 1024) }, { content: "short" }]);
    expect(huge.items).toEqual([{ content: boundText("h".repeat(5 * 1024 * 1024)) }]);
    expect(huge.truncated).toBe(1);
  });

  it("keeps the results of a page with a 5 MiB meta description and canonical URL small", () => {
    const long = "a long attribute value ".repeat((5 * 1024 * 1024) / 23 / 2);
    const page = pageFrom(
      doc(
        "<h1>Long attributes</h1>",
        `<title>Long attributes</title><meta name="description" content="${long}"><link rel="canonical" href="${long}">`,
      ),
    );
    const results = judge(page, checks, defaultScoring.thresholds);
    expect(results["meta-description"]?.details).toEqual({
      items: [{ content: boundText(long.trim()) }],
      truncated: 0,
    });
    // Every check's message, value and evidence bounded: a few bounded strings, not megabytes.
    expect(JSON.stringify(results).length).toBeLessThan(10 * maxResultTextLength);
  });
});
