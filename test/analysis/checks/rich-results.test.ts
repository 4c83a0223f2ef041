import { describe, expect, it } from "vitest";
import { richResults } from "../../../src/analysis/checks/rich-results.js";
import { richResultRules } from "../../../src/analysis/structured-data/rich-result-rules.js";
import { doc, pageFrom, run } from "../../helpers/page.js";

const context = "https://schema.org";
const judge = (...items: unknown[]) =>
  run(
    richResults,
    pageFrom(
      doc(
        "",
        items
          .map(
            (item) =>
              `<script type="application/ld+json">${JSON.stringify({ "@context": context, ...(item as object) })}</script>`,
          )
          .join(""),
      ),
    ),
  );
const paths = (result: ReturnType<typeof judge>, level: string) =>
  (result.items ?? []).filter((item) => item.level === level).map((item) => item.path);

/** Per rich-result type: an item with every required and recommended property, and one required property. */
const complete: Record<string, { item: Record<string, unknown>; required: string; path: string }> = {
  article: {
    item: {
      "@type": "NewsArticle",
      headline: "H",
      image: "https://example.com/a.png",
      author: { "@type": "Person", name: "Ada" },
      datePublished: "2024-05-17",
      dateModified: "2024-05-18T10:00:00Z",
    },
    required: "",
    path: "NewsArticle > headline",
  },
  product: {
    item: {
      "@type": "Product",
      name: "Pen",
      image: "https://example.com/pen.png",
      description: "A pen",
      offers: {
        "@type": "Offer",
        price: "1.50",
        priceCurrency: "EUR",
        availability: "https://schema.org/InStock",
      },
    },
    required: "name",
    path: "Product > name",
  },
  review: {
    item: {
      "@type": "Review",
      author: { "@type": "Person", name: "Ada" },
      itemReviewed: { "@type": "Book", name: "B" },
      reviewRating: { "@type": "Rating", ratingValue: 4 },
      datePublished: "2024-01-01",
    },
    required: "itemReviewed",
    path: "Review > itemReviewed",
  },
  breadcrumb: {
    item: {
      "@type": "BreadcrumbList",
      itemListElement: [{ "@type": "ListItem", position: 1, name: "Home", item: "https://example.com/" }],
    },
    required: "itemListElement",
    path: "BreadcrumbList > itemListElement",
  },
  faq: {
    item: {
      "@type": "FAQPage",
      mainEntity: [{ "@type": "Question", name: "Q?", acceptedAnswer: { "@type": "Answer", text: "A." } }],
    },
    required: "mainEntity",
    path: "FAQPage > mainEntity",
  },
  qa: {
    item: {
      "@type": "QAPage",
      mainEntity: {
        "@type": "Question",
        name: "Q?",
        text: "Q in full",
        answerCount: 1,
        author: { "@type": "Person", name: "Ada" },
        datePublished: "2024-01-01",
        upvoteCount: 3,
        acceptedAnswer: { "@type": "Answer", text: "A." },
      },
    },
    required: "mainEntity",
    path: "QAPage > mainEntity",
  },
  recipe: {
    item: {
      "@type": "Recipe",
      name: "Soup",
      image: "https://example.com/soup.png",
      aggregateRating: {
        "@type": "AggregateRating",
        ratingValue: 4.5,
        ratingCount: 10,
        bestRating: 5,
        worstRating: 1,
      },
      author: { "@type": "Person", name: "Ada" },
      cookTime: "PT30M",
      prepTime: "PT10M",
      totalTime: "PT40M",
      datePublished: "2024-01-01",
      description: "Hot",
      keywords: "soup",
      nutrition: { "@type": "NutritionInformation", calories: "200 calories" },
      recipeCategory: "Starter",
      recipeCuisine: "French",
      recipeIngredient: ["water"],
      recipeInstructions: [{ "@type": "HowToStep", text: "Boil." }],
      recipeYield: "4",
      video: { "@type": "VideoObject", name: "How" },
    },
    required: "image",
    path: "Recipe > image",
  },
  event: {
    item: {
      "@type": "MusicEvent",
      name: "Gig",
      startDate: "2025-07-21T19:00-05:00",
      endDate: "2025-07-21T23:00-05:00",
      location: { "@type": "Place", name: "Hall", address: "1 Main St" },
      description: "Loud",
      eventAttendanceMode: "https://schema.org/OfflineEventAttendanceMode",
      eventStatus: "https://schema.org/EventScheduled",
      image: "https://example.com/gig.png",
      offers: { "@type": "Offer", price: 10, priceCurrency: "USD" },
      organizer: { "@type": "Organization", name: "O" },
      performer: { "@type": "MusicGroup", name: "Band" },
    },
    required: "startDate",
    path: "MusicEvent > startDate",
  },
  "job-posting": {
    item: {
      "@type": "JobPosting",
      title: "Baker",
      description: "Bake",
      datePosted: "2024-01-01",
      validThrough: "2024-03-01",
      hiringOrganization: { "@type": "Organization", name: "O" },
      jobLocation: { "@type": "Place", address: "1 Main St" },
      baseSalary: { "@type": "MonetaryAmount", currency: "USD", value: 40000 },
      employmentType: "FULL_TIME",
      identifier: "B-1",
    },
    required: "hiringOrganization",
    path: "JobPosting > hiringOrganization",
  },
  "local-business": {
    item: {
      "@type": "Restaurant",
      name: "Diner",
      address: { "@type": "PostalAddress", streetAddress: "1 Main St" },
      aggregateRating: { "@type": "AggregateRating", ratingValue: 4, reviewCount: 3 },
      geo: { "@type": "GeoCoordinates", latitude: 1, longitude: 2 },
      openingHoursSpecification: { "@type": "OpeningHoursSpecification", opens: "09:00", closes: "17:00" },
      priceRange: "$$",
      review: { "@type": "Review", author: "Ada", reviewRating: { "@type": "Rating", ratingValue: 5 } },
      telephone: "+1-555-0100",
      url: "https://example.com/",
    },
    required: "address",
    path: "Restaurant > address",
  },
  organization: {
    item: {
      "@type": "Organization",
      name: "Acme",
      url: "https://example.com/",
      logo: "https://example.com/logo.png",
      sameAs: ["https://example.social/acme"],
    },
    required: "",
    path: "Organization > logo",
  },
  video: {
    item: {
      "@type": "VideoObject",
      name: "Clip",
      thumbnailUrl: "https://example.com/t.png",
      uploadDate: "2024-01-01T08:00:00+01:00",
      contentUrl: "https://example.com/v.mp4",
      description: "A clip",
      duration: "PT1M54S",
    },
    required: "uploadDate",
    path: "VideoObject > uploadDate",
  },
  "software-app": {
    item: {
      "@type": "MobileApplication",
      name: "App",
      offers: { "@type": "Offer", price: 0, priceCurrency: "USD" },
      aggregateRating: {
        "@type": "AggregateRating",
        ratingValue: 4.6,
        ratingCount: 8864,
        bestRating: 5,
        worstRating: 1,
      },
      applicationCategory: "GameApplication",
      operatingSystem: "ANDROID",
    },
    required: "aggregateRating",
    path: "MobileApplication > aggregateRating | review",
  },
  course: {
    item: {
      "@type": "Course",
      name: "C",
      description: "D",
      provider: { "@type": "Organization", name: "U" },
    },
    required: "description",
    path: "Course > description",
  },
  dataset: {
    item: {
      "@type": "Dataset",
      name: "Data",
      description: "Numbers",
      creator: { "@type": "Organization", name: "O" },
      license: "https://creativecommons.org/publicdomain/zero/1.0/",
      url: "https://example.com/data",
      keywords: ["numbers"],
      identifier: "doi:10.0000/x",
      sameAs: "https://example.org/data",
    },
    required: "name",
    path: "Dataset > name",
  },
  "how-to": {
    item: {
      "@type": "HowTo",
      name: "Tie",
      step: [{ "@type": "HowToStep", text: "Loop." }],
      image: "https://example.com/tie.png",
      totalTime: "PT2M",
      supply: "rope",
      tool: "hands",
    },
    required: "step",
    path: "HowTo > step",
  },
};

