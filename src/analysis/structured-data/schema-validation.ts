/**
 * Judges StructuredItems against the schema.org vocabulary: types that do not exist, properties that do not
 * exist or do not apply to the item's type (with the closest known name), and values of the wrong kind where a
 * property's range allows only data types (a date that is not a date, text where a URL or a number is
 * expected, a name where an enumeration member is expected). schema.org accepts text for properties that
 * expect an item, so such text is not a finding.
 */
import { closestName } from "./closest-name.js";
import { schemaVocabulary, type Vocabulary } from "./schema-vocabulary.js";
import type { StructuredItem } from "./structured-items.js";
import { isBoolean, isDateOrDateTime, isNumber, isTime, isUrl } from "./value-kinds.js";

export type SchemaProblemKind =
  | "missing-type"
  | "unknown-type"
  | "unknown-property"
  | "misplaced-property"
  | "wrong-value-kind";

export interface SchemaProblem {
  kind: SchemaProblemKind;
  /** The item's type ("Product"), or "(untyped)". */
  type: string;
  /** The property path from the top-level item: "Product > offers > price". */
  path: string;
  problem: string;
  fix: string;
  where: string;
}

/** At most this many problems are gathered per page (the evidence shows 50). */
const maxProblems = 200;
/** At most this many closest-name searches per page. */
const maxSuggestions = 60;

const textTypes = new Set(["Text", "CssSelectorType", "XPathType", "PronounceableText"]);
const dataTypes = new Set([
  ...textTypes,
  "URL",
  "Date",
  "DateTime",
  "Time",
  "Number",
  "Integer",
  "Float",
  "Boolean",
  "DataType",
]);

export function validateAgainstSchema(items: readonly StructuredItem[]): SchemaProblem[] {
  const vocabulary = schemaVocabulary();
  const problems: SchemaProblem[] = [];
  const report = (problem: SchemaProblem) => {
    if (problems.length < maxProblems) problems.push(problem);
  };
  // Iterative, so nesting depth costs no stack (it is bounded by structuredDataLimits.depth anyway).
  const queue: Array<{ item: StructuredItem; path: string }> = [];
  for (const item of items) queue.push({ item, path: label(item) });
  const suggestions = new Map<string, string | null>();
  /** The closest known name, among candidates that `scope` names (the item's types, or "type" for types). */
  const closest = (name: string, scope: string, candidates: () => Iterable<string>) => {
    const key = `${scope}\u0000${name}`;
    let found = suggestions.get(key);
    if (found === undefined) {
      // Suggestions for the evidence shown only: a page full of unknown names costs no more than that.
      found = suggestions.size < maxSuggestions ? closestName(name, candidates()) : null;
      suggestions.set(key, found);
    }
    return found;
  };
  for (let next = 0; next < queue.length && problems.length < maxProblems; next++) {
    const { item, path } = queue[next] as { item: StructuredItem; path: string };
    if (item.reference || (item.types.length === 0 && item.otherTypes.length > 0)) continue;
    const type = item.types[0] ?? "(untyped)";
    if (next < items.length && item.types.length === 0)
      report({
        kind: "missing-type",
        type,
        path,
        problem: "The item names no @type.",
        fix: "Add the schema.org @type the item describes (Article, Product, Organization, …).",
        where: item.where,
      });
    const knownTypes = item.types.filter((name) => vocabulary.isType(name));
    for (const name of item.types) {
      if (vocabulary.isType(name)) continue;
      const suggestion = closest(name, "type", () => vocabulary.typeNames());
      report({
        kind: "unknown-type",
        type: name,
        path,
        problem: `"${name}" is not a schema.org type.`,
        fix: suggestion
          ? `Rename the type to "${suggestion}".`
          : "Use a type from schema.org's list of types.",
        where: item.where,
      });
    }
    // An item with an unknown type only: its properties cannot be judged against it.
    const judgeProperties = item.types.length === 0 || knownTypes.length > 0;
    for (const property of item.properties) {
      const propertyPath = `${path} > ${property.name}`;
      const term = vocabulary.property(property.name);
      if (judgeProperties && item.otherTypes.length === 0) {
        if (!term) {
          const candidates =
            knownTypes.length > 0 ? applicable(vocabulary, knownTypes) : vocabulary.propertyNames();
          // The closest property of the type, else of the whole vocabulary (a misspelt property of another type).
          const suggestion =
            closest(property.name, knownTypes.join(","), () => candidates) ??
            closest(property.name, "", () => vocabulary.propertyNames());
          report({
            kind: "unknown-property",
            type,
            path: propertyPath,
            problem: `"${property.name}" is not a schema.org property.`,
            fix: suggestion
              ? `Rename "${property.name}" to "${suggestion}".`
              : `Remove "${property.name}" or use a property of ${type} from schema.org.`,
            where: item.where,
          });
        } else if (knownTypes.length > 0 && !vocabulary.appliesTo(term, knownTypes)) {
          const suggestion = closest(property.name, knownTypes.join(","), () =>
            applicable(vocabulary, knownTypes),
          );
          report({
            kind: "misplaced-property",
            type,
            path: propertyPath,
            problem: `"${property.name}" is a schema.org property, but not one of ${type}.`,
            fix:
              suggestion && suggestion !== property.name
                ? `Rename "${property.name}" to "${suggestion}", or move it to an item of a type it belongs to.`
                : `Move "${property.name}" to an item of a type it belongs to (${term.domains.slice(0, 3).join(", ")}).`,
            where: item.where,
          });
        }
      }
      for (const value of property.values) {
        if (typeof value === "object") {
          queue.push({ item: value, path: `${propertyPath} > ${label(value)}` });
          continue;
        }
        if (!term) continue;
        const expected = wrongKind(vocabulary, term.ranges, value);
        if (expected)
          report({
            kind: "wrong-value-kind",
            type,
            path: propertyPath,
            problem: `${capitalised(shown(value))} is not ${expected}.`,
            fix: `Give "${property.name}" ${expected}${example(expected)}.`,
            where: item.where,
          });
      }
    }
  }
  return problems;
}

