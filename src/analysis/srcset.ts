/**
 * The URLs of a srcset attribute, split by the HTML candidate grammar: a URL runs to the next whitespace, and
 * descriptors run to the next comma outside parentheses. URLs may themselves contain commas
 * ("/img/w_100,h_100/a.jpg 2x"), which naive splitting on "," gets wrong.
 */

/** HTML's ASCII whitespace: space, tab, line feed, form feed, carriage return. */
const isWhitespace = (code: number) => code === 32 || code === 9 || code === 10 || code === 12 || code === 13;
const comma = 44;

export function parseSrcset(value: string): string[] {
  const urls: string[] = [];
  let i = 0;
  const n = value.length;
  while (i < n) {
    while (i < n && (isWhitespace(value.charCodeAt(i)) || value.charCodeAt(i) === comma)) i++;
    if (i >= n) break;
    const start = i;
    // A plain scan to the next whitespace. It was a sticky regular expression, which threw "Maximum call stack
    // size exceeded" on a 5 MB run once (test/analysis/regex-audit.test.ts in a test process shared with other
    // files; not reproduced alone): a loop has no stack to exhaust and scans megabytes in milliseconds too.
    while (i < n && !isWhitespace(value.charCodeAt(i))) i++;
    let url = value.slice(start, i);
    if (url.endsWith(",")) {
      let end = url.length;
      while (end > 0 && url.charCodeAt(end - 1) === comma) end--; // a scan: /,+$/ is quadratic on a long run of commas
      url = url.slice(0, end);
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
