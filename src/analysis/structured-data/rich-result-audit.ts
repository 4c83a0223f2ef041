/**
 * Applies rich-result-rules.ts to a page's top-level items: which items Google could show as a rich result,
 * and for each, the required properties missing or invalid and the recommended ones missing, with the item
 * type, the property path ("Product > offers > price") and the rule's source.
 */
import { type RichResultRule, richResultRules, type ValueKind } from "./rich-result-rules.js";
import { schemaVocabulary } from "./schema-vocabulary.js";
import type { StructuredItem, StructuredValue } from "./structured-items.js";
import { isCurrencyCode, isDateOrDateTime, isDuration, isInteger, isNumber, isUrl } from "./value-kinds.js";

export interface RichResultFinding {
  level: "required" | "recommended";
  /** The type of the item that lacks the property ("Offer"). */
  type: string;
  path: string;
  problem: string;
  fix: string;
  source: string;
}

export interface RichResultAudit {
  /** Top-level items a rule applied to, with the rule's id. */
  judged: Array<{ type: string; rule: string }>;
  findings: RichResultFinding[];
}

interface Alternative {
  path: string[];
  kind: ValueKind | null;
}

const rulesById = new Map(richResultRules.map((rule) => [rule.id, rule]));
const parsedRequirements = new Map<string, Alternative[]>();
/** Nested items judged per page at most (a list of a thousand offers is judged by its first ones). */
const maxJudged = 500;

export function auditRichResults(items: readonly StructuredItem[]): RichResultAudit {
  const audit: RichResultAudit = { judged: [], findings: [] };
  let budget = maxJudged;
  const judge = (item: StructuredItem, rule: RichResultRule, path: string, last = false) => {
    if (budget-- <= 0) return;
    const type = item.types[0] ?? "(untyped)";
    for (const [level, requirements] of [
      ["required", rule.required],
      ["recommended", rule.recommended],
    ] as const)
      for (const requirement of requirements) {
        if (last && rule.exceptOnLast?.includes(requirement)) continue;
        const finding = check(item, requirement);
        if (finding)
          audit.findings.push({
            level,
            type,
            path: `${path} > ${finding.property}`,
            problem: finding.problem.replace("{level}", level),
            fix: finding.fix.replace("{type}", type),
            source: rule.source,
          });
      }
    for (const [property, ruleIds] of Object.entries(rule.nested ?? {})) {
      const values = valuesOf(item, property);
      const lastOne = lastOf(values);
      for (const value of values) {
        if (typeof value !== "object" || value.reference) continue;
        const nestedRule = ruleIds
          .map((id) => rulesById.get(id))
          .find((candidate) => candidate && matches(value, candidate));
        if (nestedRule) judge(value, nestedRule, `${path} > ${property}`, value === lastOne);
      }
    }
  };
  for (const item of items) {
    if (item.reference) continue;
    for (const rule of mostSpecific(
      richResultRules.filter((rule) => rule.topLevel !== false && matches(item, rule)),
    )) {
      audit.judged.push({ type: item.types[0] ?? "", rule: rule.id });
      judge(item, rule, item.types[0] ?? "");
    }
  }
  return audit;
}

/** The last item of a list: the one of highest `position` when every item has a numeric one, else the last. */
function lastOf(values: StructuredValue[]): StructuredValue | undefined {
  const positions = values.map((value) => {
    const position = typeof value === "object" ? valuesOf(value, "position")[0] : undefined;
    if (typeof position === "number") return position;
    return typeof position === "string" && position.trim() !== "" ? Number(position) : Number.NaN;
  });
  if (values.length > 0 && positions.every((position) => Number.isFinite(position))) {
    let highest = 0;
    positions.forEach((position, index) => {
      if (position > (positions[highest] as number)) highest = index;
    });
    return values[highest];
  }
  return values.at(-1);
}

function matches(item: StructuredItem, rule: RichResultRule): boolean {
  const vocabulary = schemaVocabulary();
  return item.types.some((type) => rule.types.some((ruleType) => vocabulary.isSubtypeOf(type, ruleType)));
}

