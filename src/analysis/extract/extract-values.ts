/**
 * Runs a crawl's extraction rules over one parsed page, where the page is parsed (on the analysis pool's thread
 * for a large page, so it is bounded by the analysis time and memory limits like the rest of the analysis). Each
 * rule gives at most `maxValuesPerRule` values of at most `maxValueLength` characters, in document order:
 * a selector the text of each matching element (whitespace collapsed) or the value of its attribute, a regex
 * its first capture group (else the whole match) for each match, over at most `maxRegexInput` characters of
 * the HTML. A selector may take at most `maxSelectorSteps` steps through the tree on a page (on a page nested
 * 100,000 deep, `section div` would otherwise cost minutes); past them it keeps the values found so far. The
 * result lists the values per rule, in the rules' order.
 */
import { type CompiledRule, compileRule, type ExtractionRule } from "./extraction-rules.js";
import { elementsOf, type Parse5Node, StepBudgetSpent, textOf, withStepBudget } from "./parse5-adapter.js";

export const maxValuesPerRule = 10;
export const maxValueLength = 500;
/**
 * The HTML a regex reads, in characters. re2js finds a match (with its groups) at about 1.5 MB/s for a pattern
 * without a literal to look for, so ten such rules over this much stay within seconds.
 */
export const maxRegexInput = 2 * 1024 * 1024;
/** Steps through the tree one selector may take on one page (a second or so of work at most). */
export const maxSelectorSteps = 5_000_000;

/** Values per rule, in the rules' order. */
export type ExtractedValues = string[][];

type SelectorRule = Extract<CompiledRule, { kind: "selector" }>;
type RegexRule = Extract<CompiledRule, { kind: "regex" }>;

export function extractValues(
  rules: ExtractionRule[],
  document: { root: Parse5Node; html: string },
): ExtractedValues {
  return rules.map((rule) => {
    const compiled = compileRule(rule);
    return compiled.kind === "selector"
      ? selectedValues(compiled, document.root)
      : matchedValues(compiled, document.html);
  });
}

function selectedValues(rule: SelectorRule, root: Parse5Node): string[] {
  const values: string[] = [];
  try {
    withStepBudget(maxSelectorSteps, () => {
      for (const element of elementsOf(root)) {
        if (!rule.matches(element)) continue;
        const value =
          rule.attribute === null
            ? textOf(element, maxValueLength * 4)
                .replace(/\s+/g, " ")
                .trim()
            : element.attrs.find((attribute) => attribute.name === rule.attribute)?.value;
        if (value === undefined) continue;
        values.push(value.slice(0, maxValueLength));
        if (values.length === maxValuesPerRule) return;
      }
    });
  } catch (error) {
    if (!(error instanceof StepBudgetSpent)) throw error;
  }
  return values;
}

function matchedValues(rule: RegexRule, fullHtml: string): string[] {
  const values: string[] = [];
  const html = fullHtml.length > maxRegexInput ? fullHtml.slice(0, maxRegexInput) : fullHtml;
  // Whether anything matches is answered many times faster than where and with which groups: most pages of a
  // crawl have no match for most rules.
  if (!rule.pattern.test(html)) return values;
  const matcher = rule.pattern.matcher(html);
  const hasGroup = rule.pattern.groupCount() > 0;
  while (values.length < maxValuesPerRule && matcher.find()) {
    const value = (hasGroup ? matcher.group(1) : matcher.group()) ?? "";
    values.push(value.slice(0, maxValueLength));
  }
  return values;
}
