/**
 * URL path patterns as robots.txt writes them (and crawl include/exclude patterns): "*" matches any run of
 * characters, a final "$" anchors the end, otherwise the pattern is a prefix of the path and query. A pattern is
 * compiled once into its literal segments (the text between the "*"s) and matched greedily: the first segment
 * must start the path, each later one is found at its leftmost place after the previous one (leftmost leaves the
 * most room for the rest, so the greedy choice is never wrong), and an anchored last segment must end the path.
 * Each segment is looked for once, from where the previous one ended, so a match costs time linear in the
 * pattern and the path, whatever the pattern (no regex, no backtracking: "/*a*a*a*…*b" costs what "/a" does).
 */

export interface PathPattern {
  /** The pattern as written. */
  source: string;
  /** The literal runs between the "*"s, percent-encoded like a URL path; at least one (maybe empty). */
  segments: string[];
  /** Whether a final "$" anchors the pattern to the end of the path. */
  anchored: boolean;
}

export function compilePathPattern(source: string): PathPattern {
  const anchored = source.endsWith("$");
  const body = normaliseEncoding(anchored ? source.slice(0, -1) : source);
  return { source, segments: body.split("*"), anchored };
}

/** Whether the pattern matches the path (path and query, as in the request line). */
export function pathPatternMatches(pattern: PathPattern, path: string): boolean {
  const { segments, anchored } = pattern;
  const first = segments[0] as string;
  if (segments.length === 1) return anchored ? path === first : path.startsWith(first);
  if (!path.startsWith(first)) return false;
  let position = first.length;
  const lastIndex = segments.length - 1;
  for (let index = 1; index < lastIndex; index++) {
    const segment = segments[index] as string;
    if (segment === "") continue;
    const found = path.indexOf(segment, position);
    if (found === -1) return false;
    position = found + segment.length;
  }
  const last = segments[lastIndex] as string;
  if (anchored) return path.length - last.length >= position && path.endsWith(last);
  return last === "" || path.indexOf(last, position) !== -1;
}

/** Percent-encodes what a URL path would encode, so "/café" in a pattern matches "/caf%C3%A9". */
function normaliseEncoding(part: string): string {
  return part.replace(/[^\x21-\x7e]+/g, (chars) => encodeURIComponent(wellFormed(chars)));
}

/** The text with any lone surrogate (which no URL can hold, and encodeURIComponent rejects) made U+FFFD. */
function wellFormed(text: string): string {
  return text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD");
}
