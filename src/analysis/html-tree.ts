/**
 * The parsed tree as `parse.ts` reads it: the walk over it (depth first, with an explicit stack), the URLs that
 * wait for the document's base URL, and small readers of an element (an attribute, its text, its start tag).
 */
import type { DefaultTreeAdapterTypes } from "parse5";

type Node = DefaultTreeAdapterTypes.Node;
type Element = DefaultTreeAdapterTypes.Element;
type ParentNode = DefaultTreeAdapterTypes.ParentNode;

export interface Visitor {
  enter(element: Element): void;
  leave(element: Element): void;
  text(value: string): void;
  doctype(name: string, publicId: string, systemId: string): void;
}

/** Depth-first walk with an explicit stack (template contents are inert and skipped, as in a browser). */
export function walk(root: ParentNode, visitor: Visitor): void {
  const parents: ParentNode[] = [root];
  const positions: number[] = [0];
  while (parents.length > 0) {
    const depth = parents.length - 1;
    const parent = parents[depth] as ParentNode;
    const index = positions[depth] as number;
    const node = parent.childNodes[index] as Node | undefined;
    if (node === undefined) {
      parents.pop();
      positions.pop();
      if (parent.nodeName !== "#document" && "tagName" in parent) visitor.leave(parent);
      continue;
    }
    positions[depth] = index + 1;
    const element = node as Element;
    if (element.tagName !== undefined) {
      visitor.enter(element);
      parents.push(element);
      positions.push(0);
    } else if (node.nodeName === "#text") {
      visitor.text((node as DefaultTreeAdapterTypes.TextNode).value);
    } else if (node.nodeName === "#documentType") {
      const doctype = node as DefaultTreeAdapterTypes.DocumentType;
      visitor.doctype(doctype.name, doctype.publicId, doctype.systemId);
    }
  }
}

/**
 * Raw URLs waiting for the base URL; resolved together once the walk is over, each into a field of a record
 * or onto a list. Unresolvable URLs leave the field as it was.
 */
export class PendingUrls {
  private readonly raws: string[] = [];
  private readonly targets: Array<Record<string, unknown> | string[]> = [];
  private readonly keys: Array<string | null> = [];

  add<T extends object>(raw: string | null, target: T, key: keyof T & string): void {
    if (raw === null) return;
    this.raws.push(raw);
    this.targets.push(target as Record<string, unknown>);
    this.keys.push(key);
  }

  addToList(raw: string, list: string[]): void {
    this.raws.push(raw);
    this.targets.push(list);
    this.keys.push(null);
  }

  resolve(base: URL): void {
    const cache = new Map<string, string | null>();
    for (let i = 0; i < this.raws.length; i++) {
      const raw = (this.raws[i] as string).trim();
      let resolved = cache.get(raw);
      if (resolved === undefined) {
        resolved = resolveUrl(raw, base);
        cache.set(raw, resolved);
      }
      if (resolved === null) continue;
      const key = this.keys[i] ?? null;
      const target = this.targets[i];
      if (key === null) (target as string[]).push(resolved);
      else (target as Record<string, unknown>)[key] = resolved;
    }
  }
}

function resolveUrl(raw: string, base: URL): string | null {
  if (raw === "") return null;
  try {
    return new URL(raw, base).href;
  } catch {
    return null;
  }
}

export function resolveBase(baseHref: string | null, pageUrl: string): URL {
  const page = new URL(pageUrl);
  if (baseHref === null) return page;
  try {
    return new URL(baseHref.trim(), page);
  } catch {
    return page;
  }
}

export function attr(element: Element, name: string): string | null {
  for (const attribute of element.attrs) if (attribute.name === name) return attribute.value;
  return null;
}

/**
 * Attributes the HTML standard allows on <a> only with an href ("must be omitted if the href attribute is not
 * present"): an <a> that carries one was meant as a link.
 */
const hrefOnlyAttributes = new Set([
  "target",
  "download",
  "ping",
  "rel",
  "hreflang",
  "type",
  "referrerpolicy",
]);

/**
 * Whether an <a> without href was meant as a link rather than as a placeholder: it carries an attribute that
 * only makes sense with an href, or an inline event handler that navigates in its stead (Google's example of
 * a link it cannot follow: <a onclick="goto('…')">).
 */
export function isMeantAsLink(element: Element): boolean {
  let meant = false;
  for (const { name } of element.attrs) {
    // A role says it is something else (a button); a name makes it a fragment target (the obsolete form of id).
    if (name === "role" || name === "name") return false;
    if (hrefOnlyAttributes.has(name) || name.startsWith("on")) meant = true;
  }
  return meant;
}

/**
 * Whether an inline style keeps the element from being rendered (display:none), read cheaply: most style
 * attributes never mention "none", and only those are looked at closely.
 */
export function hidesFromReader(style: string): boolean {
  return style.includes("none") && /(?:^|;)\s*display\s*:\s*none\s*(?:!important\s*)?(?:;|$)/i.test(style);
}

export function lower(value: string | null): string | null {
  return value === null ? null : value.trim().toLowerCase();
}

export function tokens(value: string | null): string[] {
  return value ? value.toLowerCase().split(/\s+/).filter(Boolean) : [];
}

export function textOf(element: Element): string {
  let out = "";
  for (const child of element.childNodes)
    if (child.nodeName === "#text") out += (child as { value: string }).value;
  return out;
}

/** Whether a text node is only whitespace (most are: the indentation between tags). */
export function isBlank(value: string): boolean {
  for (let i = 0; i < value.length; i++) if (value.charCodeAt(i) > 32) return false;
  return true;
}

export function collapse(value: string): string {
  return value.replace(/\s+/g, " ").trim();
}

/**
 * A short rendering of an element's start tag, for evidence ("<img src=\"/a.png\" alt>"). The frequent
 * records (links, anchors, images, scripts) render it lazily, since only the offending ones ever show it.
 */
export function startTag(element: Element): string {
  let out = `<${element.tagName}`;
  for (const { name, value } of element.attrs) {
    if (out.length > 240) {
      out += " …";
      break;
    }
    const shown = value.length > 120 ? `${value.slice(0, 117)}…` : value;
    out += value === "" ? ` ${name}` : ` ${name}="${shown.replace(/&/g, "&amp;").replace(/"/g, "&quot;")}"`;
  }
  return `${out}>`;
}
