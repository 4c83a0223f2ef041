/**
 * Regular expressions (and the scans that replaced them) on fetched content and user input, each given the
 * worst input of the largest size the service accepts for it, and held to 50 ms of processor time per scan. Every row
 * names the input that made the old expression backtrack super-linearly (figures measured before the fix).
 *
 * | Where                                 | Sees                        | Worst input (largest accepted)                    | Before  |
 * | ------------------------------------- | --------------------------- | ------------------------------------------------- | ------- |
 * | robots-txt.ts comment strip `#.*$`    | robots.txt (500 KiB)        | a line of "#"s ending in U+2028                   | 0.4 s at 20 KiB, quadratic |
 * | path-pattern.ts rule matching         | robots.txt rules, crawl include/exclude | "/*a*a…*b" against 8 KiB of "a"s      | seconds per crawler |
 * | sitemap-xml.ts `<loc>` reading        | sitemaps (10 MiB)           | `<loc>` then spaces and no closing tag            | 53 s at 4,000 spaces, cubic |
 * | srcset.ts trailing commas `,+$`       | srcset attributes (5 MiB page) | "a", a run of commas, "a,"                     | 2.8 s at 64 KiB, quadratic |
 * | server-signature.ts `\d+\.\d+`        | Server, X-Powered-By (16 KiB headers) | a run of digits                         | 0.2 s, quadratic |
 * | link-header.ts `<([^>]*)>`            | Link header (16 KiB)        | a run of "<"                                      | 0.14 s, quadratic |
 * | account-service.ts e-mail shape       | sign-up form and API (16 KiB body) | "a@", dots, "@"                            | 0.2 s, quadratic |
 * | plaintext-email.ts address pattern    | page text (5 MiB page)      | near-addresses: 64 letters, "@", "a." × 127, "1"  | 0.24 ms per one, seconds a page |
 * | value-kinds.ts date, time, number, duration, URL | structured data values (1 MiB of JSON-LD) | a 1 MiB run of digits after the pattern's prefix, then a stray letter | new, linear |
 * | structured-data and rich-results checks | JSON-LD (1 MiB) | 1 MiB of items with misspelt property names | new: suggestions capped |
 */
import { describe, expect, it } from "vitest";
import { isEmailAddress } from "../../src/accounts/account-service.js";
import { plaintextEmail } from "../../src/analysis/checks/plaintext-email.js";
import { richResults } from "../../src/analysis/checks/rich-results.js";
import { serverSignature } from "../../src/analysis/checks/server-signature.js";
import { structuredData } from "../../src/analysis/checks/structured-data.js";
import { parseLinkHeader } from "../../src/analysis/link-header.js";
import { isAllowed, parseRobotsTxt, robotsTxtMaxBytes } from "../../src/analysis/robots/robots-txt.js";
import { parseSrcset } from "../../src/analysis/srcset.js";
import {
  isDateOrDateTime,
  isDuration,
  isNumber,
  isTime,
  isUrl,
} from "../../src/analysis/structured-data/value-kinds.js";
import { readSitemap } from "../../src/crawls/sitemap-xml.js";
import { cpuTimed, cpuTimedAsync } from "../helpers/cpu-time.js";
import { pageFrom, run } from "../helpers/page.js";

const boundMs = 50;
const maxPageBytes = 5 * 1024 * 1024;
/** Node's (and so undici's) limit on a response's header section. */
const maxHeaderBytes = 16 * 1024;
/** Fastify's body limit for the API and the web forms (src/app.ts). */
const maxRequestBody = 16 * 1024;

// Inputs are built outside the timed work.
const commaRun = `a${",".repeat(maxPageBytes - 10)}a, b 2x`;
const commentLine = `User-agent: *\n${"#".repeat(robotsTxtMaxBytes - 20)}\u2028`;
const digitRun = "1".repeat(maxHeaderBytes - 10);
/** The most JSON-LD a page may make the reader parse (structuredDataLimits.jsonLdChars). */
const maxJsonLd = 1024 * 1024;
const jsonLdDigits = "1".repeat(maxJsonLd - 40);
const misspeltItems = (() => {
  const item = '{"@type":"Prodcut","nmae":"x","offerz":{"@type":"Ofer","prise":"$1"},"datePublised":"soon"},';
  const body = item.repeat(Math.floor((maxJsonLd - 100) / item.length)).slice(0, -1);
  return `<script type="application/ld+json">{"@context":"https://schema.org","@graph":[${body}]}</script>`;
})();

