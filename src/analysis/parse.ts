/**
 * HTML text → DocumentFacts, in one parse (parse5 builds the same tree a browser does) and one walk over it.
 * The walk is iterative, so deeply nested documents cannot exhaust the stack. URLs are resolved against the
 * document's base URL (<base href> or the page URL) after the walk, once the base is known.
 */
import { type DefaultTreeAdapterTypes, parse } from "parse5";
import {
  attr,
  collapse,
  hidesFromReader,
  isBlank,
  isMeantAsLink,
  lower,
  PendingUrls,
  resolveBase,
  startTag,
  textOf,
  tokens,
  walk,
} from "./html-tree.js";
import type {
  Anchor,
  DocumentFacts,
  EmbeddedResource,
  ImageElement,
  LinkElement,
  ScriptElement,
} from "./snapshot.js";
import { parseSrcset } from "./srcset.js";
import { readJsonLd } from "./structured-data/json-ld-items.js";
import { MarkupItems } from "./structured-data/markup-items.js";
import { ReadBudget } from "./structured-data/structured-items.js";

type Element = DefaultTreeAdapterTypes.Element;
type ParentNode = DefaultTreeAdapterTypes.ParentNode;

const htmlNamespace = "http://www.w3.org/1999/xhtml";
const headingLevels: Record<string, number> = { h1: 1, h2: 2, h3: 3, h4: 4, h5: 5, h6: 6 };

// What the walk does with an element, by tag, looked up once per element.
const hidesText = 1;
const deprecated = 2;
const collected = 4;
const tagFlags = new Map<string, number>();
const flag = (tags: string[], bit: number) => {
  for (const tag of tags) tagFlags.set(tag, (tagFlags.get(tag) ?? 0) | bit);
};
flag(["script", "style", "noscript", "template", "head", "textarea", "select"], hidesText);
// biome-ignore format: a list of tags
flag(["acronym", "applet", "basefont", "big", "blink", "center", "dir", "font", "frame", "frameset", "isindex", "marquee", "noframes", "strike", "tt"], deprecated);
// biome-ignore format: a list of tags
flag(["h1", "h2", "h3", "h4", "h5", "h6", "html", "head", "base", "title", "meta", "link", "a", "img", "picture", "source", "script", "iframe", "frame", "video", "audio", "track", "embed", "object", "form", "input"], collected);

/** An element that gathers the text inside it while the walk is within it. */
type TextSink = { element: Element; parts: string[] } & (
  | { kind: "heading"; level: number }
  | { kind: "title" }
  | { kind: "anchor"; anchor: Anchor; fallback: string | undefined }
);

/** Records that keep their element and render its start tag only when a check shows it as evidence. */
class ElementRecord {
  constructor(private readonly source: Element) {}

  get html(): string {
    return startTag(this.source);
  }
}

class LinkRecord extends ElementRecord implements LinkElement {
  href: string | null = null;
  constructor(
    element: Element,
    readonly rel: string[],
    readonly rawHref: string | null,
    readonly hreflang: string | null,
    readonly type: string | null,
    readonly media: string | null,
    readonly inHead: boolean,
  ) {
    super(element);
  }
}

class AnchorRecord extends ElementRecord implements Anchor {
  href: string | null = null;
  text = "";
  constructor(
    element: Element,
    readonly rawHref: string,
    readonly rel: string[],
    readonly target: string | null,
    readonly hidden: boolean,
  ) {
    super(element);
  }
}

class ImageRecord extends ElementRecord implements ImageElement {
  src: string | null = null;
  srcset: string[] = [];
  constructor(
    element: Element,
    readonly alt: string | null,
    readonly width: string | null,
    readonly height: string | null,
    readonly loading: string | null,
    readonly decorative: boolean,
    readonly pictureSourceTypes: string[],
    readonly hidden: boolean,
  ) {
    super(element);
  }
}

class ScriptRecord extends ElementRecord implements ScriptElement {
  src: string | null = null;
  constructor(
    element: Element,
    readonly type: string | null,
    readonly async: boolean,
    readonly defer: boolean,
    readonly inHead: boolean,
  ) {
    super(element);
  }
}

export function parseDocument(html: string, pageUrl: string): DocumentFacts {
  return factsOf(parse(html), html, pageUrl);
}

/** The document's facts and its parse5 tree (which a crawl's extraction rules read). */
export function parseDocumentTree(html: string, pageUrl: string): { facts: DocumentFacts; root: ParentNode } {
  const root = parse(html);
  return { facts: factsOf(root, html, pageUrl), root };
}

