/**
 * Runs a crawl's extraction rules over one parsed page, where the page is parsed (on the analysis pool's thread
 * for a large page, so it is bounded by the analysis time and memory limits like the rest of the analysis). Each
 * rule gives at most `maxValuesPerRule` values of at most `maxValueLength` characters, in document order:
 * a selector the text of each matching element (whitespace collapsed) or the value of its attribute, a regex
 * its first capture group (else the whole match) for each match, over at most `maxRegexInput` characters of
 * the HTML, fewer for a large pattern (`regexInputFor`), and for at most `maxRegexFindMs` of finding once a
 * match is known to exist. A selector may take at most `maxSelectorSteps` steps through the tree on a page (on a page nested
 * 100,000 deep, `section div` would otherwise cost minutes), each node it touches a step, and at most
 * `maxSelectorMs`; past them it keeps the values found so far. All the rules of a page together stop looking
 * after `maxExtractionMs`. The result lists the values per rule, in the rules' order.
 */
import type { RE2JS } from "re2js";
import { type CompiledRule, compileRule, type ExtractionRule } from "./extraction-rules.js";
import { elementsOf, type Parse5Node, StepBudgetSpent, textOf, withStepBudget } from "./parse5-adapter.js";

export const maxValuesPerRule = 10;
export const maxValueLength = 500;
/** The HTML a regex reads at most, in characters. */
export const maxRegexInput = 2 * 1024 * 1024;
/**
 * What one pass of a regex over the HTML may cost, in program instructions × characters. re2js answers whether
 * a pattern matches with a DFA (tens of ms for 2 MiB), but finds where, and its groups, with an NFA whose cost
 * per character grows with the pattern's program: about 12 ns per instruction per character, so
 * `([ab ]{1,1000})Q` (2,000 instructions) over 2 MiB of `ab ` took 224 s. A pattern reads at most this many
 * instruction-characters (0.3 s or so): all 2 MiB for a pattern of up to 11 instructions, 25,000 characters for
 * the largest one accepted (`maxRegexInstructions`).
 */
export const maxRegexWork = 25_000_000;
/** How long the matches of one rule on one page are looked for, once one is known to exist. */
export const maxRegexFindMs = 400;
/** Steps through the tree one selector may take on one page (a second or so of work at most). */
export const maxSelectorSteps = 5_000_000;
/** How long one selector may run on one page, whatever its steps (see `withStepBudget`). */
export const maxSelectorMs = 1000;
/**
 * How long all the rules together may look on one page: a rule that starts past it gives no values, one that
 * runs into it keeps those found so far (a regex's first pass over its input, 0.3 s at most, is not cut).
 */
export const maxExtractionMs = 2000;

/** Values per rule, in the rules' order. */
export type ExtractedValues = string[][];

type SelectorRule = Extract<CompiledRule, { kind: "selector" }>;
type RegexRule = Extract<CompiledRule, { kind: "regex" }>;

export function extractValues(
  rules: ExtractionRule[],
  document: { root: Parse5Node; html: string },
): ExtractedValues {
  const deadline = performance.now() + maxExtractionMs;
  return rules.map((rule) => {
    const compiled = compileRule(rule);
    const msLeft = deadline - performance.now();
    if (msLeft <= 0) return [];
    return compiled.kind === "selector"
      ? selectedValues(compiled, document.root, Math.min(maxSelectorMs, msLeft))
      : matchedValues(compiled, document.html, Math.min(maxRegexFindMs, msLeft));
  });
}

function selectedValues(rule: SelectorRule, root: Parse5Node, ms: number): string[] {
  const values: string[] = [];
  try {
    withStepBudget(maxSelectorSteps, ms, () => {
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

/** The characters of HTML a regex reads: `maxRegexInput`, fewer for a pattern whose program is large. */
export function regexInputFor(pattern: RE2JS): number {
  return Math.min(maxRegexInput, Math.floor(maxRegexWork / Math.max(1, pattern.programSize())));
}

function matchedValues(rule: RegexRule, fullHtml: string, findMs: number): string[] {
  const values: string[] = [];
  const input = regexInputFor(rule.pattern);
  const html = fullHtml.length > input ? fullHtml.slice(0, input) : fullHtml;
  // Whether anything matches is answered many times faster than where and with which groups: most pages of a
  // crawl have no match for most rules.
  if (!rule.pattern.test(html)) return values;
  const matcher = rule.pattern.matcher(html);
  const hasGroup = rule.pattern.groupCount() > 0;
  const started = performance.now();
  while (values.length < maxValuesPerRule && performance.now() - started < findMs && matcher.find()) {
    const value = (hasGroup ? matcher.group(1) : matcher.group()) ?? "";
    values.push(value.slice(0, maxValueLength));
  }
  return values;
}
