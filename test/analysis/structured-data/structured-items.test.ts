import { describe, expect, it } from "vitest";
import { parseDocument } from "../../../src/analysis/parse.js";
import { closestName } from "../../../src/analysis/structured-data/closest-name.js";

const read = (body: string) =>
  parseDocument(`<!doctype html><html><body>${body}</body></html>`, "https://example.com/").structuredData;

describe("structured data items", () => {
  it("reads microdata values by the HTML standard's rules, nested items included", () => {
    const [item] = read(
      '<div itemscope itemtype="https://schema.org/Recipe http://schema.org/CreativeWork">' +
        '<h1 itemprop="name"> Soup <b>of the day</b></h1><img itemprop="image" src="/soup.png">' +
        '<a itemprop="url" href="https://example.com/soup">x</a><time itemprop="datePublished" datetime="2024-05-17">May</time>' +
        '<meta itemprop="keywords" content="soup"><data itemprop="recipeYield" value="4">four</data>' +
        '<div itemprop="author" itemscope itemtype="https://schema.org/Person"><span itemprop="name">Ada</span></div>' +
        '<span itemprop="og:title https://schema.org/description">Hot</span></div>',
    ).items;
    expect(item).toMatchObject({ syntax: "microdata", types: ["Recipe", "CreativeWork"], otherTypes: [] });
    const values = Object.fromEntries(
      (item?.properties ?? []).map((property) => [property.name, property.values[0]]),
    );
    expect(values).toMatchObject({
      name: "Soup of the day",
      image: "/soup.png",
      url: "https://example.com/soup",
      datePublished: "2024-05-17",
      keywords: "soup",
      recipeYield: "4",
      description: "Hot",
      author: { syntax: "microdata", types: ["Person"], properties: [{ name: "name", values: ["Ada"] }] },
    });
    expect(Object.keys(values)).not.toContain("og:title");
  });

  it("reads RDFa Lite under a schema.org vocab or the schema: prefix, and keeps other vocabularies apart", () => {
    const { items } = read(
      '<div vocab="https://schema.org/" typeof="Event"><span property="name">Gig</span>' +
        '<div property="location" typeof="Place"><span property="name">Hall</span></div></div>' +
        '<p typeof="schema:Person"><span property="schema:name">Ada</span></p>' +
        '<div vocab="http://xmlns.com/foaf/0.1/" typeof="Person"><span property="name">Bob</span></div>',
    );
    expect(items.map((item) => [item.syntax, item.types, item.otherTypes])).toEqual([
      ["rdfa", ["Event"], []],
      ["rdfa", ["Person"], []],
      ["rdfa", [], ["Person"]],
    ]);
    expect(items[0]?.properties[1]?.values[0]).toMatchObject({ types: ["Place"] });
  });

  it("reads JSON-LD arrays, @graph, value objects and references", () => {
    const { items, jsonLdErrors, foreignBlocks } = read(
      `<script type="application/ld+json">${JSON.stringify([
        {
          "@context": { "@vocab": "https://schema.org/" },
          "@graph": [
            { "@type": "schema:WebPage", "@id": "#p", "schema:name": "P", isPartOf: { "@id": "#site" } },
            {
              "@type": "https://schema.org/WebSite",
              "@id": "#site",
              dateCreated: { "@value": "2020-01-01" },
            },
          ],
        },
      ])}</script><script type="application/ld+json">{"@context":"https://example.org/","@type":"X"}</script>`,
    );
    expect(jsonLdErrors).toEqual([]);
    expect(foreignBlocks).toBe(1);
    expect(items.map((item) => item.types)).toEqual([["WebPage"], ["WebSite"]]);
    expect(items[0]?.properties).toEqual([
      { name: "name", values: ["P"] },
      { name: "isPartOf", values: [expect.objectContaining({ reference: true })] },
    ]);
    expect(items[1]?.properties).toEqual([{ name: "dateCreated", values: ["2020-01-01"] }]);
  });

  it("suggests the closest known name within a third of its length", () => {
    const names = ["datePublished", "dateModified", "name", "Product"];
    expect(closestName("datePublised", names)).toBe("datePublished");
    expect(closestName("nmae", names)).toBe("name");
    expect(closestName("product", names)).toBe("Product");
    expect(closestName("colour", names)).toBeNull();
    expect(closestName("x".repeat(65), names)).toBeNull();
  });
});