function factsOf(document: DefaultTreeAdapterTypes.Document, html: string, pageUrl: string): DocumentFacts {
  const facts: DocumentFacts = {
    mode: document.mode,
    doctype: null,
    lang: null,
    titles: [],
    metas: [],
    links: [],
    headings: [],
    anchors: [],
    hreflessLinks: [],
    images: [],
    scripts: [],
    jsonLd: [],
    resources: [],
    forms: [],
    passwordFields: 0,
    inlineStyles: { count: 0, samples: [] },
    deprecatedElements: [],
    microdata: false,
    rdfa: false,
    structuredData: { items: [], jsonLdErrors: [], foreignBlocks: 0, limitReached: null },
    elementCount: 0,
    text: "",
    htmlLength: html.length,
  };
  let baseHref: string | null = null;
  const text: string[] = [];
  const pending = new PendingUrls();

  // Walk state: how deep inside each kind of context the current node is.
  let headDepth = 0;
  let foreignDepth = 0;
  const sinks: TextSink[] = [];
  const openForms: Array<{ hasPassword: boolean }> = [];
  let pictureSources: string[] | null = null;
  /** Open elements that hide their text (script, style, hidden, …); the walk leaves them in reverse order. */
  const hiddenElements: Element[] = [];
  /**
   * Open elements a browser does not render for the reader (the hidden attribute, an inline display:none):
   * nothing inside them is seen, so images and links there are left out of what the reader meets.
   */
  const concealedElements: Element[] = [];
  const structuredBudget = new ReadBudget();
  const markup = new MarkupItems(structuredBudget, (element) => startTag(element as Element));

  const enter = (element: Element): void => {
    facts.elementCount++;
    const tag = element.tagName;
    // SVG and MathML content is not HTML: none of its elements, attributes or text count.
    if (foreignDepth > 0 || element.namespaceURI !== htmlNamespace) {
      foreignDepth++;
      return;
    }
    const flags = tagFlags.get(tag) ?? 0;
    // One pass over the attributes for the facts every element may carry.
    let hidden = (flags & hidesText) !== 0;
    let concealed = false;
    let markupItem = false;
    for (const attribute of element.attrs) {
      switch (attribute.name) {
        case "style":
          if (hidesFromReader(attribute.value)) concealed = true;
          facts.inlineStyles.count++;
          if (facts.inlineStyles.samples.length < 50) facts.inlineStyles.samples.push(startTag(element));
          break;
        case "hidden":
          hidden = true;
          // hidden="until-found" content is revealed by find-in-page and fragment links: the reader can meet it.
          if (attribute.value.trim().toLowerCase() !== "until-found") concealed = true;
          break;
        case "itemscope":
        case "itemtype":
          facts.microdata = true;
          markupItem = true;
          break;
        case "typeof":
        case "vocab":
          facts.rdfa = true;
          markupItem = true;
          break;
        case "itemprop":
        case "property":
          markupItem = true;
          break;
      }
    }
    if (markupItem) markup.enter(element);
    if (hidden || concealed) hiddenElements.push(element);
    if (concealed) concealedElements.push(element);
    if ((flags & deprecated) !== 0) facts.deprecatedElements.push({ tag, html: startTag(element) });
    if ((flags & collected) === 0) return;
    if (tag === "head") headDepth++;

    const level = headingLevels[tag];
    if (level !== undefined) {
      sinks.push({ element, kind: "heading", parts: [], level });
      return;
    }
    switch (tag) {
      case "html":
        if (facts.lang === null) facts.lang = attr(element, "lang");
        break;
      case "base":
        if (baseHref === null) baseHref = attr(element, "href");
        break;
      case "title":
        sinks.push({ element, kind: "title", parts: [] });
        break;
      case "meta":
        facts.metas.push({
          name: lower(attr(element, "name")),
          property: lower(attr(element, "property")),
          httpEquiv: lower(attr(element, "http-equiv")),
          content: attr(element, "content"),
          charset: attr(element, "charset"),
          inHead: headDepth > 0,
        });
        break;
      case "link": {
        const rawHref = attr(element, "href");
        const link = new LinkRecord(
          element,
          tokens(attr(element, "rel")),
          rawHref,
          attr(element, "hreflang"),
          attr(element, "type"),
          attr(element, "media"),
          headDepth > 0,
        );
        facts.links.push(link);
        pending.add(rawHref, link, "href");
        if (link.rel.includes("stylesheet")) addResource(element, "link", rawHref, false);
        break;
      }
      case "a": {
        const rawHref = attr(element, "href");
        if (rawHref === null) {
          if (isMeantAsLink(element)) facts.hreflessLinks.push(new ElementRecord(element));
          break;
        }
        const anchor = new AnchorRecord(
          element,
          rawHref,
          tokens(attr(element, "rel")),
          attr(element, "target"),
          concealedElements.length > 0,
        );
        facts.anchors.push(anchor);
        pending.add(rawHref, anchor, "href");
        sinks.push({
          element,
          kind: "anchor",
          parts: [],
          anchor,
          // Search engines read a link's own text; the title attribute stands in only when it has none
          // (Google Search Central, "Link best practices"). aria-label is for screen readers, not read here.
          fallback: attr(element, "title")?.trim(),
        });
        return;
      }
      case "img": {
        const rawSrc = attr(element, "src");
        const role = lower(attr(element, "role"));
        const alt = attr(element, "alt");
        const image = new ImageRecord(
          element,
          alt,
          attr(element, "width"),
          attr(element, "height"),
          lower(attr(element, "loading")),
          alt === "" || role === "presentation" || role === "none" || attr(element, "aria-hidden") === "true",
          pictureSources ? [...pictureSources] : [],
          concealedElements.length > 0,
        );
        facts.images.push(image);
        pending.add(rawSrc, image, "src");
        for (const candidate of parseSrcset(attr(element, "srcset") ?? ""))
          pending.addToList(candidate, image.srcset);
        if (alt) for (const sink of sinks) sink.parts.push(alt);
        break;
      }
      case "picture":
        pictureSources = [];
        break;
      case "source":
        if (pictureSources) {
          const type = lower(attr(element, "type"));
          if (type) pictureSources.push(type);
        } else {
          addResource(element, "source", attr(element, "src"), false);
        }
        break;
      case "script": {
        const type = lower(attr(element, "type"));
        if (type === "application/ld+json") {
          facts.jsonLd.push(textOf(element));
          break;
        }
        const script = new ScriptRecord(
          element,
          type,
          attr(element, "async") !== null,
          attr(element, "defer") !== null,
          headDepth > 0,
        );
        facts.scripts.push(script);
        pending.add(attr(element, "src"), script, "src");
        break;
      }
      case "iframe":
      case "frame":
        addResource(element, tag, attr(element, "src"), lower(attr(element, "loading")) === "lazy");
        break;
      case "video":
      case "audio":
        addResource(element, tag, attr(element, "src"), false);
        if (tag === "video") addResource(element, "video", attr(element, "poster"), false);
        break;
      case "track":
      case "embed":
        addResource(element, tag, attr(element, "src"), false);
        break;
      case "object":
        addResource(element, tag, attr(element, "data"), false);
        break;
      case "form": {
        const form = {
          action: attr(element, "action"),
          method: lower(attr(element, "method")) ?? "get",
          hasPassword: false,
          html: startTag(element),
        };
        facts.forms.push(form);
        openForms.push(form);
        pending.add(form.action, form, "action");
        break;
      }
      case "input":
        if (lower(attr(element, "type")) === "password") {
          facts.passwordFields++;
          const form = openForms.at(-1);
          if (form) form.hasPassword = true;
        }
        break;
    }
  };

  const leave = (element: Element): void => {
    if (foreignDepth > 0) {
      foreignDepth--;
      return;
    }
    if (markup.open) markup.leave(element);
    const tag = element.tagName;
    if (tag === "head") headDepth--;
    if (hiddenElements.at(-1) === element) hiddenElements.pop();
    if (concealedElements.length !== 0 && concealedElements[concealedElements.length - 1] === element)
      concealedElements.pop();
    const sink = sinks.at(-1);
    if (sink?.element === element) {
      sinks.pop();
      finishSink(sink, collapse(sink.parts.join(" ")));
    } else if (tag === "picture") {
      pictureSources = null;
    } else if (tag === "form") {
      openForms.pop();
    }
  };

  const addResource = (element: Element, tag: string, raw: string | null, lazy: boolean): void => {
    if (raw === null || raw.trim() === "") return;
    const resource: EmbeddedResource = { tag, url: "", lazy, html: startTag(element) };
    facts.resources.push(resource);
    pending.add(raw, resource, "url");
  };

  const finishSink = (sink: TextSink, text: string): void => {
    if (sink.kind === "heading") facts.headings.push({ level: sink.level, text });
    else if (sink.kind === "title") facts.titles.push(text);
    else sink.anchor.text = text || sink.fallback || "";
  };

  walk(document, {
    enter,
    leave,
    text: (value) => {
      if (foreignDepth > 0) return;
      if (markup.readingText) markup.text(value);
      if (isBlank(value)) return;
      for (const sink of sinks) sink.parts.push(value);
      if (hiddenElements.length === 0) text.push(value);
    },
    doctype: (name, publicId, systemId) => {
      facts.doctype = { name, publicId, systemId };
    },
  });

  facts.text = collapse(text.join(" "));
  const jsonLd = readJsonLd(facts.jsonLd, structuredBudget);
  facts.structuredData = {
    items: [...jsonLd.items, ...markup.items],
    jsonLdErrors: jsonLd.errors,
    foreignBlocks: jsonLd.foreignBlocks,
    limitReached: structuredBudget.limitReached,
  };
  pending.resolve(resolveBase(baseHref, pageUrl));
  // A resource whose URL does not resolve is not loaded by the browser either.
  facts.resources = facts.resources.filter((resource) => resource.url !== "");
  return facts;
}

/** An element's start tag as evidence (see `html-tree.ts`), where the parse's readers look for it. */
export { startTag };