/** Drops a rule when another matching rule names a subtype of its types (LocalBusiness over Organization). */
function mostSpecific(rules: RichResultRule[]): RichResultRule[] {
  const vocabulary = schemaVocabulary();
  return rules.filter(
    (rule) =>
      !rules.some(
        (other) =>
          other !== rule &&
          other.types.some((o) => rule.types.some((r) => o !== r && vocabulary.isSubtypeOf(o, r))),
      ),
  );
}

function alternatives(requirement: string): Alternative[] {
  let parsed = parsedRequirements.get(requirement);
  if (!parsed) {
    parsed = requirement.split("|").map((alternative) => {
      const [path = "", kind] = alternative.split(":");
      return { path: path.split("."), kind: (kind as ValueKind | undefined) ?? null };
    });
    parsedRequirements.set(requirement, parsed);
  }
  return parsed;
}

function check(
  item: StructuredItem,
  requirement: string,
): { property: string; problem: string; fix: string } | null {
  const options = alternatives(requirement);
  const names = options.map((option) => option.path.join("."));
  let invalid: { property: string; value: StructuredValue; kind: ValueKind } | null = null;
  for (const option of options) {
    const values = valuesAt(item, option.path).filter(present);
    if (values.length === 0) continue;
    const bad = option.kind ? values.find((value) => !hasKind(value, option.kind as ValueKind)) : undefined;
    if (bad === undefined) return null;
    invalid ??= { property: option.path.join(" > "), value: bad, kind: option.kind as ValueKind };
  }
  if (invalid)
    return {
      property: invalid.property,
      problem: `The {level} property "${invalid.property.replace(/ > /g, ".")}" is ${shown(invalid.value)}, not ${kindName[invalid.kind]}.`,
      fix: `Give "${invalid.property.replace(/ > /g, ".")}" ${kindName[invalid.kind]}${kindExample[invalid.kind]}.`,
    };
  const first = options[0] as Alternative;
  const wanted = names.map((name) => `"${name}"`).join(" or ");
  return {
    property: names.join(" | ").replace(/\./g, " > "),
    problem: `The {level} property ${wanted} is missing.`,
    fix: `Add ${wanted} to the {type}${first.kind ? ` (${kindName[first.kind]}${kindExample[first.kind]})` : ""}.`,
  };
}

function valuesOf(item: StructuredItem, name: string): StructuredValue[] {
  const values: StructuredValue[] = [];
  for (const property of item.properties) if (property.name === name) values.push(...property.values);
  return values;
}

function valuesAt(item: StructuredItem, path: string[]): StructuredValue[] {
  let current: StructuredValue[] = [item];
  for (const name of path) {
    const next: StructuredValue[] = [];
    for (const value of current) if (typeof value === "object") next.push(...valuesOf(value, name));
    current = next;
  }
  return current;
}

function present(value: StructuredValue): boolean {
  return typeof value !== "string" || value.trim() !== "";
}

function hasKind(value: StructuredValue, kind: ValueKind): boolean {
  if (typeof value === "object") return kind === "text" || kind === "url";
  if (typeof value === "number") return kind === "number" || (kind === "integer" && Number.isInteger(value));
  if (typeof value === "boolean") return kind === "text";
  switch (kind) {
    case "number":
      return isNumber(value);
    case "integer":
      return isInteger(value);
    case "date":
      return isDateOrDateTime(value);
    case "url":
      return isUrl(value);
    case "currency":
      return isCurrencyCode(value);
    case "duration":
      return isDuration(value);
    case "text":
      return true;
  }
}

const kindName: Record<ValueKind, string> = {
  number: "a number",
  integer: "a whole number",
  date: "an ISO 8601 date",
  url: "a URL",
  currency: "an ISO 4217 currency code",
  duration: "an ISO 8601 duration",
  text: "text",
};

const kindExample: Record<ValueKind, string> = {
  number: " such as 19.99 (digits only, no currency sign or unit)",
  integer: " such as 3",
  date: " such as 2024-05-17 or 2024-05-17T09:30:00+02:00",
  url: " such as https://example.com/page",
  currency: " such as EUR or USD",
  duration: " such as PT1H30M",
  text: "",
};

function shown(value: StructuredValue): string {
  if (typeof value === "object") return `an item (${value.types[0] ?? "untyped"})`;
  if (typeof value !== "string") return String(value);
  if (value.trim() === "") return "an empty value";
  return JSON.stringify(value.length > 60 ? `${value.slice(0, 59)}…` : value);
}