describe("rich-results", () => {
  it("has a crafted item for every top-level rule", () => {
    const topLevel = richResultRules.filter((rule) => rule.topLevel !== false).map((rule) => rule.id);
    expect(Object.keys(complete).sort()).toEqual(topLevel.sort());
    for (const rule of richResultRules)
      expect(rule.source).toMatch(
        /^https:\/\/developers\.google\.com\/search\/docs\/appearance\/structured-data\//,
      );
  });

  for (const [rule, { item, required, path }] of Object.entries(complete)) {
    it(`${rule}: passes when complete, fails without a required property, warns without a recommended one`, () => {
      const passing = judge(item);
      expect(passing.items ?? [], JSON.stringify(passing.items)).toEqual([]);
      expect(passing.status).toBe("pass");
      if (required) {
        const { [required]: _dropped, ...rest } = item;
        const failing = judge(rest);
        expect(failing.status).toBe("fail");
        expect(paths(failing, "required")).toEqual([path]);
        expect(failing.items?.[0]).toMatchObject({
          type: item["@type"],
          source: richResultRules.find((candidate) => candidate.id === rule)?.source,
        });
      }
      // Recommended: drop the last-but-one recommended property the item has (never a required one).
      const recommended = richResultRules.find((candidate) => candidate.id === rule)?.recommended ?? [];
      const property = recommended
        .map((entry) => entry.split(/[.:|]/)[0] as string)
        .find((name) => name in item);
      if (property && property !== required) {
        const { [property]: _dropped, ...rest } = item;
        const warning = judge(rest);
        expect(warning.status, JSON.stringify(warning.items)).toBe("warn");
        expect(paths(warning, "recommended")[0]).toContain(`${item["@type"]} > ${property}`);
      }
    });
  }

  it("names the nested path and the fix for a missing or invalid price", () => {
    const missing = judge({
      "@type": "Product",
      name: "Pen",
      offers: { "@type": "Offer", priceCurrency: "EUR" },
    });
    expect(missing.status).toBe("fail");
    expect(missing.message).toBe(
      "1 required property missing or invalid in Product: Product > offers > price | priceSpecification > price.",
    );
    expect(missing.items?.[0]).toMatchObject({
      level: "required",
      type: "Offer",
      path: "Product > offers > price | priceSpecification > price",
      problem: 'The required property "price" or "priceSpecification.price" is missing.',
      fix: 'Add "price" or "priceSpecification.price" to the Offer (a number such as 19.99 (digits only, no currency sign or unit)).',
      source: "https://developers.google.com/search/docs/appearance/structured-data/product-snippet",
    });
    const invalid = judge({
      "@type": "Product",
      name: "Pen",
      offers: { "@type": "Offer", price: "$1.50", priceCurrency: "euro" },
    });
    expect(invalid.status).toBe("fail");
    expect(invalid.items?.map((item) => [item.level, item.path, item.problem])).toEqual([
      ["required", "Product > offers > price", 'The required property "price" is "$1.50", not a number.'],
      ["recommended", "Product > image", 'The recommended property "image" is missing.'],
      ["recommended", "Product > description", 'The recommended property "description" is missing.'],
      [
        "recommended",
        "Product > offers > priceCurrency",
        'The recommended property "priceCurrency" is "euro", not an ISO 4217 currency code.',
      ],
      [
        "recommended",
        "Product > offers > availability",
        'The recommended property "availability" is missing.',
      ],
    ]);
  });

  it("judges items inside @graph, microdata and RDFa", () => {
    const graph = run(
      richResults,
      pageFrom(
        doc(
          "",
          `<script type="application/ld+json">${JSON.stringify({
            "@context": context,
            "@graph": [
              { "@type": "WebSite", name: "S" },
              { "@type": "Event", name: "Gig", location: "Hall" },
            ],
          })}</script>`,
        ),
      ),
    );
    expect(graph.status).toBe("fail");
    expect(paths(graph, "required")).toEqual(["Event > startDate"]);
    const microdata = run(
      richResults,
      pageFrom(
        doc(
          '<ol itemscope itemtype="https://schema.org/BreadcrumbList"><li itemprop="itemListElement" itemscope itemtype="https://schema.org/ListItem">' +
            '<a itemprop="item" href="/"><span itemprop="name">Home</span></a><meta itemprop="position" content="first"></li></ol>',
        ),
      ),
    );
    expect(microdata.status).toBe("fail");
    expect(microdata.items?.[0]).toMatchObject({
      type: "ListItem",
      path: "BreadcrumbList > itemListElement > position",
      problem: 'The required property "position" is "first", not a whole number.',
    });
    const rdfa = run(
      richResults,
      pageFrom(
        doc('<div vocab="https://schema.org/" typeof="Course"><span property="name">Maths</span></div>'),
      ),
    );
    expect(rdfa.status).toBe("fail");
    expect(paths(rdfa, "required")).toEqual(["Course > description"]);
  });

  it("is na without an item Google shows as a rich result, and judges a LocalBusiness as one only", () => {
    expect(judge({ "@type": "WebSite", name: "S" }).status).toBe("na");
    expect(run(richResults, pageFrom(doc("<p>x</p>"))).status).toBe("na");
    const business = judge({ "@type": "Dentist", name: "D" });
    expect(paths(business, "required")).toEqual(["Dentist > address"]);
    expect((business.items ?? []).every((item) => String(item.source).endsWith("/local-business"))).toBe(
      true,
    );
  });

  it("asks a breadcrumb's item of every element but the last, as Google's own example writes it", () => {
    const element = (position: number, name: string, item?: string) => ({
      "@type": "ListItem",
      position,
      name,
      ...(item === undefined ? {} : { item }),
    });
    // Google's example: the last element, the current page, has no item.
    const google = judge({
      "@type": "BreadcrumbList",
      itemListElement: [
        element(1, "Books", "https://example.com/books"),
        element(2, "Science Fiction", "https://example.com/books/sciencefiction"),
        element(3, "Award Winners"),
      ],
    });
    expect(google.status).toBe("pass");
    // The last by position, whatever the order they are listed in.
    const unordered = judge({
      "@type": "BreadcrumbList",
      itemListElement: [element(2, "Award Winners"), element(1, "Books", "https://example.com/books")],
    });
    expect(unordered.status).toBe("pass");
    // An element before the last without its item still warns.
    const missing = judge({
      "@type": "BreadcrumbList",
      itemListElement: [element(1, "Books"), element(2, "Award Winners")],
    });
    expect(missing.status).toBe("warn");
    expect(missing.items).toEqual([
      expect.objectContaining({ type: "ListItem", path: "BreadcrumbList > itemListElement > item" }),
    ]);
  });
});
