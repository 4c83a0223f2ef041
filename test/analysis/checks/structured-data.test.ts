import { describe, expect, it } from "vitest";
import { structuredData } from "../../../src/analysis/checks/structured-data.js";
import { doc, pageFrom, run } from "../../helpers/page.js";

const jsonLd = (text: string) => `<script type="application/ld+json">${text}</script>`;

describe("structured-data", () => {
  it("passes JSON-LD with a @type (also inside @graph), microdata and RDFa", () => {
    expect(
      run(structuredData, pageFrom(doc("", jsonLd('{"@context":"https://schema.org","@type":"Article"}'))))
        .value,
    ).toEqual(["Article"]);
    expect(
      run(
        structuredData,
        pageFrom(doc("", jsonLd('{"@graph":[{"@type":"WebPage"},{"@type":["Organization"]}]}'))),
      ).value,
    ).toEqual(["WebPage", "Organization"]);
    expect(
      run(structuredData, pageFrom(doc('<div itemscope itemtype="https://schema.org/Product"></div>')))
        .status,
    ).toBe("pass");
    expect(
      run(structuredData, pageFrom(doc('<div vocab="https://schema.org/" typeof="Person"></div>'))).status,
    ).toBe("pass");
  });
  it("fails on JSON-LD that does not parse, and says which block", () => {
    const result = run(structuredData, pageFrom(doc("", jsonLd('{"@type":"A"}') + jsonLd("{broken"))));
    expect(result.status).toBe("fail");
    expect(result.message).toContain("block 2 of 2");
  });
  it("fails without structured data or without a type", () => {
    expect(run(structuredData, pageFrom(doc(""))).status).toBe("fail");
    expect(run(structuredData, pageFrom(doc("", jsonLd('{"name":"x"}')))).status).toBe("fail");
  });
});
