/**
 * structured-data: the page's JSON-LD, microdata and RDFa parse and speak schema.org: known types, known
 * properties of those types (the closest known name when one is misspelt), values of the kind a property
 * expects. Absence is not a defect (info). The items come from the parse (src/analysis/structured-data/).
 */
import { validateAgainstSchema } from "../structured-data/schema-validation.js";
import { structuredDataLimits } from "../structured-data/structured-items.js";
import { type CheckDefinition, outcome, plural, verb } from "./check.js";

export const structuredData: CheckDefinition = {
  id: "structured-data",
  category: "seo",
  importance: "medium",
  title: "Structured data",
  description:
    "The page's schema.org structured data (JSON-LD, microdata or RDFa) parses, uses types and properties that exist in the schema.org vocabulary, and gives each property a value of the kind it expects.",
  howToFix:
    "Fix each listed item: make the JSON-LD valid JSON, rename unknown types and properties to the schema.org name suggested, and give dates, URLs and numbers in their standard form (2024-05-17, https://…, 19.99).",
  run(page) {
    const { items, jsonLdErrors, limitReached } = page.document.structuredData;
    const unread = limitReached ? ` (read up to the ${limitNames[limitReached]} limit)` : "";
    if (jsonLdErrors.length > 0) {
      const first = jsonLdErrors[0] as (typeof jsonLdErrors)[number];
      const at = first.line !== null ? `, line ${first.line} column ${first.column}` : "";
      return outcome.fail(
        `${plural(jsonLdErrors.length, "JSON-LD block")} ${verb(jsonLdErrors.length, "does", "do")} not parse (block ${first.block}${at}).`,
        jsonLdErrors.length,
        jsonLdErrors.map((error) => ({
          where: `JSON-LD block ${error.block}`,
          line: error.line,
          column: error.column,
          problem: error.message,
          fix: "Make the block valid JSON (a trailing comma, a missing quote or an unescaped line break are the usual causes).",
        })),
      );
    }
    const judged = items.filter((item) => item.types.length > 0 || item.otherTypes.length === 0);
    if (items.length === 0 || judged.length === 0)
      return outcome.info(
        items.length === 0
          ? "The page has no structured data."
          : "The page's structured data uses no schema.org type.",
        0,
      );
    const problems = validateAgainstSchema(items);
    const types = [...new Set(items.flatMap((item) => item.types))].slice(0, 5).join(", ");
    if (problems.length > 0)
      return outcome.warn(
        `${plural(problems.length, "problem")} in the page's structured data against schema.org${unread}: ${problems[0]?.problem}`,
        problems.length,
        problems.map((problem) => ({
          type: problem.type,
          path: problem.path,
          problem: problem.problem,
          fix: problem.fix,
          where: problem.where,
        })),
      );
    return outcome.pass(
      `${plural(items.length, "structured data item")} (${types || "untyped"}) ${verb(items.length, "matches", "match")} the schema.org vocabulary${unread}.`,
      0,
    );
  },
};

const limitNames: Record<keyof typeof structuredDataLimits, string> = {
  jsonLdChars: `${structuredDataLimits.jsonLdChars / 1024 / 1024} MiB of JSON-LD`,
  items: `${structuredDataLimits.items} items`,
  depth: `${structuredDataLimits.depth} levels of nesting`,
  values: `${structuredDataLimits.values} values`,
  textChars: `${structuredDataLimits.textChars} characters per value`,
};
