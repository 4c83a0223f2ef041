/**
 * Sitemaps read as XML: CDATA, namespace prefixes, character and entity references, sitemap indexes and gzip;
 * hostile files (an unclosed `<loc>` before megabytes of spaces, a 10 MiB sitemap, a gzip bomb, deep nesting,
 * 10 MiB of malformed tokens, billion laughs) bounded. The last part reads a sitemap index and a gzipped sitemap from a real HTTP server through the guard.
 */
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AddressPolicy } from "../../src/analysis/fetch/address-policy.js";
import { ConnectionGuard } from "../../src/analysis/fetch/connection-guard.js";
import { systemResolver } from "../../src/analysis/fetch/host-resolver.js";
import { SiteReader } from "../../src/crawls/site-reader.js";
import { maxErrors, maxLocChars, readSitemap } from "../../src/crawls/sitemap-xml.js";
import { cpuTimedAsync } from "../helpers/cpu-time.js";
import { type LocalServer, startServer } from "../helpers/local-server.js";

const namespace = "http://www.sitemaps.org/schemas/sitemap/0.9";
const mib = 1024 * 1024;
const read = (xml: string | Buffer, limit = 1000) =>
  readSitemap(typeof xml === "string" ? Buffer.from(xml) : xml, 10 * mib, limit);
const urlset = (entries: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="${namespace}">${entries}</urlset>`;

describe("readSitemap", () => {
  it("reads <loc> values, trimmed, and only those of the <url> entries", async () => {
    const xml = urlset(
      `<url><loc>
        https://example.com/a
      </loc><lastmod>2024-01-01</lastmod></url>` +
        `<url><loc>https://example.com/b</loc><image:image xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"><image:loc>https://example.com/b.png</image:loc></image:image></url>`,
    );
    expect(await read(xml)).toEqual({
      index: false,
      locations: ["https://example.com/a", "https://example.com/b"],
    });
  });

  it("decodes CDATA sections, character references and the predefined entities", async () => {
    const xml = urlset(
      "<url><loc><![CDATA[https://example.com/?a=1&b=2]]></loc></url>" +
        "<url><loc>https://example.com/?c=1&#38;d=2</loc></url>" +
        "<url><loc>https://example.com/?e=1&amp;f=&#x32;&apos;</loc></url>",
    );
    expect((await read(xml)).locations).toEqual([
      "https://example.com/?a=1&b=2",
      "https://example.com/?c=1&d=2",
      "https://example.com/?e=1&f=2'",
    ]);
  });

  it("reads elements under a declared prefix", async () => {
    const xml = `<sm:urlset xmlns:sm="${namespace}"><sm:url><sm:loc>https://example.com/prefixed</sm:loc></sm:url></sm:urlset>`;
    expect((await read(xml)).locations).toEqual(["https://example.com/prefixed"]);
  });

  it("tells a sitemap index from a sitemap", async () => {
    const xml = `<sitemapindex xmlns="${namespace}"><sitemap><loc>https://example.com/s1.xml</loc></sitemap><sitemap><loc>https://example.com/s2.xml.gz</loc></sitemap></sitemapindex>`;
    expect(await read(xml)).toEqual({
      index: true,
      locations: ["https://example.com/s1.xml", "https://example.com/s2.xml.gz"],
    });
  });

  it("unpacks gzip, and keeps what it read from a file that breaks off", async () => {
    const xml = urlset("<url><loc>https://example.com/zipped</loc></url>");
    expect((await read(gzipSync(xml))).locations).toEqual(["https://example.com/zipped"]);
    const broken = `${urlset("<url><loc>https://example.com/kept</loc></url>").replace("</urlset>", "")}<url><loc>&bogus;`;
    expect((await read(broken)).locations).toEqual(["https://example.com/kept"]);
  });

  it("takes at most the limit, and drops a location too long to be a URL", async () => {
    const xml = urlset(
      `<url><loc>https://example.com/${"x".repeat(maxLocChars)}</loc></url>` +
        Array.from({ length: 10 }, (_, i) => `<url><loc>https://example.com/${i}</loc></url>`).join(""),
    );
    expect((await read(xml, 3)).locations).toEqual([
      "https://example.com/0",
      "https://example.com/1",
      "https://example.com/2",
    ]);
  });
});

