import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseDocument, startTag } from "../../src/analysis/parse.js";

const fixture = (name: string) => readFileSync(new URL(`../fixtures/pages/${name}`, import.meta.url), "utf8");

describe("parseDocument", () => {
  const facts = parseDocument(fixture("complete.html"), "https://example.com/guide");

  it("reads the document's mode, language, title and metas", () => {
    expect(facts.mode).toBe("no-quirks");
    expect(facts.doctype?.name).toBe("html");
    expect(facts.lang).toBe("en-GB");
    expect(facts.titles).toEqual(["Bicycle Repair Guide"]);
    expect(facts.metas.find((meta) => meta.name === "viewport")?.content).toBe(
      "width=device-width, initial-scale=1",
    );
    expect(facts.metas.find((meta) => meta.property === "og:title")?.content).toBe("Bicycle Repair Guide");
  });

  it("resolves URLs against <base href>", () => {
    expect(facts.links.find((link) => link.rel.includes("stylesheet"))?.href).toBe(
      "https://cdn.example.com/assets/site.css",
    );
    expect(facts.links.find((link) => link.rel.includes("icon"))?.href).toBe(
      "https://cdn.example.com/favicon.svg",
    );
    expect(facts.anchors[0]?.href).toBe("https://cdn.example.com/assets/tyres.html");
  });

  it("collects headings and link texts with nested markup and image alts", () => {
    expect(facts.headings).toEqual([
      { level: 1, text: "Repair your bicycle" },
      { level: 2, text: "Tyres" },
    ]);
    expect(facts.anchors.map((anchor) => anchor.text)).toEqual(["Tyre guide", "Shop logo", "menu"]);
    expect(facts.anchors[0]?.rel).toEqual(["nofollow", "noopener"]);
    expect(facts.anchors[0]?.target).toBe("_blank");
    expect(facts.anchors[2]?.rawHref).toBe("javascript:void(0)");
  });

  it("collects images with picture sources and srcset candidates", () => {
    const hero = facts.images.find((image) => image.src?.endsWith("hero.jpg"));
    expect(hero).toMatchObject({
      width: "800",
      height: "400",
      alt: "",
      decorative: true,
      pictureSourceTypes: ["image/avif"],
    });
    const pixel = facts.images.find((image) => image.src?.endsWith("pixel.gif"));
    expect(pixel?.srcset).toEqual([
      "https://cdn.example.com/assets/a.png",
      "https://cdn.example.com/assets/b,c.png",
    ]);
    expect(pixel?.loading).toBe("lazy");
    expect(pixel?.alt).toBeNull();
  });

  it("collects scripts, JSON-LD, resources and forms", () => {
    expect(facts.scripts).toHaveLength(1);
    const [script] = facts.scripts;
    expect(script).toMatchObject({
      src: "https://cdn.example.com/assets/head.js",
      type: null,
      async: false,
      defer: false,
      inHead: true,
    });
    expect(script?.html).toBe('<script src="head.js">');
    expect(JSON.parse(facts.jsonLd[0] ?? "")).toEqual({ "@context": "https://schema.org", "@type": "HowTo" });
    expect(facts.resources.map((resource) => [resource.tag, resource.lazy])).toEqual([
      ["link", false],
      ["iframe", true],
    ]);
    expect(facts.forms).toEqual([
      {
        action: "https://cdn.example.com/subscribe",
        method: "post",
        hasPassword: true,
        html: '<form action="/subscribe" method="POST">',
      },
    ]);
    expect(facts.passwordFields).toBe(1);
  });

  it("keeps hidden, script, template and SVG text out of the visible text", () => {
    expect(facts.text).toContain("Tools you need & where to buy them.");
    for (const hidden of [
      "hidden text",
      "enable scripts",
      "template text",
      "svg text",
      "svg title",
      "HowTo",
    ]) {
      expect(facts.text).not.toContain(hidden);
    }
  });

  it("counts inline styles outside SVG, obsolete elements and microdata", () => {
    expect(facts.inlineStyles.count).toBe(1);
    expect(facts.deprecatedElements).toEqual([{ tag: "center", html: "<center>" }]);
    expect(facts.microdata).toBe(true);
    expect(facts.rdfa).toBe(false);
  });

  it("builds the tree a browser builds from broken markup", () => {
    const broken = parseDocument(
      "<title>x</title><p>one<p>two<a href=/a>link<table><tr><td>cell</table>",
      "http://h/",
    );
    expect(broken.mode).toBe("quirks");
    expect(broken.anchors.map((anchor) => anchor.href)).toEqual(["http://h/a"]);
    expect(broken.text).toBe("one two link cell");
  });

  it("walks deeply nested documents without exhausting the stack", () => {
    const deep = parseDocument(`${"<div>".repeat(50_000)}deep${"</div>".repeat(50_000)}`, "http://h/");
    expect(deep.text).toBe("deep");
    expect(deep.elementCount).toBeGreaterThan(50_000);
  });

  it("renders start tags for evidence with escaped, shortened attributes", () => {
    const element = {
      tagName: "img",
      attrs: [
        { name: "src", value: 'a"b&c' },
        { name: "alt", value: "" },
        { name: "title", value: "x".repeat(200) },
      ],
    };
    expect(startTag(element as never)).toBe(`<img src="a&quot;b&amp;c" alt title="${"x".repeat(117)}…">`);
  });
});
