/**
 * Microdata and RDFa (Lite) → StructuredItems, gathered during the document walk of parse.ts: the walk hands
 * over the elements that carry itemscope, itemprop, typeof, property or vocab, their text while an item
 * property reads it, and the end of each element. Each item records its schema.org types and property values
 * (the value rules of the HTML standard's microdata section: content, src, href, data, value, datetime, or the
 * text). itemref is not followed. Everything read counts against the page's ReadBudget.
 */
import {
  type ReadBudget,
  type StructuredItem,
  schemaLocalName,
  structuredDataLimits,
} from "./structured-items.js";

export interface MarkupElement {
  tagName: string;
  attrs: Array<{ name: string; value: string }>;
}

/** Elements whose microdata value is a URL attribute rather than their text. */
const urlAttributeOf: Record<string, string> = {
  audio: "src",
  embed: "src",
  iframe: "src",
  img: "src",
  source: "src",
  track: "src",
  video: "src",
  a: "href",
  area: "href",
  link: "href",
  object: "data",
};

interface TextValue {
  element: MarkupElement;
  parts: string[];
  length: number;
  into: Array<{ item: StructuredItem; name: string }>;
}

export class MarkupItems {
  readonly items: StructuredItem[] = [];
  private readonly microdata: Array<{ element: MarkupElement; item: StructuredItem | null }> = [];
  private readonly rdfa: Array<{ element: MarkupElement; item: StructuredItem | null }> = [];
  private readonly vocabularies: Array<{ element: MarkupElement; schema: boolean }> = [];
  private readonly texts: TextValue[] = [];

  constructor(
    private readonly budget: ReadBudget,
    private readonly describe: (element: MarkupElement) => string,
  ) {}

  /** Whether the walk must report text and element ends. */
  get open(): boolean {
    return this.microdata.length + this.rdfa.length + this.vocabularies.length + this.texts.length > 0;
  }

  get readingText(): boolean {
    return this.texts.length > 0;
  }

  enter(element: MarkupElement): void {
    const get = (name: string) => {
      for (const attribute of element.attrs) if (attribute.name === name) return attribute.value;
      return null;
    };
    const vocab = get("vocab");
    if (vocab !== null)
      this.vocabularies.push({ element, schema: schemaLocalName(`${vocab.trim()}x`) === "x" });
    const textTargets: Array<{ item: StructuredItem; name: string }> = [];

    // Microdata.
    const itemprop = get("itemprop");
    const parentMicro = this.microdata.at(-1)?.item ?? null;
    if (get("itemscope") !== null) {
      const item = this.newItem("microdata", element, tokens(get("itemtype")), (type) =>
        schemaLocalName(type),
      );
      if (item && itemprop !== null && parentMicro) this.add(parentMicro, tokens(itemprop), item);
      else if (item && itemprop === null) this.items.push(item);
      this.microdata.push({ element, item });
    } else if (itemprop !== null && parentMicro) {
      const names = tokens(itemprop);
      const value = this.attributeValue(element, get, urlAttributeOf[element.tagName], "content");
      if (value !== null) this.add(parentMicro, names, value);
      else for (const name of names) textTargets.push({ item: parentMicro, name });
    }

    // RDFa.
    const property = get("property");
    const parentRdfa = this.rdfa.at(-1)?.item ?? null;
    const typeOf = get("typeof");
    if (typeOf !== null) {
      const schema = this.vocabularies.at(-1)?.schema ?? false;
      const item = this.newItem("rdfa", element, tokens(typeOf), (type) =>
        type.includes(":") ? schemaLocalName(type) : schema ? type : null,
      );
      if (item && property !== null && parentRdfa) this.add(parentRdfa, this.rdfaNames(property), item);
      else if (item && property === null) this.items.push(item);
      this.rdfa.push({ element, item });
    } else if (property !== null && parentRdfa) {
      const names = this.rdfaNames(property);
      const value = this.attributeValue(element, get, "href", "content") ?? get("src") ?? get("resource");
      if (value !== null) this.add(parentRdfa, names, value);
      else for (const name of names) textTargets.push({ item: parentRdfa, name });
    }

    if (textTargets.length > 0) this.texts.push({ element, parts: [], length: 0, into: textTargets });
  }

  text(value: string): void {
    for (const text of this.texts) {
      if (text.length >= structuredDataLimits.textChars) continue;
      text.parts.push(value);
      text.length += value.length;
    }
  }

  leave(element: MarkupElement): void {
    const text = this.texts.at(-1);
    if (text?.element === element) {
      this.texts.pop();
      const value = text.parts.join("").replace(/\s+/g, " ").trim().slice(0, structuredDataLimits.textChars);
      for (const { item, name } of text.into) this.add(item, [name], value);
    }
    if (this.microdata.at(-1)?.element === element) this.microdata.pop();
    if (this.rdfa.at(-1)?.element === element) this.rdfa.pop();
    if (this.vocabularies.at(-1)?.element === element) this.vocabularies.pop();
  }

  private newItem(
    syntax: "microdata" | "rdfa",
    element: MarkupElement,
    typeNames: string[],
    local: (type: string) => string | null,
  ): StructuredItem | null {
    const stack = syntax === "microdata" ? this.microdata : this.rdfa;
    if (!this.budget.takeItem(stack.length)) return null;
    const item: StructuredItem = {
      syntax,
      types: [],
      otherTypes: [],
      properties: [],
      where: this.describe(element),
    };
    for (const type of typeNames) {
      const name = local(type);
      if (name) item.types.push(name);
      else item.otherTypes.push(type);
    }
    return item;
  }

  /** The value an attribute gives (time's datetime, data's and meter's value, a URL attribute, content). */
  private attributeValue(
    element: MarkupElement,
    get: (name: string) => string | null,
    urlAttribute: string | undefined,
    contentAttribute: string,
  ): string | null {
    const content = get(contentAttribute);
    if (content !== null) return content;
    if (urlAttribute) {
      const url = get(urlAttribute);
      if (url !== null) return url.trim();
    }
    if (element.tagName === "time") return get("datetime");
    if (element.tagName === "data" || element.tagName === "meter") return get("value");
    return null;
  }

  /** RDFa property names: schema.org terms, bare (under a schema.org vocab) or prefixed; others are dropped. */
  private rdfaNames(property: string): string[] {
    const schema = this.vocabularies.at(-1)?.schema ?? false;
    const names: string[] = [];
    for (const token of tokens(property)) {
      const name = token.includes(":") ? schemaLocalName(token) : schema ? token : null;
      if (name) names.push(name);
    }
    return names;
  }

  private add(item: StructuredItem, names: string[], value: string | StructuredItem): void {
    for (const rawName of names) {
      const name = rawName.includes(":") ? schemaLocalName(rawName) : rawName;
      if (!name || !this.budget.takeValue()) continue;
      // One entry per value: a name may repeat, as it may in the markup.
      item.properties.push({ name, values: [value] });
    }
  }
}

function tokens(value: string | null): string[] {
  if (!value) return [];
  return value.split(/[ \t\n\f\r]+/).filter((token) => token !== "");
}
