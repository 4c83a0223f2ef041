/**
 * Custom extraction rules, as a crawl asks for them, and their compiled form: a CSS selector (the element's text,
 * or one attribute's value) run by css-select over the parse5 tree, or a regular expression over the page's HTML
 * run by re2js (a port of RE2: matching takes time linear in the input, whatever the pattern, so no page can make
 * a pattern run away). `compileRule` throws `InvalidRule` with a message for people; the crawl service turns it
 * into a 422 naming `extract` before a crawl starts, and the analysis compiles the same rules again where the
 * page is parsed (only plain rules cross a thread boundary).
 */
import { compile } from "css-select";
import { RE2JS } from "re2js";
import safeRegex from "safe-regex2";
import { type Parse5Element, type Parse5Node, parse5Adapter } from "./parse5-adapter.js";

export type ExtractionRule =
  | { name: string; selector: string; attribute?: string }
  | { name: string; regex: string };

export type CompiledRule =
  | { name: string; kind: "selector"; matches: (element: Parse5Element) => boolean; attribute: string | null }
  | { name: string; kind: "regex"; pattern: RE2JS };

export class InvalidRule extends Error {
  override readonly name = "InvalidRule";
}

/** Quantified repetitions a regex may hold (safe-regex2's own default). */
const maxRepetitions = 25;
/**
 * The largest compiled program a regex may have, in re2js instructions. A counted repetition is compiled as
 * that many copies (`[ab ]{1,1000}` is 2,000 instructions), and finding a match costs time per character in
 * proportion to the program, so the HTML a pattern reads shrinks as its program grows (`regexInputFor`); past
 * this size it would read too little to be of use, and the rule is refused.
 */
export const maxRegexInstructions = 1000;

/** A regex compiled by re2js: matched in time linear in the input, whatever the pattern. Throws when invalid. */
export function linearPattern(regex: string): RE2JS {
  return RE2JS.compile(regex);
}

export function compileRule(rule: ExtractionRule): CompiledRule {
  if ("selector" in rule) {
    let matches: (element: Parse5Node) => boolean;
    try {
      matches = compile<Parse5Node, Parse5Element>(rule.selector, { adapter: parse5Adapter });
    } catch {
      throw new InvalidRule(`The selector of rule "${rule.name}" is not a valid CSS selector.`);
    }
    return { name: rule.name, kind: "selector", matches, attribute: rule.attribute ?? null };
  }
  // Nested quantifiers ((a+)+) backtrack without bound in the engines other tools run them with; RE2 would run
  // them in linear time, but such a rule is refused so that every stored rule is safe anywhere.
  let safe: boolean;
  try {
    safe = safeRegex(rule.regex, { limit: maxRepetitions });
  } catch {
    safe = false;
  }
  let pattern: RE2JS;
  try {
    pattern = linearPattern(rule.regex);
  } catch {
    throw new InvalidRule(
      `The regex of rule "${rule.name}" is not a valid regular expression (RE2 syntax: no backreferences or lookaround).`,
    );
  }
  if (!safe) {
    throw new InvalidRule(
      `The regex of rule "${rule.name}" could backtrack without bound (nested quantifiers such as (a+)+, or more than ${maxRepetitions} repetitions).`,
    );
  }
  if (pattern.programSize() > maxRegexInstructions) {
    throw new InvalidRule(
      `The regex of rule "${rule.name}" is too large once compiled (over ${maxRegexInstructions} instructions; counted repetitions such as {1,1000} are compiled as that many copies).`,
    );
  }
  return { name: rule.name, kind: "regex", pattern };
}