describe("readSitemap on hostile files", () => {
  it("reads an unclosed <loc> followed by 4,000 and by a million spaces in linear time", async () => {
    // The old regex took 53 s on 4,000 spaces (cubic); the parser scans each character once.
    for (const [spaces, boundMs] of [
      [4000, 50],
      [1_000_000, 1000],
    ] as const) {
      const xml = urlset(`<url><loc>${" ".repeat(spaces)}`).replace("</urlset>", "");
      const { result, ms } = await cpuTimedAsync(() => read(xml));
      expect(result.locations).toEqual([]);
      expect(ms).toBeLessThan(boundMs);
    }
  });

  it("reads a 10 MiB sitemap within its bounds and ignores what follows them", async () => {
    const entry = (i: number) => `<url><loc>https://example.com/page-${i}</loc></url>`;
    const entries: string[] = [];
    for (let i = 0, size = 0; size < 11 * mib; i++) {
      entries.push(entry(i));
      size += entries.at(-1)?.length ?? 0;
    }
    const body = Buffer.from(urlset(entries.join("")));
    const all = await readSitemap(body, 10 * mib, Number.MAX_SAFE_INTEGER);
    // Only the first 10 MiB are read: the locations stop short of the file's.
    expect(all.locations.length).toBeGreaterThan(entries.length * 0.85);
    expect(all.locations.length).toBeLessThan(entries.length);
    expect(all.locations.at(-1)).toBe(`https://example.com/page-${all.locations.length - 1}`);
    const some = await readSitemap(body, 10 * mib, 50_000);
    expect(some.locations).toHaveLength(50_000);
  });

  it("stops a gzip bomb at the byte cap", async () => {
    const entry = "<url><loc>https://example.com/same</loc></url>";
    const xml = urlset(entry.repeat(Math.ceil((64 * mib) / entry.length)));
    const { locations } = await readSitemap(gzipSync(xml), 10 * mib, Number.MAX_SAFE_INTEGER);
    // 64 MiB inflated hold about 1.4 million entries; the first 10 MiB about 230,000.
    const fitting = Math.floor((10 * mib) / entry.length);
    expect(locations.length).toBeGreaterThan(fitting - 5);
    expect(locations.length).toBeLessThanOrEqual(fitting);
  });

  it.each([
    ["&;", "an empty entity reference"],
    ["\x01", "a control byte"],
    ["&lol9;", "an undeclared entity (billion laughs)"],
  ])("stops 10 MiB of %j (%s) at its first errors, in milliseconds of CPU", async (unit) => {
    // 25–81 s of CPU before the cap: the parser builds an Error for each malformed token.
    const laughs = `<!DOCTYPE urlset [<!ENTITY lol "lol">${Array.from({ length: 9 }, (_, level) => `<!ENTITY lol${level + 1} "${`&lol${level || ""};`.repeat(10)}">`).join("")}]>`;
    const head = `<?xml version="1.0"?>${unit === "&lol9;" ? laughs : ""}<urlset xmlns="${namespace}"><url><loc>https://example.com/kept</loc></url><url><loc>http://H/`;
    const body = Buffer.from(head + unit.repeat(Math.floor((10 * mib - head.length) / unit.length)));
    const { result, ms } = await cpuTimedAsync(() => readSitemap(body, 10 * mib, 50_000));
    expect(result.locations).toEqual(["https://example.com/kept"]);
    expect(ms).toBeLessThan(500);
  });

  it(`reads on past a few errors (fewer than ${maxErrors}), and stops at the ${maxErrors}th`, async () => {
    const entry = (i: number) => `<url>\x01<loc>https://example.com/${i}</loc></url>`;
    const few = await read(urlset(Array.from({ length: maxErrors - 1 }, (_, i) => entry(i)).join("")));
    expect(few.locations).toHaveLength(maxErrors - 1);
    const many = await read(urlset(Array.from({ length: maxErrors + 50 }, (_, i) => entry(i)).join("")));
    expect(many.locations).toHaveLength(maxErrors - 1);
  });

  it("stops reading a file that nests deeper than any sitemap, before the parser's stack grows", async () => {
    const deep = `${urlset("<url><loc>https://example.com/first</loc></url>").replace("</urlset>", "")}${"<a>".repeat(3 * mib)}`;
    const sitemap = await read(deep);
    expect(sitemap.locations).toEqual(["https://example.com/first"]);
  });
});

describe("SiteReader", () => {
  let server: LocalServer;
  let reader: SiteReader;

  beforeAll(async () => {
    server = await startServer({
      "/index.xml": (_request, response) => {
        response.writeHead(200, { "content-type": "application/xml" });
        response.end(
          `<sitemapindex xmlns="${namespace}"><sitemap><loc>${server.url}/pages.xml.gz</loc></sitemap></sitemapindex>`,
        );
      },
      "/pages.xml.gz": (_request, response) => {
        response.writeHead(200, { "content-type": "application/gzip" });
        response.end(
          gzipSync(
            urlset(
              `<url><loc>${server.url}/a?x=1&amp;y=2</loc></url><url><loc><![CDATA[${server.url}/b]]></loc></url>`,
            ),
          ),
        );
      },
    });
    const guard = new ConnectionGuard(
      new AddressPolicy({ allowPrivateNetworks: false, allowedRanges: ["127.0.0.1"] }),
      systemResolver,
    );
    reader = new SiteReader({ guard, extraCaCertificates: null, userAgent: "pagegrade-test" });
  });
  afterAll(async () => {
    await reader.close();
    await server.close();
  });

  it("follows a sitemap index to a gzipped sitemap over HTTP", async () => {
    expect(await reader.sitemapUrls([`${server.url}/index.xml`], 100)).toEqual([
      `${server.url}/a?x=1&y=2`,
      `${server.url}/b`,
    ]);
  });
});
