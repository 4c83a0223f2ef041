import { describe, expect, it } from "vitest";
import type { AnalysisReport } from "../../src/analysis/analyse.js";
import { paletteFor } from "../../src/cli/colour.js";
import { evidenceShown, renderReport } from "../../src/cli/render-report.js";

const plain = paletteFor({ isTTY: false }, {});

const reportWith = (details: { items: Array<Record<string, unknown>>; truncated: number }) =>
  ({
    url: "https://site.example/",
    final_url: "https://site.example/",
    project: "site.example",
    result: "bad",
    score: 40,
    categories: { seo: 40 },
    summary: { checks: 1, passed: 0, warnings: 0, failed: 1 },
    results: {
      "image-alt": {
        category: "accessibility",
        importance: "high",
        status: "fail",
        passed: false,
        value: 3,
        message: "Images lack alternative text.",
        details,
      },
    },
  }) as unknown as AnalysisReport;

describe("the terminal report", () => {
  it("counts the evidence items past those printed and those not kept", () => {
    const items = Array.from({ length: evidenceShown + 2 }, (_, index) => ({ src: `/i${index}.png` }));
    expect(renderReport(reportWith({ items, truncated: 3 }), plain)).toContain("… and 5 more");
  });

  it("counts every item not kept when a report's size budget left none", () => {
    expect(renderReport(reportWith({ items: [], truncated: 7 }), plain)).toContain("… and 7 more");
  });
});
