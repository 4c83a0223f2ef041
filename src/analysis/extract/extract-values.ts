/**
 * Runs a crawl's extraction rules over one parsed page, where the page is parsed (on the analysis pool's thread
 * for a large page, so it is bounded by the analysis time and memory limits like the rest of the analysis). Each
 * rule gives at most `maxValuesPerRule` values of at most `maxValueLength` characters, in document order:
 * a selector the text of each matching element (whitespace collapsed) or the value of its attribute, a regex
 * its first capture group (else the whole match) for each match, over at most `maxRegexInput` characters of
 * the HTML. The result lists the values per rule, in the rules' order.
 */

import { type CompiledRule, compileRule, type ExtractionRule } from "./extraction-rules.js";
import { elementsOf, type Parse5Node, textOf } from "./parse5-adapter.js";

export const maxValuesPerRule = 10;
export const maxValueLength = 500;
/** The HTML a regex reads: the fetcher's body cap, so a rendered DOM grown past it is read up to the cap. */
export const maxRegexInput = 5 * 1024 * 1024;

/** Values per rule, in the rules' order. */
export type ExtractedValues = string[][];

export function extractValues(
  rules: ExtractionRule[],
  document: { root: Parse5Node; html: string },
): ExtractedValues {
  return rules.map((rule) => valuesOf(compileRule(rule), document));
}

function valuesOf(rule: CompiledRule, document: { root: Parse5Node; html: string }): string[] {
  const values: string[] = [];
  if (rule.kind === "selector") {
    for (const element of elementsOf(document.root)) {
      if (!rule.matches(element)) continue;
      const value =
        rule.attribute === null
          ? textOf(element, maxValueLength * 4)
              .replace(/\s+/g, " ")
              .trim()
          : element.attrs.find((attribute) => attribute.name === rule.attribute)?.value;
      if (value === undefined) continue;
      values.push(value.slice(0, maxValueLength));
      if (values.length === maxValuesPerRule) break;
    }
    return values;
  }
  const html = document.html.length > maxRegexInput ? document.html.slice(0, maxRegexInput) : document.html;
  const matcher = rule.pattern.matcher(html);
  const hasGroup = rule.pattern.groupCount() > 0;
  while (values.length < maxValuesPerRule && matcher.find()) {
    const value = (hasGroup ? matcher.group(1) : matcher.group()) ?? "";
    values.push(value.slice(0, maxValueLength));
  }
  return values;
}
