import { describe, expect, it } from "vitest";
import { structuredData } from "../../../src/analysis/checks/structured-data.js";
import { doc, pageFrom, run } from "../../helpers/page.js";

const jsonLd = (data: unknown) =>
  `<script type="application/ld+json">${typeof data === "string" ? data : JSON.stringify(data)}</script>`;
const context = "https://schema.org";
const judge = (html: string) => run(structuredData, pageFrom(html));

describe("structured-data", () => {
  it("passes valid JSON-LD (also inside @graph), microdata and RDFa", () => {
    const article = judge(
      doc(
        "",
        jsonLd({ "@context": context, "@type": "Article", headline: "A", datePublished: "2024-05-17" }),
      ),
    );
    expect(article.status).toBe("pass");
    expect(article.message).toContain("Article");
    expect(
      judge(
        doc(
          "",
          jsonLd({
            "@context": context,
            "@graph": [
              { "@type": "WebPage", "@id": "#page", url: "https://example.com/" },
              { "@type": ["Organization"], name: "Acme", logo: "https://example.com/logo.png" },
            ],
          }),
        ),
      ).status,
    ).toBe("pass");
    expect(
      judge(
        doc(
          '<div itemscope itemtype="https://schema.org/Product"><span itemprop="name">Pen</span>' +
            '<div itemprop="offers" itemscope itemtype="https://schema.org/Offer"><meta itemprop="price" content="1.50">' +
            '<link itemprop="availability" href="https://schema.org/InStock"></div></div>',
        ),
      ).status,
    ).toBe("pass");
    expect(
      judge(
        doc(
          '<div vocab="https://schema.org/" typeof="Person"><span property="name">Ada</span>' +
            '<a property="url" href="/ada">home</a><time property="birthDate" datetime="1815-12-10">1815</time></div>',
        ),
      ).status,
    ).toBe("pass");
  });

  it("is info, not a defect, when the page has no structured data", () => {
    const result = judge(doc("<p>Hello</p>"));
    expect(result.status).toBe("info");
    expect(result.message).toBe("The page has no structured data.");
  });

  it("fails on JSON-LD that does not parse, naming the block, line and column", () => {
    const result = judge(
      doc("", jsonLd({ "@context": context, "@type": "Thing" }) + jsonLd('{\n  "@type": "A",\n}')),
    );
    expect(result.status).toBe("fail");
    expect(result.message).toMatch(/^1 JSON-LD block does not parse \(block 2, line 3 column 1\)\.$/);
    expect(result.items?.[0]).toMatchObject({ where: "JSON-LD block 2", line: 3, column: 1 });
  });

  it("warns on an unknown type and names the closest known one", () => {
    const result = judge(doc("", jsonLd({ "@context": context, "@type": "Prodcut", name: "Pen" })));
    expect(result.status).toBe("warn");
    expect(result.items?.[0]).toMatchObject({
      type: "Prodcut",
      path: "Prodcut",
      problem: '"Prodcut" is not a schema.org type.',
      fix: 'Rename the type to "Product".',
      where: "JSON-LD block 1",
    });
  });

  it("warns on an unknown property with the closest property of the type", () => {
    const result = judge(
      doc("", jsonLd({ "@context": context, "@type": "Article", headline: "A", datePublised: "2024-05-17" })),
    );
    expect(result.status).toBe("warn");
    expect(result.value).toBe(1);
    expect(result.items).toEqual([
      expect.objectContaining({
        type: "Article",
        path: "Article > datePublised",
        problem: '"datePublised" is not a schema.org property.',
        fix: 'Rename "datePublised" to "datePublished".',
      }),
    ]);
  });

  it("warns on a property of another type", () => {
    const result = judge(
      doc("", jsonLd({ "@context": context, "@type": "Person", name: "Ada", price: "3" })),
    );
    expect(result.status).toBe("warn");
    expect(result.items?.[0]).toMatchObject({
      path: "Person > price",
      problem: '"price" is a schema.org property, but not one of Person.',
    });
  });

  it("warns on values of the wrong kind: a date, a URL, a number, an enumeration member", () => {
    const result = judge(
      doc(
        "",
        jsonLd({
          "@context": context,
          "@type": "Product",
          name: "Pen",
          image: "a photo of a pen",
          offers: { "@type": "Offer", price: 2, availability: "in stock", priceValidUntil: "next tuesday" },
          aggregateRating: { "@type": "AggregateRating", ratingValue: 4, ratingCount: "many" },
        }),
      ),
    );
    expect(result.status).toBe("warn");
    const byPath = Object.fromEntries((result.items ?? []).map((item) => [item.path, item.problem]));
    expect(byPath).toEqual({
      "Product > image": '"a photo of a pen" is not a URL.',
      "Product > offers > Offer > availability": '"in stock" is not one of the values of ItemAvailability.',
      "Product > offers > Offer > priceValidUntil": '"next tuesday" is not an ISO 8601 date.',
      "Product > aggregateRating > AggregateRating > ratingCount": '"many" is not a number.',
    });
    const date = (result.items ?? []).find(
      (item) => item.path === "Product > offers > Offer > priceValidUntil",
    );
    expect(date?.fix).toBe(
      'Give "priceValidUntil" an ISO 8601 date (2024-05-17, or 2024-05-17T09:30:00+02:00).',
    );
  });

  it("judges microdata and RDFa the same way, with the element as the place", () => {
    const microdata = judge(
      doc(
        '<div itemscope itemtype="https://schema.org/Event"><span itemprop="nmae">Gig</span>' +
          '<time itemprop="startDate" datetime="soon">Soon</time></div>',
      ),
    );
    expect(microdata.status).toBe("warn");
    expect(microdata.items).toEqual([
      expect.objectContaining({
        path: "Event > nmae",
        fix: 'Rename "nmae" to "name".',
        where: expect.stringContaining("<div itemscope"),
      }),
      expect.objectContaining({ path: "Event > startDate", problem: '"soon" is not an ISO 8601 date.' }),
    ]);
    const rdfa = judge(
      doc('<div vocab="https://schema.org/" typeof="Recipe"><span property="cookingTime">PT1H</span></div>'),
    );
    expect(rdfa.status).toBe("warn");
    expect(rdfa.items?.[0]).toMatchObject({
      path: "Recipe > cookingTime",
      fix: 'Rename "cookingTime" to "cookTime".',
    });
  });

  it("leaves other vocabularies alone and warns on a top-level item without a type", () => {
    expect(
      judge(doc("", jsonLd({ "@context": "https://example.org/vocab", "@type": "Widget", colour: "red" })))
        .status,
    ).toBe("info");
    expect(
      judge(
        doc(
          '<div itemscope itemtype="https://data-vocabulary.org/Breadcrumb"><a itemprop="url" href="/">x</a></div>',
        ),
      ).status,
    ).toBe("info");
    const untyped = judge(doc("", jsonLd({ "@context": context, name: "x" })));
    expect(untyped.status).toBe("warn");
    expect(untyped.items?.[0]).toMatchObject({ problem: "The item names no @type." });
  });

  it("reads only up to its limits, and says so", () => {
    const many = Array.from({ length: 1200 }, (_, index) => ({ "@type": "Thing", name: `n${index}` }));
    const result = judge(doc("", jsonLd({ "@context": context, "@graph": many })));
    expect(result.status).toBe("pass");
    expect(result.message).toBe(
      "1000 structured data items (Thing) match the schema.org vocabulary (read up to the 1000 items limit).",
    );
    let deep: Record<string, unknown> = { "@type": "Thing", name: "leaf" };
    for (let i = 0; i < 100; i++)
      deep = { "@type": "Thing", subjectOf: { "@type": "CreativeWork", about: deep } };
    expect(judge(doc("", jsonLd({ "@context": context, ...deep }))).message).toContain(
      "levels of nesting limit",
    );
  });
});
