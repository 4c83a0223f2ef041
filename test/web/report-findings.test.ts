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

  it("lists checks to act on across categories, failures before warnings, most important first, the rest folded", () => {
    const markup = findingSections({
      ...results,
      "x-content-type-options": result({
        category: "security",
        status: "fail",
        importance: "low",
        passed: false,
      }),
    }).value;
    const order = [
      "check-canonical",
      "check-h1",
      "check-x-content-type-options",
      "check-meta-description",
      "rest-group",
      "check-title",
    ].map((marker) => markup.indexOf(marker));
    expect(order.every((position) => position >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    // One fold for every passed, informational and not-applicable check, whatever their category.
    expect(markup).toContain("<summary>The other checks: 2 passed, 1 not applicable</summary>");
    expect(markup.match(/<details class="card rest-group"/g)).toHaveLength(1);
    // Each check names its category, and its title leads with its id only as a secondary label.
    expect(markup).toMatch(
      /id="check-x-content-type-options"[\s\S]*?<span class="category-label">Security<\/span>/,
    );
    expect(markup).toContain("<code>meta-description</code>");
  });

  it("filters the list to one category, and says when it holds nothing to fix", () => {
    const seo = findingSections(results, { category: "seo" }).value;
    expect(seo).toContain("check-canonical");
    expect(seo).toContain("To fix in SEO");
    const security = findingSections(results, { category: "security" }).value;
    expect(security.slice(0, security.indexOf("rest-group"))).not.toContain("check-canonical");
    expect(security).toContain("Nothing to fix here.");
    // An unknown category shows everything.
    expect(findingSections(results, { category: "nonsense" }).value).toContain("check-canonical");
  });

  it("prints the passed checks as a list of titles, without folds", () => {
    const markup = findingSections(results, { print: true }).value;
    expect(markup).not.toContain("<details");
    expect(markup).toContain('class="card rest-list"');
    expect(markup).not.toContain("check-title");
  });

  it("links to each category with something to act on, its failures and warnings counted", () => {
    const nav = categoryNav(results, "seo").value;
    expect(nav).toContain('href="?category=seo#to-fix" aria-current="true"');
    expect(nav).toContain("2 failed");
    expect(nav).toContain("1 warning");
    expect(nav).not.toContain("category=security");
  });

  it("groups identical evidence with a count, folds it on the page and folds again past the first ten", () => {
    const items = [
      ...Array.from({ length: 24 }, () => ({ src: "data:image/gif;base64,R0lGOD" })),
      ...Array.from({ length: 15 }, (_, index) => ({ src: `/image-${index}.png` })),
    ];
    expect(groupEvidence(items)[0]).toEqual({ item: items[0], count: 24 });
    const markup = findingSections({
      "image-alt": result({ status: "fail", passed: false, details: { items, truncated: 3 } }),
    }).value;
    expect(markup).toContain("<summary>Where: 42 items</summary>");
    expect(markup).toContain("× 24");
    expect(markup.match(/data:image\/gif/g)).toHaveLength(1);
    expect(markup).toContain("<summary>6 more</summary>");
    expect(markup).toContain("… and 3 more not kept");
    const shown = markup.slice(markup.indexOf("Where:"), markup.indexOf("<summary>6 more"));
    expect(shown.match(/<li>/g)).toHaveLength(10);
  });

  it("says how many items were not kept when a report's size budget left out all of a check's evidence", () => {
    const markup = findingSections({
      "image-alt": result({ status: "fail", passed: false, details: { items: [], truncated: 7 } }),
    }).value;
    expect(markup).toContain("7 items not kept");
  });
});
