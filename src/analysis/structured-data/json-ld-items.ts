/**
 * JSON-LD blocks → StructuredItems: parses each <script type="application/ld+json"> within the character
 * budget, follows @graph and arrays, and reads each node's @type and properties under a schema.org @context.
 * Nodes of another vocabulary are counted and left out; a block that does not parse is reported with its line
 * and column.
 */
import {
  type JsonLdError,
  type ReadBudget,
  type StructuredItem,
  type StructuredProperty,
  type StructuredValue,
  schemaLocalName,
  structuredDataLimits,
} from "./structured-items.js";

export interface JsonLdReading {
  items: StructuredItem[];
  errors: JsonLdError[];
  foreignBlocks: number;
}

export function readJsonLd(blocks: readonly string[], budget: ReadBudget): JsonLdReading {
  const reading: JsonLdReading = { items: [], errors: [], foreignBlocks: 0 };
  let chars = 0;
  blocks.forEach((text, index) => {
    const block = index + 1;
    chars += text.length;
    if (chars > structuredDataLimits.jsonLdChars) {
      budget.stop("jsonLdChars");
      return;
    }
    if (text.trim() === "") return;
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (error) {
      reading.errors.push(parseError(block, text, (error as Error).message));
      return;
    }
    const reader = new NodeReader(`JSON-LD block ${block}`, budget);
    const before = reading.items.length;
    reader.readTop(data, null, reading.items);
    if (reading.items.length === before && reader.foreign) reading.foreignBlocks++;
  });
  return reading;
}

class NodeReader {
  foreign = false;

  constructor(
    private readonly where: string,
    private readonly budget: ReadBudget,
  ) {}

  /** Top-level nodes: an object, an array of them, or an object whose @graph holds them. */
  readTop(data: unknown, context: boolean | null, into: StructuredItem[], depth = 0): void {
    if (depth > structuredDataLimits.depth) return;
    if (Array.isArray(data)) {
      for (const node of data) this.readTop(node, context, into, depth + 1);
      return;
    }
    if (!isRecord(data)) return;
    const schema = contextOf(data) ?? context;
    if (data["@graph"] !== undefined) {
      this.readTop(data["@graph"], schema, into, depth + 1);
      if (!hasProperties(data)) return;
    }
    const item = this.readNode(data, schema, depth);
    if (item) into.push(item);
  }

  private readNode(
    node: Record<string, unknown>,
    context: boolean | null,
    depth: number,
  ): StructuredItem | null {
    const schema = contextOf(node) ?? context;
    // A @context that names another vocabulary: its terms are not schema.org's to judge.
    if (schema === false) {
      this.foreign = true;
      return null;
    }
    if (!this.budget.takeItem(depth)) return null;
    const item: StructuredItem = {
      syntax: "json-ld",
      types: [],
      otherTypes: [],
      properties: [],
      where: this.where,
    };
    const type = node["@type"];
    for (const name of Array.isArray(type) ? type : [type]) {
      if (typeof name !== "string" || name === "") continue;
      const local = name.includes(":") ? schemaLocalName(name) : name;
      if (local) item.types.push(local);
      else item.otherTypes.push(name);
    }
    let keys = 0;
    for (const key in node) {
      if (key.startsWith("@")) continue;
      keys++;
      const name = key.includes(":") ? schemaLocalName(key) : key;
      if (name === null) continue;
      const property: StructuredProperty = { name, values: [] };
      const raw = node[key];
      for (const value of Array.isArray(raw) ? raw : [raw]) {
        const read = this.readValue(value, schema, depth + 1);
        if (read !== null) property.values.push(read);
      }
      item.properties.push(property);
    }
    if (keys === 0 && typeof node["@id"] === "string" && item.types.length === 0) item.reference = true;
    return item;
  }

  private readValue(value: unknown, context: boolean | null, depth: number): StructuredValue | null {
    if (!this.budget.takeValue()) return null;
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") return value;
    if (!isRecord(value)) return null;
    // A value object ({"@value": …}) stands for its value.
    if ("@value" in value) {
      const inner = value["@value"];
      return typeof inner === "string" || typeof inner === "number" || typeof inner === "boolean"
        ? inner
        : null;
    }
    return this.readNode(value, context, depth);
  }
}

/** true: the node's @context is schema.org's; false: another vocabulary's; null: it has none of its own. */
function contextOf(node: Record<string, unknown>): boolean | null {
  const context = node["@context"];
  if (context === undefined || context === null) return null;
  return namesSchemaOrg(context, 0);
}

function namesSchemaOrg(context: unknown, depth: number): boolean {
  if (depth > 4) return false;
  if (typeof context === "string") return /^https?:\/\/schema\.org(?:\/|$)/i.test(context.trim());
  if (Array.isArray(context)) return context.some((entry) => namesSchemaOrg(entry, depth + 1));
  if (isRecord(context)) {
    const vocab = context["@vocab"];
    if (typeof vocab === "string") return namesSchemaOrg(vocab, depth + 1);
    return Object.values(context).some(
      (entry) => typeof entry === "string" && namesSchemaOrg(entry, depth + 1),
    );
  }
  return false;
}

function hasProperties(node: Record<string, unknown>): boolean {
  for (const key in node) if (!key.startsWith("@")) return true;
  return node["@type"] !== undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** The parser's message, with the line and column of the position it names (V8 says "at position N"). */
function parseError(block: number, text: string, message: string): JsonLdError {
  const position = /position (\d+)/.exec(message);
  const lineColumn = /\(line (\d+) column (\d+)\)/.exec(message);
  let line: number | null = null;
  let column: number | null = null;
  if (lineColumn) {
    line = Number(lineColumn[1]);
    column = Number(lineColumn[2]);
  } else if (position) {
    const offset = Math.min(Number(position[1]), text.length);
    const before = text.slice(0, offset);
    line = before.split("\n").length;
    column = offset - before.lastIndexOf("\n");
  }
  return { block, line, column, message: message.slice(0, 200) };
}
