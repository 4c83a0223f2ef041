/**
 * The site checks' one list: every check file's definition listed once (its id its file name), each with the
 * texts the pages show, and `needs: ["links"]` on exactly the checks that judge from the links the crawl
 * recorded, so their messages say when the crawl's link bounds left links out.
 */
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { checkTitle } from "../../../src/analysis/check-titles.js";
import { siteChecks } from "../../../src/analysis/site-checks/index.js";

const folder = new URL("../../../src/analysis/site-checks/", import.meta.url);

/** The files that define a site check (those exporting a SiteCheckDefinition). */
const checkFiles = readdirSync(folder)
  .filter((name) => name.endsWith(".ts"))
  .filter((name) => /: SiteCheckDefinition = \{/.test(readFileSync(new URL(name, folder), "utf8")))
  .map((name) => name.slice(0, -3));

describe("the site checks' list", () => {
  it("lists every check file once, by its file name, with its texts", () => {
    expect(siteChecks.map((check) => check.id).sort()).toEqual(checkFiles.sort());
    expect(new Set(siteChecks.map((check) => check.id)).size).toBe(siteChecks.length);
    for (const check of siteChecks) {
      expect(["seo", "performance", "security", "miscellaneous"]).toContain(check.category);
      expect(["high", "medium", "low"]).toContain(check.importance);
      expect(check.title.length).toBeGreaterThan(2);
      expect(check.description.length).toBeGreaterThan(20);
      expect(check.howToFix.length).toBeGreaterThan(20);
      expect(checkTitle(check.id)).toBe(check.title);
    }
  });

  it("says which checks need the crawl's links: those that read link targets or unlinked pages", () => {
    const readsLinks = (id: string) =>
      /linkTargetIssue\(|linkTargets\(|unlinkedSitemapPages\(/.test(
        readFileSync(new URL(`${id}.ts`, folder), "utf8"),
      );
    for (const check of siteChecks) {
      expect(check.needs?.includes("links") ?? false, check.id).toBe(readsLinks(check.id));
    }
  });
});
