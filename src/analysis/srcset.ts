/**
 * The URLs of a srcset attribute, split by the HTML candidate grammar: a URL runs to the next whitespace, and
 * descriptors run to the next comma outside parentheses. URLs may themselves contain commas
 * ("/img/w_100,h_100/a.jpg 2x"), which naive splitting on "," gets wrong.
 */

const whitespace = new Set([" ", "\t", "\n", "\r", "\f"]);

export function parseSrcset(value: string): string[] {
  const urls: string[] = [];
  let i = 0;
  const n = value.length;
  while (i < n) {
    while (i < n && (whitespace.has(value[i] as string) || value[i] === ",")) i++;
    if (i >= n) break;
    const start = i;
    while (i < n && !whitespace.has(value[i] as string)) i++;
    let url = value.slice(start, i);
    if (url.endsWith(",")) {
      url = url.replace(/,+$/, "");
    } else {
      let depth = 0;
      while (i < n) {
        const c = value[i];
        i++;
        if (c === "(") depth++;
        else if (c === ")") depth = Math.max(0, depth - 1);
        else if (c === "," && depth === 0) break;
      }
    }
    if (url) urls.push(url);
  }
  return urls;
}
