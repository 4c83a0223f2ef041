/**
 * A strict, small XML reader for tests that check files the project writes (JUnit): it rejects anything not
 * well-formed (unbalanced tags, unquoted or duplicate attributes, raw `<` or stray `&`, characters XML 1.0
 * cannot carry) and returns the element tree with entities decoded.
 */
export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point
const forbidden = /[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/u;
const name = "[A-Za-z_][\\w.-]*";

export function parseXml(source: string): XmlElement {
  if (forbidden.test(source)) throw new Error("a character XML 1.0 cannot carry");
  let rest = source.replace(/^<\?xml[^?]*\?>\s*/, "");
  const root: XmlElement = { name: "#document", attributes: {}, children: [], text: "" };
  const stack = [root];
  while (rest.length > 0) {
    const top = stack[stack.length - 1] as XmlElement;
    const textEnd = rest.indexOf("<");
    const raw = textEnd === -1 ? rest : rest.slice(0, textEnd);
    if (raw.length > 0) {
      top.text += decode(raw);
      rest = rest.slice(raw.length);
      continue;
    }
    const close = new RegExp(`^</(${name})\\s*>`).exec(rest);
    if (close) {
      if (close[1] !== top.name) throw new Error(`</${close[1]}> closes <${top.name}>`);
      stack.pop();
      rest = rest.slice(close[0].length);
      continue;
    }
    const open = new RegExp(`^<(${name})((?:\\s+${name}\\s*=\\s*"[^"<]*")*)\\s*(/?)>`).exec(rest);
    if (!open) throw new Error(`not well-formed at: ${rest.slice(0, 40)}`);
    const element: XmlElement = { name: open[1] as string, attributes: {}, children: [], text: "" };
    for (const [, key, value] of (open[2] as string).matchAll(
      new RegExp(`(${name})\\s*=\\s*"([^"]*)"`, "g"),
    )) {
      if (key === undefined || value === undefined) continue;
      if (key in element.attributes) throw new Error(`duplicate attribute ${key}`);
      element.attributes[key] = decode(value);
    }
    top.children.push(element);
    if (open[3] !== "/") stack.push(element);
    rest = rest.slice(open[0].length);
  }
  if (stack.length !== 1) throw new Error(`<${stack[stack.length - 1]?.name}> is not closed`);
  if (root.children.length !== 1 || root.text.trim() !== "") throw new Error("not exactly one root element");
  return root.children[0] as XmlElement;
}

function decode(raw: string): string {
  return raw.replace(/&([^;]*);|&/g, (_whole, entity: string | undefined) => {
    const named: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
    if (entity === undefined) throw new Error("a stray &");
    if (entity in named) return named[entity] as string;
    const code = /^#(\d+)$/.exec(entity)?.[1] ?? /^#x([\da-f]+)$/i.exec(entity)?.[1];
    if (code === undefined) throw new Error(`unknown entity &${entity};`);
    return String.fromCodePoint(Number.parseInt(code, entity.startsWith("#x") ? 16 : 10));
  });
}

/** Every element below (and including) the given one, depth first. */
export function allElements(element: XmlElement): XmlElement[] {
  return [element, ...element.children.flatMap(allElements)];
}
