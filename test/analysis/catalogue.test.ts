import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { catalogue } from "../../src/analysis/catalogue.js";
import { accessibilityChecks } from "../../src/analysis/checks/accessibility/axe-checks.js";
import { categories } from "../../src/analysis/checks/check.js";

describe("the catalogue of checks", () => {
  it("lists every check file once, with its texts", () => {
    const files = readdirSync(new URL("../../src/analysis/checks/", import.meta.url))
      .filter((name) => name.endsWith(".ts") && name !== "index.ts" && name !== "check.ts")
      .map((name) => name.slice(0, -3));
    // The accessibility checks are made from one list of rules (checks/accessibility/), one per axe rule.
    const axeIds = accessibilityChecks.map((check) => check.id);
    expect(catalogue.map((entry) => entry.id).sort()).toEqual([...files, ...axeIds].sort());
    expect(catalogue).toHaveLength(files.length + 57);
    for (const entry of catalogue) {
      expect(entry.id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(categories).toContain(entry.category);
      expect(entry.title.length).toBeGreaterThan(2);
      expect(entry.description.length).toBeGreaterThan(20);
      expect(entry.how_to_fix.length).toBeGreaterThan(20);
    }
  });
});
