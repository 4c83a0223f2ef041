/**
 * Check titles by id: every site check in the registry has one (so no page falls back to its id), a page check's
 * comes from the catalogue, and a check neither knows is named by its id.
 */
import { describe, expect, it } from "vitest";
import { catalogue } from "../../src/analysis/catalogue.js";
import { checkTitle } from "../../src/analysis/check-titles.js";
import { siteChecks } from "../../src/analysis/site-checks/index.js";

describe("checkTitle", () => {
  it("has a title for every site check the registry runs, and no site check shares a page check's id", () => {
    for (const check of siteChecks) expect(checkTitle(check.id)).toBe(check.title);
    const pageCheckIds = new Set(catalogue.map((entry) => entry.id));
    expect(siteChecks.filter((check) => pageCheckIds.has(check.id))).toEqual([]);
  });

  it("names page checks and site checks by their titles, and an unknown check by its id", () => {
    expect(checkTitle("image-alt")).toBe("Image alternative text");
    expect(checkTitle("broken-links")).toBe("Broken links");
    expect(checkTitle("duplicate-title")).toBe("Duplicate titles");
    expect(checkTitle("no-such-check")).toBe("no-such-check");
    for (const entry of catalogue) expect(checkTitle(entry.id)).toBe(entry.title);
  });
});
