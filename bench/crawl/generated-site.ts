/**
 * A generated site for bench:crawl, served from its own process (so it does not share the benchmark's event
 * loop): pages /p/0 … /p/N-1 built from the shared corpus of real pages (page n is corpus page n mod 170, so the
 * analysis engine works as hard per page as in bench:analysis). Each page's own links, canonical and alternates
 * are neutralised (they would lead to pages this site does not have) and a navigation block is put after
 * `<body>`: links to its ten children (page n → 10n+1 … 10n+10, so every page is four or five clicks from
 * /p/0), its parent and three pages elsewhere. robots.txt and the sitemap answer 404. Prints the base URL once it
 * listens; stops when its parent closes stdin. `BENCH_SITE_PAGES` sets N (default 10,000).
 * It counts the page requests it answers, by page: `GET /bench/fetches` answers how many pages were requested and
 * how many of them more than once, since the last `GET /bench/fetches?reset=1` (no page links there).
 */
import { createServer } from "node:http";
import { loadCorpus } from "../../test/helpers/corpus.js";

const pages = Number(process.env.BENCH_SITE_PAGES ?? 10_000);

/** The corpus pages as latin1 text (every byte kept, whatever the page's charset), without their own links. */
const templates = loadCorpus().map((page) =>
  page.html
    .toString("latin1")
    .replace(/(<a\b[^>]*?)\shref\s*=/gi, "$1 data-href=")
    .replace(/<link\b[^>]*\brel\s*=\s*["']?(?:canonical|alternate)\b[^>]*>/gi, ""),
);

function page(n: number): Buffer {
  const links: number[] = [];
  for (let child = 10 * n + 1; child <= 10 * n + 10 && child < pages; child++) links.push(child);
  if (n > 0) links.push(Math.floor((n - 1) / 10));
  for (const step of [7, 131, 2_003]) links.push((n * 31 + step) % pages);
  const nav = `<nav>${links.map((link) => `<a href="/p/${link}">Guide page ${link}</a>`).join(" ")}</nav>`;
  const template = templates[n % templates.length] as string;
  const body = /<body\b[^>]*>/i.exec(template);
  const html = body
    ? `${template.slice(0, body.index + body[0].length)}${nav}${template.slice(body.index + body[0].length)}`
    : `${nav}${template}`;
  return Buffer.from(html, "latin1");
}

/** Requests per page number since the last reset. */
let fetches = new Map<number, number>();

function fetchCounts(): { requests: number; pages: number; repeated: number } {
  let requests = 0;
  let repeated = 0;
  for (const count of fetches.values()) {
    requests += count;
    if (count > 1) repeated++;
  }
  return { requests, pages: fetches.size, repeated };
}

const server = createServer((request, response) => {
  if (request.url?.startsWith("/bench/fetches")) {
    const counts = fetchCounts();
    if (request.url.endsWith("?reset=1")) fetches = new Map();
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(counts));
    return;
  }
  const match = /^\/p\/(\d+)$/.exec(request.url ?? "");
  const n = match ? Number(match[1]) : -1;
  if (n < 0 || n >= pages) {
    response.writeHead(404, { "content-type": "text/plain" }).end("not found");
    return;
  }
  fetches.set(n, (fetches.get(n) ?? 0) + 1);
  const body = page(n);
  response.writeHead(200, { "content-type": "text/html", "content-length": body.length });
  response.end(body);
});
server.keepAliveTimeout = 30_000;
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  if (address && typeof address === "object") process.stdout.write(`http://127.0.0.1:${address.port}\n`);
});
process.stdin.resume();
process.stdin.on("end", () => server.close(() => process.exit(0)));
