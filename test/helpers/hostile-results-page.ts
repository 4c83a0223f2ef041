/**
 * A page made to fill a report's results: hundreds of elements that fail checks, each carrying a different
 * string of control characters (6 bytes each in JSON) near the 64K cut, so that every check that lists
 * evidence keeps its most, and the messages and values that quote page text are at their longest.
 */

/** `length` characters, JSON's costliest (`\u0001`), with a distinct tail so no two are grouped as one. */
const costly = (length: number, tag: number) => `${"\u0001".repeat(length)}${tag}`;

export function hostileResultsPage(): string {
  const long = (tag: number) => costly(12_000, tag);
  const images = Array.from({ length: 30 }, (_, index) => `<img src="/i${long(index)}">`).join("");
  const links = Array.from({ length: 30 }, (_, index) => `<a href="/a${long(index)}"></a>`).join("");
  const inputs = Array.from({ length: 30 }, (_, index) => `<input name="n${long(index)}">`).join("");
  const buttons = Array.from({ length: 30 }, (_, index) => `<button id="b${long(index)}"></button>`).join("");
  const scripts = Array.from(
    { length: 30 },
    (_, index) => `<script src="http://cdn.example/${long(index)}"></script>`,
  ).join("");
  const styles = Array.from(
    { length: 30 },
    (_, index) => `<p style="color:red" title="${long(index)}">x</p>`,
  ).join("");
  const head = `<title>${costly(70_000, 0)}</title><meta name="description" content="${costly(70_000, 1)}"><link rel="canonical" href="/c${long(1)}"><link rel="canonical" href="/d${long(2)}">`;
  return `<!doctype html><html><head>${head}${scripts}</head><body><h3>${costly(70_000, 3)}</h3>${images}${links}${inputs}${buttons}${styles}</body></html>`;
}
