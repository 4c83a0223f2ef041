/**
 * The site checks on crafted sites served from 127.0.0.1 and crawled by the service's crawler: each finds what
 * it should, and leaves alone the neighbours that look alike (a 403 is not a broken link, a page is not a
 * duplicate of itself, a single redirect is not a chain, a self-canonical is fine). insecure-links needs an
 * https site, so it is judged on facts directly.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { judgeSite } from "../../../src/analysis/site-checks/index.js";
import { insecureLinks } from "../../../src/analysis/site-checks/insecure-links.js";
import type { SiteFacts, SitePage } from "../../../src/analysis/site-checks/site-facts.js";
import { factsSource } from "../../../src/analysis/site-checks/site-source.js";
import { crawlSite } from "../../helpers/crawl-site.js";
import { sitePage } from "../../helpers/site-page.js";

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

const base = (request: IncomingMessage) => `http://${request.headers.host}`;
const page =
  (title: string, body = "", head = ""): Handler =>
  (_request, response) =>
    response
      .writeHead(200, { "content-type": "text/html; charset=utf-8" })
      .end(
        `<!doctype html><html lang="en"><head><title>${title}</title>${head}</head><body><h1>${title}</h1>${body}</body></html>`,
      );
const dynamicPage =
  (title: string, body: (origin: string) => string, head: (origin: string) => string = () => ""): Handler =>
  (request, response) =>
    page(title, body(base(request)), head(base(request)))(request, response);
const status =
  (code: number): Handler =>
  (_request, response) =>
    response.writeHead(code, { "content-type": "text/html" }).end(`<!doctype html><title>${code}</title>`);
const redirect =
  (to: string, code = 301): Handler =>
  (_request, response) =>
    response.writeHead(code, { location: to }).end();
const sitemap =
  (...paths: string[]): Handler =>
  (request, response) =>
    response
      .writeHead(200, { "content-type": "application/xml" })
      .end(
        `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${paths.map((path) => `<url><loc>${base(request)}${path}</loc></url>`).join("")}</urlset>`,
      );
const links = (...paths: string[]) => paths.map((path) => `<a href="${path}">${path}</a>`).join(" ");
const words = (seed: string) =>
  Array.from({ length: 80 }, (_, i) => `${seed}${i % 7} word${(i * 13) % 29} text${i % 11}`).join(" ");

describe("site checks on crawled sites", () => {
  it("broken-links: 404, 410, 5xx and unreachable links, never 401 or 403", async () => {
    const site = await crawlSite({
      "/": page("Home", links("/gone", "/removed", "/error", "/forbidden", "/login", "/fine")),
      "/gone": status(404),
      "/removed": status(410),
      "/error": status(500),
      "/forbidden": status(403),
      "/login": status(401),
      "/fine": page("Fine", links("/gone")),
    });
    expect(site.pathsOf("broken-links")).toEqual(["/error", "/gone", "/removed"]);
    const gone = site.issues.get("broken-links")?.items.find((item) => String(item.url).endsWith("/gone"));
    expect(gone?.sources).toEqual([`${site.server.url}/`, `${site.server.url}/fine`]);
  });

  it("redirected-links and redirect-chains: every redirected link; chains of two hops or more only", async () => {
    const site = await crawlSite({
      "/": page("Home", links("/one-hop", "/two-hops", "/final")),
      "/one-hop": redirect("/final"),
      "/two-hops": redirect("/middle", 302),
      "/middle": redirect("/final"),
      "/final": page("Final"),
    });
    expect(site.pathsOf("redirected-links")).toEqual(["/one-hop", "/two-hops"]);
    expect(site.pathsOf("redirect-chains")).toEqual(["/two-hops"]);
  });

  it("canonical-targets: canonicals to an error, a redirect or a noindex page; a self-canonical is fine", async () => {
    const site = await crawlSite({
      "/": page("Home", links("/to-missing", "/to-redirect", "/to-noindex", "/self", "/to-good")),
      "/to-missing": dynamicPage(
        "To missing",
        () => "",
        (origin) => `<link rel="canonical" href="${origin}/missing">`,
      ),
      "/to-redirect": dynamicPage(
        "To redirect",
        () => "",
        (origin) => `<link rel="canonical" href="${origin}/moved">`,
      ),
      "/to-noindex": dynamicPage(
        "To noindex",
        () => "",
        (origin) => `<link rel="canonical" href="${origin}/hidden">`,
      ),
      "/self": dynamicPage(
        "Self",
        () => "",
        (origin) => `<link rel="canonical" href="${origin}/self">`,
      ),
      "/to-good": dynamicPage(
        "To good",
        () => "",
        (origin) => `<link rel="canonical" href="${origin}/good">`,
      ),
      "/good": dynamicPage(
        "Good",
        () => "",
        (origin) => `<link rel="canonical" href="${origin}/good">`,
      ),
      "/missing": status(404),
      "/moved": redirect("/good"),
      "/hidden": page("Hidden", "", '<meta name="robots" content="noindex">'),
    });
    expect(site.pathsOf("canonical-targets")).toEqual(["/to-missing", "/to-noindex", "/to-redirect"]);
  });

  it("duplicate-title, duplicate-meta-description, duplicate-content: groups of indexable pages, never one page alone", async () => {
    const description = '<meta name="description" content="The same description on two pages of the shop.">';
    const site = await crawlSite({
      "/": page("Home", links("/a", "/b", "/c", "/noindex")),
      "/a": page("Same title", `<p>${words("alpha")}</p>`, description),
      "/b": page("Same title", `<p>${words("alpha")}</p>`, description),
      "/c": page(
        "Other title",
        `<p>${words("gamma")}</p>`,
        '<meta name="description" content="Another one.">',
      ),
      "/noindex": page(
        "Same title",
        `<p>${words("alpha")}</p>`,
        `${description}<meta name="robots" content="noindex">`,
      ),
    });
    for (const check of ["duplicate-title", "duplicate-meta-description", "duplicate-content"]) {
      expect(site.issues.get(check)?.items, check).toHaveLength(1);
      expect(site.pathsOf(check), check).toEqual(["/a", "/b"]);
    }
  });

  it("orphan-pages: sitemap URLs no page links to; the start page never", async () => {
    const site = await crawlSite(
      {
        "/": page("Home", links("/linked")),
        "/linked": page("Linked"),
        "/orphan": page("Orphan"),
        "/sitemap.xml": sitemap("/", "/linked", "/orphan"),
      },
      { sitemaps: 1 },
    );
    expect(site.pathsOf("orphan-pages")).toEqual(["/orphan"]);
  });

  it("sitemap-errors: redirects, errors, noindex, disallowed and canonicalised URLs; a good entry is fine", async () => {
    const site = await crawlSite(
      {
        "/": page("Home", links("/ok")),
        "/ok": page("OK"),
        "/moved": redirect("/ok"),
        "/missing": status(404),
        "/hidden": page("Hidden", "", '<meta name="robots" content="noindex">'),
        "/copy": dynamicPage(
          "Copy",
          () => "",
          (origin) => `<link rel="canonical" href="${origin}/ok">`,
        ),
        "/private/page": page("Private"),
        "/robots.txt": (_request, response) =>
          response
            .writeHead(200, { "content-type": "text/plain" })
            .end("User-agent: *\nDisallow: /private\n"),
        "/sitemap.xml": sitemap("/", "/ok", "/moved", "/missing", "/hidden", "/copy", "/private/page"),
      },
      { sitemaps: 1 },
    );
    expect(site.pathsOf("sitemap-errors")).toEqual([
      "/copy",
      "/hidden",
      "/missing",
      "/moved",
      "/private/page",
    ]);
  });

  it("click-depth: indexable pages more than four clicks from the start", async () => {
    const site = await crawlSite({
      "/": page("Home", links("/1")),
      "/1": page("One", links("/2")),
      "/2": page("Two", links("/3")),
      "/3": page("Three", links("/4")),
      "/4": page("Four", links("/5")),
      "/5": page("Five", links("/6")),
      "/6": page("Six"),
    });
    expect(site.pathsOf("click-depth")).toEqual(["/5", "/6"]);
  });

  it("nofollow-internal-links: nofollowed links to indexable pages, not to a missing one", async () => {
    const site = await crawlSite({
      "/": page(
        "Home",
        `${links("/other")} <a href="/target" rel="nofollow">Target</a> <a href="/gone" rel="nofollow">Gone</a>`,
      ),
      "/other": page("Other", links("/target", "/gone")),
      "/target": page("Target"),
      "/gone": status(404),
    });
    expect(site.pathsOf("nofollow-internal-links")).toEqual(["/target"]);
  });

  it("hreflang-reciprocity: alternates that do not link back; a reciprocal pair is fine", async () => {
    const alternates = (origin: string, pairs: Array<[string, string]>) =>
      pairs
        .map(([lang, path]) => `<link rel="alternate" hreflang="${lang}" href="${origin}${path}">`)
        .join("");
    const site = await crawlSite({
      "/": page("Home", links("/en", "/de", "/en-only")),
      "/en": dynamicPage(
        "English",
        () => "",
        (origin) =>
          alternates(origin, [
            ["en", "/en"],
            ["de", "/de"],
          ]),
      ),
      "/de": dynamicPage(
        "Deutsch",
        () => "",
        (origin) =>
          alternates(origin, [
            ["en", "/en"],
            ["de", "/de"],
          ]),
      ),
      "/en-only": dynamicPage(
        "English only",
        () => "",
        (origin) =>
          alternates(origin, [
            ["en", "/en-only"],
            ["fr", "/fr"],
          ]),
      ),
      "/fr": page("Français"),
    });
    expect(site.issues.get("hreflang-reciprocity")?.items).toEqual([
      expect.objectContaining({
        url: `${site.server.url}/en-only`,
        hreflang: "fr",
        alternate: `${site.server.url}/fr`,
      }),
    ]);
  });

  it("finds nothing on a clean site", async () => {
    const site = await crawlSite(
      {
        "/": page("Home of the shop", links("/a", "/b"), '<meta name="description" content="Home.">'),
        "/a": page(
          "Wheels",
          `${links("/")}<p>${words("wheel")}</p>`,
          '<meta name="description" content="Wheels.">',
        ),
        "/b": page(
          "Brakes",
          `${links("/")}<p>${words("brake")}</p>`,
          '<meta name="description" content="Brakes.">',
        ),
        "/sitemap.xml": sitemap("/", "/a", "/b"),
      },
      { sitemaps: 1 },
    );
    expect([...site.issues.keys()]).toEqual([]);
  });
});

describe("insecure-links (facts of an https site)", () => {
  const pageAt = (url: string): SitePage => sitePage(url, { depth: 0, title: url });

  it("finds http:// links on an https site, and judges nothing on an http one", async () => {
    const facts: SiteFacts = {
      startUrl: "https://shop.example/",
      pages: [pageAt("https://shop.example/"), pageAt("https://shop.example/a")],
      links: [
        { from: "https://shop.example/", to: "http://shop.example/a", nofollow: false },
        { from: "https://shop.example/", to: "https://shop.example/a", nofollow: false },
      ],
    };
    expect((await insecureLinks.run(factsSource(facts)))?.items).toEqual([
      { url: "http://shop.example/a", sources: ["https://shop.example/"], fingerprint: expect.any(String) },
    ]);
    expect(await insecureLinks.run(factsSource({ ...facts, startUrl: "http://shop.example/" }))).toBeNull();
    expect((await judgeSite(factsSource(facts))).issues.map((issue) => issue.check)).toContain(
      "insecure-links",
    );
  });
});
