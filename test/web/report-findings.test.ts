import { describe, expect, it } from "vitest";
import type { CheckResult } from "../../src/analysis/judge.js";
import { categoryNav, findingSections, groupEvidence } from "../../src/web/views/report-findings.js";

const result = (over: Partial<CheckResult>): CheckResult => ({
  category: "seo",
  importance: "medium",
  status: "pass",
  passed: true,
  value: null,
  message: "message",
  ...over,
});

describe("a report's findings", () => {
  const results: Record<string, CheckResult> = {
    title: result({ status: "pass" }),
    "meta-description": result({ status: "warn", importance: "high", passed: false }),
    h1: result({ status: "fail", importance: "low", passed: false }),
    canonical: result({ status: "fail", importance: "high", passed: false }),
    hreflang: result({ status: "na", passed: null }),
    hsts: result({ category: "security", status: "pass" }),
  };

  it("puts checks to act on first, most important first, and folds the rest into one group per category", () => {
    const markup = findingSections(results).join("");
    const order = ["check-canonical", "check-meta-description", "check-h1", "rest-group", "check-title"].map(
      (marker) => markup.indexOf(marker),
    );
    expect(order.every((position) => position >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(markup).toContain("<summary>1 passed, 1 not applicable</summary>");
    expect(markup.match(/<details class="rest-group">/g)).toHaveLength(2);
    expect(markup).toContain("Nothing to fix here.");
  });

  it("prints the passed checks as a list of titles, without folds", () => {
    const markup = findingSections(results, true).join("");
    expect(markup).not.toContain("<details");
    expect(markup).toContain('class="rest-list"');
    expect(markup).not.toContain("check-title");
  });

  it("links to each category with its failures and warnings counted", () => {
    const nav = categoryNav(results).value;
    expect(nav).toContain('href="#category-seo"');
    expect(nav).toContain("2 failed");
    expect(nav).toContain("1 warning");
    expect(nav).toContain("all clear");
  });

  it("groups identical evidence with a count and folds past the first ten", () => {
    const items = [
      ...Array.from({ length: 24 }, () => ({ src: "data:image/gif;base64,R0lGOD" })),
      ...Array.from({ length: 15 }, (_, index) => ({ src: `/image-${index}.png` })),
    ];
    expect(groupEvidence(items)[0]).toEqual({ item: items[0], count: 24 });
    const markup = findingSections({
      "image-alt": result({ status: "fail", passed: false, details: { items, truncated: 3 } }),
    }).join("");
    expect(markup).toContain("× 24");
    expect(markup.match(/data:image\/gif/g)).toHaveLength(1);
    expect(markup).toContain("<summary>6 more</summary>");
    expect(markup).toContain("… and 3 more not kept");
    const shown = markup.slice(0, markup.indexOf("evidence-more"));
    expect(shown.match(/<li>/g)).toHaveLength(10);
  });
});
