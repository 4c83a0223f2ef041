/**
 * `npm run bench:extract`: what a crawl's extraction rules add to a page's CPU work, over the corpus pages (no
 * network). For each page, interleaved in the same run: parse5 parsing the page into the engine's tree (the
 * baseline) and a typical rule set of five (three selectors, one attribute, two regexes) run over that tree
 * and the HTML. Prints the median and p95 of both and their ratio; then the worst cases the bounds allow, ten
 * slow regexes (an alternation with a group, no literal to look for) matching only at the end of the 2 MiB a
 * regex reads, and a selector over 100,000 nested elements, each against parsing that page.
 */
import { extractValues } from "../src/analysis/extract/extract-values.js";
import type { ExtractionRule } from "../src/analysis/extract/extraction-rules.js";
import { parseDocumentTree } from "../src/analysis/parse.js";
import { loadCorpus } from "../test/helpers/corpus.js";

const rules: ExtractionRule[] = [
  { name: "h1", selector: "h1" },
  { name: "price", selector: "[itemprop=price], .price, .product-price" },
  { name: "canonical", selector: 'link[rel="canonical"]', attribute: "href" },
  { name: "analytics", regex: "(gtag|googletagmanager|plausible|matomo)" },
  { name: "jsonld", regex: '"@type"\\s*:\\s*"([A-Za-z]+)"' },
];

const timed = (work: () => unknown) => {
  const started = performance.now();
  work();
  return performance.now() - started;
};
const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
};

const pages = loadCorpus().map((page) => page.html.toString("utf8"));
const parseMs: number[] = [];
const extractMs: number[] = [];
for (let round = 0; round < 3; round++) {
  for (const html of pages) {
    let root = parseDocumentTree(html, "https://corpus.example/").root;
    parseMs.push(
      timed(() => {
        root = parseDocumentTree(html, "https://corpus.example/").root;
      }),
    );
    extractMs.push(timed(() => extractValues(rules, { html, root })));
  }
}
const line = (label: string, values: number[]) =>
  `${label.padEnd(28)} median ${quantile(values, 0.5).toFixed(2)} ms  p95 ${quantile(values, 0.95).toFixed(2)} ms`;
console.log(`${pages.length} corpus pages × 3 rounds`);
console.log(line("parse (baseline)", parseMs));
console.log(line("five extraction rules", extractMs));
console.log(
  `ratio (extraction / parse)   median ${(quantile(extractMs, 0.5) / quantile(parseMs, 0.5)).toFixed(2)}  p95 ${(quantile(extractMs, 0.95) / quantile(parseMs, 0.95)).toFixed(2)}`,
);

const big = `<p>${"a".repeat(5 * 1024 * 1024 - 10)}!</p>`;
let bigRoot = parseDocumentTree(big, "https://corpus.example/").root;
const bigParse = timed(() => {
  bigRoot = parseDocumentTree(big, "https://corpus.example/").root;
});
const tenRegexes = Array.from({ length: 10 }, (_, index) => ({
  name: `r${index}`,
  regex: `(gtag|matomo|plausible)-${index}`,
}));
const late = `<p>${"a ".repeat(1024 * 1024 - 40)}gtag-0 gtag-1 gtag-2 gtag-3 gtag-4 gtag-5 gtag-6 gtag-7 gtag-8 gtag-9</p>`;
let lateRoot = parseDocumentTree(late, "https://corpus.example/").root;
const lateParse = timed(() => {
  lateRoot = parseDocumentTree(late, "https://corpus.example/").root;
});
const lateExtract = timed(() => extractValues(tenRegexes, { html: late, root: lateRoot }));
console.log(
  `2 MiB page, matches at its end: parse ${lateParse.toFixed(0)} ms, ten regexes ${lateExtract.toFixed(0)} ms, ratio ${(lateExtract / lateParse).toFixed(2)}`,
);
const bigExtract = timed(() => extractValues(tenRegexes, { html: big, root: bigRoot }));
console.log(
  `5 MiB page, no match: parse ${bigParse.toFixed(0)} ms, ten regexes ${bigExtract.toFixed(0)} ms, ratio ${(bigExtract / bigParse).toFixed(2)}`,
);

const deep = `${"<div>".repeat(100_000)}<p>x</p>`;
let deepRoot = parseDocumentTree(deep, "https://corpus.example/").root;
const deepParse = timed(() => {
  deepRoot = parseDocumentTree(deep, "https://corpus.example/").root;
});
const deepExtract = timed(() =>
  extractValues([{ name: "none", selector: "section div" }], { html: deep, root: deepRoot }),
);
console.log(
  `100,000 nested divs: parse ${deepParse.toFixed(0)} ms, "section div" (stopped at its step budget) ${deepExtract.toFixed(0)} ms, ratio ${(deepExtract / deepParse).toFixed(2)}`,
);
