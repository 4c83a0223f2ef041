/**
 * The structured data of a page in one shape, whatever the syntax it was written in (JSON-LD, microdata,
 * RDFa), and the limits on how much of it a page may make pagegrade read. Types and property names are
 * schema.org's local names ("Product", "offers"); terms of other vocabularies are kept apart and not judged.
 */

/** How much structured data one page may make the analysis read; what lies past a limit is left unread. */
export const structuredDataLimits = {
  /** Characters of JSON-LD parsed, all blocks together (1 MiB); blocks past it are left unread. */
  jsonLdChars: 1024 * 1024,
  /** Items (nodes with properties) read, all syntaxes together. */
  items: 1000,
  /** How deep items may nest inside one another; deeper ones are left unread. */
  depth: 32,
  /** Property values read, all items together. */
  values: 20_000,
  /** Characters kept of one text value (microdata and RDFa text content). */
  textChars: 2000,
} as const;

export type StructuredSyntax = "json-ld" | "microdata" | "rdfa";

export type StructuredValue = string | number | boolean | StructuredItem;

export interface StructuredProperty {
  /** schema.org local name of the property. */
  name: string;
  values: StructuredValue[];
}

export interface StructuredItem {
  syntax: StructuredSyntax;
  /** schema.org types named by the item (local names), possibly unknown ones ("Prodcut"). */
  types: string[];
  /** Types of other vocabularies: an item with only such types is not judged against schema.org. */
  otherTypes: string[];
  properties: StructuredProperty[];
  /** Where the item is: "JSON-LD block 2", or the start tag of its element. */
  where: string;
  /** A bare reference to a node described elsewhere ({"@id": …} alone): nothing to judge. */
  reference?: true;
}

export interface JsonLdError {
  /** 1-based number of the <script type="application/ld+json"> block in the document. */
  block: number;
  line: number | null;
  column: number | null;
  message: string;
}

export interface StructuredData {
  /** Top-level items, in document order: JSON-LD first, then microdata and RDFa. */
  items: StructuredItem[];
  jsonLdErrors: JsonLdError[];
  /** JSON-LD blocks that named no schema.org vocabulary (another @context): not judged. */
  foreignBlocks: number;
  /** Which limit stopped the reading, if one did. */
  limitReached: keyof typeof structuredDataLimits | null;
}

/** A shared count of what a page made the reader read, against structuredDataLimits. */
export class ReadBudget {
  items = 0;
  values = 0;
  limitReached: keyof typeof structuredDataLimits | null = null;

  takeItem(depth: number): boolean {
    if (depth > structuredDataLimits.depth) return this.stop("depth");
    if (this.items >= structuredDataLimits.items) return this.stop("items");
    this.items++;
    return true;
  }

  takeValue(): boolean {
    if (this.values >= structuredDataLimits.values) return this.stop("values");
    this.values++;
    return true;
  }

  stop(limit: keyof typeof structuredDataLimits): false {
    this.limitReached ??= limit;
    return false;
  }
}

const schemaPrefixes = ["https://schema.org/", "http://schema.org/", "schema:"];

/** "https://schema.org/Product", "schema:Product" → "Product"; null for a term of another vocabulary. */
export function schemaLocalName(term: string): string | null {
  for (const prefix of schemaPrefixes)
    if (term.startsWith(prefix)) {
      const rest = term.slice(prefix.length);
      return rest.length > 0 && !rest.includes("/") ? rest : null;
    }
  return null;
}
