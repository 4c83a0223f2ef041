/**
 * The schema.org vocabulary (types, properties with their domains and ranges, enumeration members), read once
 * from schema-vocabulary.json, which scripts/generate-schema-vocabulary.ts makes from an official schema.org
 * release file (the release and its license are named inside it). No network: the file ships with the code.
 */
import { readFileSync } from "node:fs";

interface VocabularyFile {
  source: string;
  version: string;
  types: Record<string, string[]>;
  properties: Record<string, [string[], string[]]>;
  members: Record<string, string>;
}

export interface PropertyTerm {
  /** The types the property is declared on (schema:domainIncludes). */
  domains: readonly string[];
  /** The kinds of value it expects (schema:rangeIncludes): data types or types. */
  ranges: readonly string[];
}

class Vocabulary {
  readonly version: string;
  private readonly types: Map<string, readonly string[]>;
  private readonly properties: Map<string, PropertyTerm>;
  private readonly members: Map<string, string>;
  private readonly propertiesByDomain = new Map<string, string[]>();
  private readonly ancestorCache = new Map<string, ReadonlySet<string>>();
  private readonly applicableCache = new Map<string, readonly string[]>();

  constructor(file: VocabularyFile) {
    this.version = file.version;
    this.types = new Map(Object.entries(file.types));
    this.members = new Map(Object.entries(file.members));
    this.properties = new Map();
    for (const [name, [domains, ranges]] of Object.entries(file.properties)) {
      this.properties.set(name, { domains, ranges });
      for (const domain of domains) {
        const list = this.propertiesByDomain.get(domain) ?? [];
        list.push(name);
        this.propertiesByDomain.set(domain, list);
      }
    }
  }

  isType(name: string): boolean {
    return this.types.has(name);
  }

  property(name: string): PropertyTerm | undefined {
    return this.properties.get(name);
  }

  /** The enumeration an enumeration member (InStock, …) belongs to. */
  memberOf(name: string): string | undefined {
    return this.members.get(name);
  }

  typeNames(): IterableIterator<string> {
    return this.types.keys();
  }

  propertyNames(): IterableIterator<string> {
    return this.properties.keys();
  }

  /** The type itself and every type it inherits from. */
  ancestors(type: string): ReadonlySet<string> {
    let found = this.ancestorCache.get(type);
    if (found) return found;
    const seen = new Set<string>();
    const queue = [type];
    while (queue.length > 0) {
      const next = queue.pop() as string;
      if (seen.has(next)) continue;
      seen.add(next);
      for (const parent of this.types.get(next) ?? []) queue.push(parent);
    }
    found = seen;
    this.ancestorCache.set(type, found);
    return found;
  }

  isSubtypeOf(type: string, ancestor: string): boolean {
    return this.ancestors(type).has(ancestor);
  }

  /** Every property that applies to an item of this type (declared on it or on a type it inherits from). */
  propertiesOf(type: string): readonly string[] {
    let found = this.applicableCache.get(type);
    if (found) return found;
    const names = new Set<string>();
    for (const ancestor of this.ancestors(type))
      for (const name of this.propertiesByDomain.get(ancestor) ?? []) names.add(name);
    found = [...names];
    this.applicableCache.set(type, found);
    return found;
  }

  /** Whether a property applies to an item with any of these types. */
  appliesTo(property: PropertyTerm, types: readonly string[]): boolean {
    for (const type of types) {
      const ancestors = this.ancestors(type);
      for (const domain of property.domains) if (ancestors.has(domain)) return true;
    }
    return false;
  }
}

let loaded: Vocabulary | null = null;

/** The vocabulary, loaded on first use (about 150 KB of JSON). */
export function schemaVocabulary(): Vocabulary {
  loaded ??= new Vocabulary(
    JSON.parse(readFileSync(new URL("./schema-vocabulary.json", import.meta.url), "utf8")) as VocabularyFile,
  );
  return loaded;
}

export type { Vocabulary };
