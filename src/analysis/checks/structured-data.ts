/** structured-data: the page describes itself in schema.org terms. */
import { type CheckDefinition, outcome } from "./check.js";

export const structuredData: CheckDefinition = {
  id: "structured-data",
  category: "miscellaneous",
  importance: "medium",
  title: "Structured data",
  description:
    "The page carries schema.org structured data (JSON-LD, microdata or RDFa) that makes it eligible for rich results.",
  howToFix:
    'Add a <script type="application/ld+json"> block describing the page with a schema.org @type (Article, Product, Organization, …) and check that it parses.',
  run(page) {
    const { jsonLd, microdata, rdfa } = page.document;
    const broken: Array<{ block: number; error: string }> = [];
    const types = new Set<string>();
    jsonLd.forEach((text, index) => {
      try {
        collectTypes(JSON.parse(text), types);
      } catch (error) {
        broken.push({ block: index + 1, error: (error as Error).message.slice(0, 200) });
      }
    });
    if (broken.length > 0) {
      return outcome.fail(
        `JSON-LD block ${broken[0]?.block} of ${jsonLd.length} does not parse.`,
        null,
        broken,
      );
    }
    if (types.size > 0)
      return outcome.pass(`The page declares JSON-LD of type ${[...types].slice(0, 5).join(", ")}.`, [
        ...types,
      ]);
    if (microdata) return outcome.pass("The page carries microdata.", "microdata");
    if (rdfa) return outcome.pass("The page carries RDFa.", "rdfa");
    if (jsonLd.length > 0) return outcome.fail("The page's JSON-LD names no @type.", null);
    return outcome.fail("The page has no structured data.", null);
  },
};

function collectTypes(node: unknown, types: Set<string>, depth = 0): void {
  if (depth > 20 || node === null || typeof node !== "object") return;
  if (Array.isArray(node)) {
    for (const item of node) collectTypes(item, types, depth + 1);
    return;
  }
  const record = node as Record<string, unknown>;
  const type = record["@type"];
  for (const name of Array.isArray(type) ? type : [type])
    if (typeof name === "string" && name) types.add(name);
  if (record["@graph"]) collectTypes(record["@graph"], types, depth + 1);
}
