/**
 * A crawl's extraction rules as asked for (`extract`: a JSON array, or its JSON text in a form field), checked
 * before the crawl starts: at most 10 rules, each `{name, selector[, attribute]}` or `{name, regex}`, names of
 * 1–40 letters, digits, `-` and `_`, unique; every selector and regex compiled (`compileRule`), so an invalid
 * one, or a regex that could backtrack without bound, is a 422 naming `extract`.
 */
import { compileRule, type ExtractionRule, InvalidRule } from "../analysis/extract/extraction-rules.js";
import { ValidationFailed } from "../errors.js";

export const maxRules = 10;
const maxRuleText = 500;
const namePattern = /^[A-Za-z0-9_-]{1,40}$/;
const attributePattern = /^[^\s"'>/=]{1,100}$/;

const refuse = (message: string) => ValidationFailed.of("extract", message);

export function extractionRules(raw: unknown): ExtractionRule[] {
  if (raw === undefined || raw === null || raw === "") return [];
  let list = raw;
  if (typeof raw === "string") {
    try {
      list = JSON.parse(raw);
    } catch {
      throw refuse(
        'The extract field must be a JSON array of rules such as [{"name": "price", "selector": ".price"}].',
      );
    }
  }
  if (!Array.isArray(list)) throw refuse("The extract field must be an array of rules.");
  if (list.length > maxRules) throw refuse(`The extract field may hold at most ${maxRules} rules.`);
  const names = new Set<string>();
  return list.map((item: unknown, index) => {
    const rule = ruleOf(item, index + 1);
    if (names.has(rule.name))
      throw refuse(`The extract field names "${rule.name}" twice; names must be unique.`);
    names.add(rule.name);
    try {
      compileRule(rule);
    } catch (error) {
      if (error instanceof InvalidRule) throw refuse(error.message);
      throw error;
    }
    return rule;
  });
}

function ruleOf(item: unknown, position: number): ExtractionRule {
  if (typeof item !== "object" || item === null || Array.isArray(item)) {
    throw refuse(
      `Rule ${position} of the extract field must be an object with a name and a selector or regex.`,
    );
  }
  const fields = item as Record<string, unknown>;
  for (const key of Object.keys(fields)) {
    if (!["name", "selector", "attribute", "regex"].includes(key)) {
      throw refuse(`Rule ${position} of the extract field has an unknown field "${key.slice(0, 40)}".`);
    }
  }
  const { name, selector, attribute, regex } = fields;
  if (typeof name !== "string" || !namePattern.test(name)) {
    throw refuse(`Rule ${position} of the extract field needs a name of 1 to 40 letters, digits, - or _.`);
  }
  const text = (value: unknown, field: string) => {
    if (typeof value !== "string" || value.trim() === "" || value.length > maxRuleText) {
      throw refuse(`The ${field} of rule "${name}" must be text of 1 to ${maxRuleText} characters.`);
    }
    return value;
  };
  if (selector !== undefined && regex !== undefined) {
    throw refuse(`Rule "${name}" has both a selector and a regex; give one.`);
  }
  if (regex !== undefined) {
    if (attribute !== undefined)
      throw refuse(`Rule "${name}": an attribute goes with a selector, not a regex.`);
    return { name, regex: text(regex, "regex") };
  }
  if (selector === undefined) throw refuse(`Rule "${name}" needs a selector or a regex.`);
  if (attribute === undefined) return { name, selector: text(selector, "selector") };
  if (typeof attribute !== "string" || !attributePattern.test(attribute)) {
    throw refuse(`The attribute of rule "${name}" must be an attribute name.`);
  }
  return { name, selector: text(selector, "selector"), attribute: attribute.toLowerCase() };
}
