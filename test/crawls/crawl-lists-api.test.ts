/**
 * List mode (`urls`) and custom extraction (`extract`) through the API, on a site served from 127.0.0.1, on both
 * databases: only the listed URLs are analysed (no links, sitemaps or redirect targets followed), the site checks
 * run over them, each page carries its extracted values (JSON and CSV), a form body takes the list as repeated
 * fields or one per line, every bad input is a 422 naming its field, another user's crawl is a 404, and a
 * scheduled list crawl runs the same list with the same rules again (the crawl store's new columns on both).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, databaseKinds, startApi, type TestApi } from "../helpers/api.js";
import { crawlTestSettings, endedCrawl, testPage as page } from "../helpers/crawl-api.js";
import { eventually } from "../helpers/job-queues.js";
import { html, type LocalServer, redirect, startServer } from "../helpers/local-server.js";

const product = (name: string, price: string) =>
  page(
    name,
    `<p class="price"> ${price}\n </p><img class="hero" src="/img/${name}.png" alt="">
     <a href="/unlisted">More</a><script>var sku = "SKU-${name}";</script>`,
  );

const rules = [
  { name: "price", selector: ".price" },
  { name: "hero", selector: "img.hero", attribute: "src" },
  { name: "sku", regex: 'sku = "([^"]+)"' },
];

function site() {
  return {
    "/": html(page("Home", '<a href="/shoes">Shoes</a> <a href="/hats">Hats</a>')),
    "/shoes": html(product("shoes", "€ 49.90")),
    "/hats": html(product("hats", "€ 19.00")),
    "/unlisted": html(page("Unlisted", "<p>Never asked for.</p>")),
    "/formulas": html(page("Formulas", '<p class="price">x;=3+3</p><p class="price">-2</p>')),
    "/moved": redirect("/elsewhere"),
    "/elsewhere": html(page("Elsewhere", "<p>Only a redirect's target.</p>")),
    "/sitemap.xml": html(`<?xml version="1.0"?><urlset><url><loc>/unlisted</loc></url></urlset>`),
  };
}

describe.each(databaseKinds)("list mode and extraction on %s", (kind) => {
  let api: TestApi;
  let server: LocalServer;
  let key: string;
  let other: string;

  beforeAll(async () => {
    server = await startServer(site());
    api = await startApi(kind, crawlTestSettings);
    key = await api.newUser();
    other = await api.newUser();
  });
  afterAll(async () => {
    await api.close();
    await server.close();
  });

  const waitForEnd = (id: number) => endedCrawl(api, key, id);

  it("analyses the listed URLs only, with each page's extracted values in JSON and CSV", async () => {
    const urls = [
      `${server.url}/shoes`,
      `${server.url}/hats#reviews`,
      `${server.url}/moved`,
      `${server.url}/shoes`,
    ];
    const created = await call(api, "POST", "/api/v1/crawls", { key, json: { urls, extract: rules } });
    expect(created.statusCode, created.body).toBe(202);
    expect(created.json().data).toMatchObject({
      url: `${server.url}/shoes`,
      urls: [`${server.url}/shoes`, `${server.url}/hats`, `${server.url}/moved`],
      max_pages: 3,
      sitemaps: 0,
      extract: rules,
    });
    const crawl = await waitForEnd(created.json().data.id);
    expect(crawl.status).toBe("complete");
    expect(crawl.score).toEqual(expect.any(Number));

    const pages = (await call(api, "GET", `/api/v1/crawls/${crawl.id}/pages?per_page=100`, { key })).json()
      .data as Array<Record<string, unknown> & { url: string }>;
    expect(pages.map((entry) => new URL(entry.url).pathname).sort()).toEqual(["/hats", "/moved", "/shoes"]);
    const byPath = new Map(pages.map((entry) => [new URL(entry.url).pathname, entry]));
    expect(byPath.get("/shoes")).toMatchObject({
      status_code: 200,
      extracted: { price: ["€ 49.90"], hero: ["/img/shoes.png"], sku: ["SKU-shoes"] },
    });
    expect(byPath.get("/hats")?.extracted).toEqual({
      price: ["€ 19.00"],
      hero: ["/img/hats.png"],
      sku: ["SKU-hats"],
    });
    // The redirect is recorded, its target not fetched; neither are the pages' links or the sitemap's URLs.
    expect(byPath.get("/moved")).toMatchObject({
      status_code: 301,
      redirect_to: `${server.url}/elsewhere`,
      extracted: { price: [], hero: [], sku: [] },
    });
    // The site checks ran over the list: both product pages share no title, so no duplicate-title finding.
    const issues = await call(api, "GET", `/api/v1/crawls/${crawl.id}/issues?per_page=100`, { key });
    expect(issues.statusCode).toBe(200);

    const csv = await api.app.inject({
      method: "GET",
      url: `/api/v1/crawls/${crawl.id}/pages`,
      headers: { authorization: `Bearer ${key}`, accept: "text/csv" },
    });
    const [header, ...lines] = csv.body.trim().split("\r\n");
    expect(header?.endsWith(",error,price,hero,sku")).toBe(true);
    expect(lines.find((line) => line.includes("/shoes,"))).toMatch(/,€ 49\.90,\/img\/shoes\.png,SKU-shoes$/);
  });

  it("exports extracted values joined by ' | ', a ;-separated formula neutralised and the cell quoted", async () => {
    const created = await call(api, "POST", "/api/v1/crawls", {
      key,
      json: { urls: [`${server.url}/formulas`], extract: [{ name: "price", selector: ".price" }] },
    });
    expect(created.statusCode, created.body).toBe(202);
    const crawl = await waitForEnd(created.json().data.id);
    expect(crawl.status).toBe("complete");
    const csv = await api.app.inject({
      method: "GET",
      url: `/api/v1/crawls/${crawl.id}/pages`,
      headers: { authorization: `Bearer ${key}`, accept: "text/csv" },
    });
    const [, line] = csv.body.trim().split("\r\n");
    // A spreadsheet splitting on ";" would have evaluated "=3+3" in the cell "x;=3+3 | -2" before.
    expect(line?.endsWith(`,"x;'=3+3 | -2"`), line).toBe(true);
  });

  it("takes a form body's list as repeated fields or one per line, and the rules as JSON text", async () => {
    const form = new URLSearchParams();
    form.append("urls", `${server.url}/shoes\r\n\r\n${server.url}/hats`);
    form.append("urls", `${server.url}/`);
    form.append("extract", JSON.stringify([{ name: "h1", selector: "h1" }]));
    const response = await api.app.inject({
      method: "POST",
      url: "/api/v1/crawls",
      headers: {
        authorization: `Bearer ${key}`,
        "content-type": "application/x-www-form-urlencoded",
        accept: "application/json",
      },
      payload: form.toString(),
    });
    expect(response.statusCode, response.body).toBe(202);
    expect(response.json().data.urls).toEqual([
      `${server.url}/shoes`,
      `${server.url}/hats`,
      `${server.url}/`,
    ]);
    const crawl = await waitForEnd(response.json().data.id);
    const pages = (await call(api, "GET", `/api/v1/crawls/${crawl.id}/pages?per_page=100`, { key })).json()
      .data as Array<{ url: string; extracted: { h1: string[] } }>;
    expect(pages.map((entry) => entry.extracted.h1[0]).sort()).toEqual(["Home", "hats", "shoes"]);
  });

  it("takes a list of thousands of URLs in one body (beyond the 16 KiB of other bodies)", async () => {
    const urls = Array.from({ length: 3000 }, (_, index) => `${server.url}/page/${index}-${"x".repeat(20)}`);
    const response = await call(api, "POST", "/api/v1/crawls", { key, json: { urls, max_pages: 3000 } });
    expect(response.statusCode, response.body).toBe(202);
    expect(response.json().data.urls).toHaveLength(3000);
    await call(api, "POST", `/api/v1/crawls/${response.json().data.id}/cancel`, { key });
  });

  it("answers a body past the crawl route's 1 MiB with a 413 naming 1 MiB (and 16 KiB on other routes)", async () => {
    const tooMany = Array.from(
      { length: 20_000 },
      (_, index) => `${server.url}/page/${index}-${"x".repeat(40)}`,
    );
    const crawl = await call(api, "POST", "/api/v1/crawls", { key, json: { urls: tooMany } });
    expect(crawl.statusCode).toBe(413);
    expect(crawl.json().detail).toBe("The request body may not be larger than 1 MiB.");
    const report = await call(api, "POST", "/api/v1/reports", {
      key,
      json: { url: `${server.url}/?q=${"a".repeat(17 * 1024)}` },
    });
    expect(report.statusCode).toBe(413);
    expect(report.json().detail).toBe("The request body may not be larger than 16 KiB.");
  });

  it.each([
    ["urls", { urls: [] }, "at least one URL"],
    ["urls", { urls: ["# just a comment"] }, "at least one URL"],
    ["urls", { urls: ["/relative"] }, "Line 1"],
    ["urls", { urls: ["https://a.example/", "ftp://a.example/x"] }, "Line 2"],
    ["urls", { urls: ["https://a.example/", "https://b.example/"] }, "one project"],
    ["urls", { urls: ["https://a.example/1", "https://a.example/2"], max_pages: 1 }, "at most 1"],
    ["urls", { url: "https://a.example/", urls: ["https://a.example/"] }, "not both"],
    ["url", {}, "required"],
    ["extract", { url: "https://a.example/", extract: "not json" }, "JSON array"],
    ["extract", { url: "https://a.example/", extract: { name: "x" } }, "array"],
    [
      "extract",
      {
        url: "https://a.example/",
        extract: Array.from({ length: 11 }, (_, index) => ({ name: `r${index}`, selector: "p" })),
      },
      "at most 10",
    ],
    [
      "extract",
      {
        url: "https://a.example/",
        extract: [
          { name: "same", selector: "p" },
          { name: "same", selector: "h1" },
        ],
      },
      "twice",
    ],
    ["extract", { url: "https://a.example/", extract: [{ name: "bad name", selector: "p" }] }, "name"],
    ["extract", { url: "https://a.example/", extract: [{ name: "x".repeat(41), selector: "p" }] }, "name"],
    [
      "extract",
      { url: "https://a.example/", extract: [{ name: "both", selector: "p", regex: "a" }] },
      "both",
    ],
    ["extract", { url: "https://a.example/", extract: [{ name: "none" }] }, "selector or a regex"],
    ["extract", { url: "https://a.example/", extract: [{ name: "sel", selector: "p[" }] }, "CSS selector"],
    [
      "extract",
      { url: "https://a.example/", extract: [{ name: "sel", selector: "p:nope" }] },
      "CSS selector",
    ],
    [
      "extract",
      { url: "https://a.example/", extract: [{ name: "re", regex: "(unclosed" }] },
      "regular expression",
    ],
    [
      "extract",
      { url: "https://a.example/", extract: [{ name: "re", regex: "(a)\\1" }] },
      "regular expression",
    ],
    ["extract", { url: "https://a.example/", extract: [{ name: "re", regex: "(a+)+$" }] }, "backtrack"],
    ["extract", { url: "https://a.example/", extract: [{ name: "re", regex: "(x*)*y" }] }, "backtrack"],
    [
      "extract",
      { url: "https://a.example/", extract: [{ name: "re", regex: "a", attribute: "href" }] },
      "attribute",
    ],
    ["extract", { url: "https://a.example/", extract: [{ name: "x", selector: "p", extra: 1 }] }, "unknown"],
  ])("refuses %s: %j", async (field, json, words) => {
    const response = await call(api, "POST", "/api/v1/crawls", { key, json });
    expect(response.statusCode, response.body).toBe(422);
    expect(Object.keys(response.json().errors)).toEqual([field]);
    expect(response.json().errors[field][0]).toContain(words);
  });

  it("answers another user's list crawl with 404", async () => {
    const created = await call(api, "POST", "/api/v1/crawls", {
      key,
      json: { urls: [`${server.url}/shoes`], extract: rules },
    });
    const id = created.json().data.id;
    for (const path of [`/api/v1/crawls/${id}`, `/api/v1/crawls/${id}/pages`]) {
      expect((await call(api, "GET", path, { key: other })).statusCode).toBe(404);
    }
    await waitForEnd(id);
  });
});

describe.each(databaseKinds)("a scheduled list crawl on %s", (kind) => {
  let api: TestApi;
  let server: LocalServer;
  let key: string;

  beforeAll(async () => {
    server = await startServer(site());
    api = await startApi(kind, {
      PAGEGRADE_CRAWL_DELAY_MS: "0",
      PAGEGRADE_SCHEDULE_INTERVALS: "daily=1,weekly=3600",
    });
    key = await api.newUser();
  });
  afterAll(async () => {
    await api.close();
    await server.close();
  });

  it("runs the same list with the same rules again", async () => {
    const urls = [`${server.url}/shoes`, `${server.url}/hats`];
    const extract = [{ name: "price", selector: ".price" }];
    const created = await call(api, "POST", "/api/v1/crawls", {
      key,
      json: { urls, extract, schedule: "daily" },
    });
    expect(created.statusCode).toBe(202);
    const list = async () =>
      (await call(api, "GET", "/api/v1/crawls?sort=asc&per_page=100", { key })).json().data as Array<{
        id: number;
        status: string;
        url_count: number;
        extract: unknown;
      }>;
    await eventually(
      async () => (await list()).filter((crawl) => crawl.status === "complete").length >= 2,
      "two runs",
      20_000,
    );
    const second = (await list()).filter((crawl) => crawl.status === "complete")[1];
    // The list counts the URLs and names where they are shown: the crawl's own address.
    expect(second).toMatchObject({
      url_count: urls.length,
      urls_url: `/api/v1/crawls/${second?.id}`,
      extract,
    });
    expect(second).not.toHaveProperty("urls");
    expect((await call(api, "GET", `/api/v1/crawls/${second?.id}`, { key })).json().data).toMatchObject({
      urls,
      url_count: urls.length,
    });
    const pages = (await call(api, "GET", `/api/v1/crawls/${second?.id}/pages`, { key })).json()
      .data as Array<{
      url: string;
      extracted: { price: string[] };
    }>;
    expect(pages.map((entry) => entry.url).sort()).toEqual([...urls].sort());
    expect(pages.every((entry) => entry.extracted.price.length === 1)).toBe(true);
  });
});