function applicable(vocabulary: Vocabulary, types: readonly string[]): string[] {
  return types.flatMap((type) => [...vocabulary.propertiesOf(type)]);
}

function label(item: StructuredItem): string {
  return item.types[0] ?? item.otherTypes[0] ?? "(untyped)";
}

function shown(value: string | number | boolean): string {
  if (typeof value !== "string") return String(value);
  if (value.trim() === "") return "an empty value";
  return JSON.stringify(value.length > 60 ? `${value.slice(0, 59)}…` : value);
}

/**
 * What the value should have been when it is of a kind the property's range does not allow, or null when it
 * fits. Text fits any range that names Text or an item type (schema.org accepts a name for an item); a range of
 * enumerations alone wants one of their members.
 */
function wrongKind(
  vocabulary: Vocabulary,
  ranges: readonly string[],
  value: string | number | boolean,
): string | null {
  if (ranges.length === 0) return null;
  const has = (name: string) => ranges.includes(name);
  const numeric = has("Number") || has("Integer") || has("Float");
  const dates = has("Date") || has("DateTime");
  const itemTypes = ranges.filter((range) => !dataTypes.has(range));
  const enumerations = itemTypes.filter((range) => vocabulary.isSubtypeOf(range, "Enumeration"));
  if (ranges.some((range) => textTypes.has(range))) return null;
  if (typeof value === "number") return numeric || itemTypes.length > 0 ? null : describe(ranges);
  if (typeof value === "boolean") return has("Boolean") || itemTypes.length > 0 ? null : describe(ranges);
  if (numeric && isNumber(value)) return null;
  if (dates && isDateOrDateTime(value)) return null;
  if (has("Time") && isTime(value)) return null;
  if (has("Boolean") && isBoolean(value)) return null;
  if (has("URL") && isUrl(value)) return null;
  if (itemTypes.length > 0) {
    // Items other than enumerations may be given as text (a name), or as a URL that names one.
    if (enumerations.length < itemTypes.length)
      return has("URL") && enumerations.length === 0 ? urlOrItem(value) : null;
    if (isUrl(value) && value.includes("/")) return null;
    const member = vocabulary.memberOf(value.trim());
    if (
      member &&
      enumerations.some(
        (enumeration) => vocabulary.isSubtypeOf(member, enumeration) || member === enumeration,
      )
    )
      return null;
    return `one of the values of ${enumerations.join(" or ")}`;
  }
  return describe(ranges);
}

/** A range of URL and item types (image: ImageObject or URL): text must be a URL. */
function urlOrItem(value: string): string | null {
  return isUrl(value) ? null : "a URL";
}

function describe(ranges: readonly string[]): string {
  const kinds = new Set<string>();
  for (const range of ranges) {
    if (range === "Date" || range === "DateTime") kinds.add("an ISO 8601 date");
    else if (range === "Time") kinds.add("a time");
    else if (range === "Number" || range === "Integer" || range === "Float") kinds.add("a number");
    else if (range === "Boolean") kinds.add("true or false");
    else if (range === "URL") kinds.add("a URL");
  }
  return [...kinds].join(" or ") || `a ${ranges.join(" or ")}`;
}

function example(expected: string): string {
  if (expected.startsWith("an ISO 8601 date")) return " (2024-05-17, or 2024-05-17T09:30:00+02:00)";
  if (expected === "a number") return " (digits only, e.g. 19.99)";
  if (expected === "a URL") return " (https://…)";
  return "";
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
