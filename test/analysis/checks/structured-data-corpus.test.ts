/**
 * Real structured data from the shared corpus: JSON-LD (vulture.com, arstechnica.com), microdata (youtube.com,
 * github.com, radio-canada.ca) judged by structured-data and rich-results, verdicts and evidence asserted.
 * The corpus pages went through their source project's normalisation (`<meta content>` became
 * `<meta value>`), so microdata meta values read as empty, as they would from the page as served.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { richResults } from "../../../src/analysis/checks/rich-results.js";
import { structuredData } from "../../../src/analysis/checks/structured-data.js";
import { corpusDir, corpusMissing, corpusRequired } from "../../helpers/corpus.js";
import { pageFrom, run } from "../../helpers/page.js";

// Without the corpus (a clone on its own) these tests are skipped, and say so; CI requires it.
if (corpusMissing && corpusRequired) throw new Error(`The corpus is required here: ${corpusMissing}.`);

const judge = (name: string) => {
  const page = pageFrom(readFileSync(join(corpusDir, name), "utf8"));
  return { schema: run(structuredData, page), rich: run(richResults, page) };
};

describe.skipIf(corpusMissing !== undefined)(
  corpusMissing
    ? `structured data on corpus pages: skipped, ${corpusMissing}`
    : "structured data on corpus pages",
  () => {
    it("JSON-LD BreadcrumbList and NewsArticle (vulture.com): valid, one recommended property missing", () => {
      const { schema, rich } = judge("www.vulture.com--content-test.html");
      expect(schema.status).toBe("pass");
      expect(schema.message).toBe(
        "2 structured data items (BreadcrumbList, NewsArticle) match the schema.org vocabulary.",
      );
      expect(rich.status).toBe("warn");
      expect(rich.items).toEqual([
        expect.objectContaining({
          level: "recommended",
          type: "NewsArticle",
          path: "NewsArticle > dateModified",
        }),
      ]);
    });

    it("microdata NewsArticle (arstechnica.com): valid, dates and author missing", () => {
      const { schema, rich } = judge("arstechnica.com.html");
      expect(schema.status).toBe("pass");
      expect(rich.status).toBe("warn");
      expect((rich.items ?? []).map((item) => item.path)).toEqual([
        "NewsArticle > datePublished",
        "NewsArticle > dateModified",
        "NewsArticle > image",
      ]);
    });

    it("microdata VideoObject (youtube.com): a property schema.org does not have, named", () => {
      const { schema, rich } = judge("www.youtube.com.html");
      expect(schema.status).toBe("warn");
      expect(schema.items).toContainEqual(
        expect.objectContaining({
          type: "VideoObject",
          path: "VideoObject > paid",
          problem: '"paid" is not a schema.org property.',
        }),
      );
      expect(rich.status).toBe("pass");
    });

    it("microdata SoftwareSourceCode (github.com): valid, and no rich result type", () => {
      const { schema, rich } = judge("github.com.html");
      expect(schema.status).toBe("pass");
      expect(rich.status).toBe("na");
    });

    it("microdata BreadcrumbList (radio-canada.ca): the positions are missing", () => {
      const { rich } = judge("ici.radio-canada.ca.html");
      expect(rich.status).toBe("fail");
      expect(rich.items?.[0]).toMatchObject({
        level: "required",
        type: "ListItem",
        path: "BreadcrumbList > itemListElement > position",
      });
    });
  },
);