/** Each row: what is audited, the timed work, the check of its result, and its bound when not `boundMs`. */
const synchronous: Array<[string, () => unknown, (result: never) => void, number?]> = [
  [
    "robots.txt comment stripping",
    () => parseRobotsTxt(commentLine),
    (robots: ReturnType<typeof parseRobotsTxt>) => expect(robots.groups[0]?.rules).toEqual([]),
  ],
  [
    "robots.txt rule matching",
    () =>
      isAllowed(
        parseRobotsTxt(`User-agent: *\nDisallow: /${"*a".repeat(4000)}*b\n`),
        "Googlebot",
        new URL(`https://example.com/${"a".repeat(8192)}`),
      ),
    (allowed: boolean) => expect(allowed).toBe(true),
  ],
  [
    "srcset trailing commas",
    () => parseSrcset(commaRun),
    (urls: string[]) => expect(urls).toHaveLength(2),
    // One 5 MiB candidate list: a linear pass took 45–76 ms of processor time on a slow 2-core machine, so it is
    // held to 250 ms; a super-linear trim would take minutes on it.
    boundMs * 5,
  ],
  [
    "Server header version",
    () =>
      run(
        serverSignature,

        pageFrom("<title>x</title>", { headers: { server: digitRun } }),
      ),
    (result: { status: string }) => expect(result.status).toBe("pass"),
  ],
  [
    "Link header targets",
    () => parseLinkHeader("<".repeat(maxHeaderBytes - 10)),
    (links: unknown[]) => expect(links).toEqual([]),
  ],
  [
    "Link header parameters",
    () => parseLinkHeader(`<https://example.com/>${'; a="'.repeat((maxHeaderBytes - 30) / 5)}`),
    (links: unknown[]) => expect(links).toHaveLength(1),
  ],
  [
    "sign-up e-mail address",
    () => isEmailAddress(`a@${".".repeat(maxRequestBody - 10)}@`),
    (valid: boolean) => expect(valid).toBe(false),
  ],
  [
    "structured data value kinds",
    () => [
      isDateOrDateTime(`2024-01-01T10:00:00.${jsonLdDigits}x`),
      isTime(`10:00:00.${jsonLdDigits}x`),
      isNumber(`${jsonLdDigits}.1e${jsonLdDigits}x`),
      isDuration(`P${jsonLdDigits}Y${jsonLdDigits}x`),
      isUrl(`https://example.com/${jsonLdDigits} x`),
    ],
    (kinds: boolean[]) => expect(kinds).toEqual([false, false, false, false, false]),
    // Five scans of 1 MiB each, linear (61 ms of processor time on a slow 2-core machine): 50 ms each. A
    // super-linear pattern on 1 MiB would take minutes.
    boundMs * 5,
  ],
];

describe("regular expressions on hostile input of the largest accepted size", () => {
  it.each(synchronous)("%s", (_site, work, check, bound = boundMs) => {
    const { result, ms } = cpuTimed(work);
    check(result as never);
    expect(ms).toBeLessThan(bound);
  });

  it("plaintext-email on a page of near-addresses", () => {
    const nearAddress = `${"a".repeat(64)}@${"a.".repeat(127)}1 `;
    const page = pageFrom("<title>x</title>");
    const text = nearAddress.repeat(Math.floor(maxPageBytes / nearAddress.length));
    const { result, ms } = cpuTimed(() =>
      run(plaintextEmail, { ...page, document: { ...page.document, text } }),
    );
    expect(result.status).toBe("pass");
    // A page's text is at most the page: 5 MiB of near-addresses is 16,000 windows; a few ms each was seconds.
    expect(ms).toBeLessThan(boundMs * 10);
  });

  it("structured-data and rich-results on 1 MiB of misspelt JSON-LD items", () => {
    const page = pageFrom(misspeltItems);
    const { result, ms } = cpuTimed(() => [run(structuredData, page), run(richResults, page)]);
    expect(result[0]?.status).toBe("warn");
    expect(result[1]?.status).toBe("na");
    // The reading (JSON.parse of 1 MiB and 1,000 items) is the parse's; the judging is held to the bound.
    expect(ms).toBeLessThan(boundMs * 2);
  });

  it("sitemap <loc> followed by 4,000 spaces and no closing tag", async () => {
    const xml = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${" ".repeat(4000)}`;
    const { result, ms } = await cpuTimedAsync(() => readSitemap(Buffer.from(xml), 10 * 1024 * 1024, 1000));
    expect(result.locations).toEqual([]);
    expect(ms).toBeLessThan(boundMs);
  });
});
