/**
 * A crawl's audit as a PDF, end to end: the API's /api/v1/crawls/{id}/audit.pdf and the web's
 * /crawls/{id}/audit.pdf on a real service, printed by Debian's Chromium and read back with poppler's pdftotext:
 * the cover (site, date, score), the contents, the fix-first list, an issue cut to its first 25 pages with its
 * complete count, page numbers; the audit's access rules on the web and the owner's on the API; the owner's brand
 * on audit and report PDFs.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, startApi, type TestApi } from "../helpers/api.js";
import { endedCrawl } from "../helpers/crawl-api.js";
import { html, type LocalServer, startServer } from "../helpers/local-server.js";
import { setBranding } from "../helpers/multipart.js";
import { pdfPages } from "../helpers/pdf.js";
import { WebClient } from "../helpers/web-client.js";

/** Pages without a meta description or alt text, so their checks fail on all 31 pages. */
const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1><p>${"Bicycle repair and spare parts for every kind of bicycle. ".repeat(8)}</p><img src="/wheel.png" width="10" height="10">${body}</body></html>`;

describe("a crawl's audit as PDF", () => {
  let site: LocalServer;
  let api: TestApi;
  let ownerKey: string;
  let otherKey: string;
  let crawlId: number;

  beforeAll(async () => {
    const links = Array.from({ length: 30 }, (_, index) => `<a href="/p/${index}">Part ${index}</a>`).join(
      " ",
    );
    site = await startServer(
      {
        "/": html(page("Home of the bicycle repair shop", links)),
        "/wheel.png": (_request: IncomingMessage, response: ServerResponse) => {
          response.writeHead(200, { "content-type": "image/png" });
          response.end(Buffer.alloc(16));
        },
      },
      {
        fallback: (request, response) => {
          response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
          response.end(page(`Spare part number ${request.url?.split("/").pop()}`, '<a href="/">Home</a>'));
        },
      },
    );
    api = await startApi("sqlite", { PAGEGRADE_CRAWL_DELAY_MS: "0" });
    ownerKey = (await api.accounts.createUser("agency@example.com", "correct horse battery")).key;
    otherKey = (await api.accounts.createUser("other@example.com", "correct horse battery")).key;
    const started = await call(api, "POST", "/api/v1/crawls", {
      key: ownerKey,
      form: { url: `${site.url}/`, sitemaps: "0" },
    });
    expect(started.statusCode).toBe(202);
    crawlId = started.json().data.id;
    const ended = await endedCrawl(api, ownerKey, crawlId, 90_000);
    expect(ended.status).toBe("complete");
    expect(ended.pages.analysed).toBe(31);
  }, 120_000);
  afterAll(async () => {
    await api?.close();
    await site?.close();
  });

  it("prints a cover, the contents, fix first and each issue's first 25 pages with its count", async () => {
    const answer = await call(api, "GET", `/api/v1/crawls/${crawlId}/audit.pdf`, { key: ownerKey });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers["content-type"]).toBe("application/pdf");
    expect(answer.headers["content-disposition"]).toBe(`attachment; filename="audit-${crawlId}.pdf"`);
    const pages = pdfPages(answer.rawPayload);
    expect(pages.length).toBeGreaterThan(3);
    const crawl = (await call(api, "GET", `/api/v1/crawls/${crawlId}`, { key: ownerKey })).json().data;
    const cover = pages[0] as string;
    expect(cover).toContain("Site audit of 127.0.0.1");
    expect(cover).toContain(`Site score ${crawl.score}`);
    expect(cover).toContain(`Crawled ${String(crawl.finished_at).slice(0, 10)}`);
    expect(cover).toContain(`${site.url}/`);
    expect(cover).toContain(`Page 1 of ${pages.length}`);
    expect(pages[1]).toContain("Contents");
    const all = pages.join("\n");
    // The fix-first list, in the API's ranking.
    const fixes = (await call(api, "GET", `/api/v1/crawls/${crawlId}/fix-first`, { key: ownerKey })).json()
      .data;
    const fixFirstPage = pages.find((text) =>
      text.includes("Fix first Page checks and site issues"),
    ) as string;
    expect(fixFirstPage).toBeDefined();
    let at = 0;
    for (const fix of fixes.slice(0, 5)) {
      const found = fixFirstPage.indexOf(fix.title, at);
      expect(found, fix.title).toBeGreaterThan(-1);
      at = found;
    }
    // The alt text check failed on all 31 pages: 25 listed, the count complete.
    expect(all).toContain("The first 25 of 31 are listed.");
    expect(all).toContain(`${site.url}/p/0`);
    for (const [index, text] of pages.entries())
      expect(text).toContain(`Page ${index + 1} of ${pages.length}`);
  });

  it("is the owner's on the API, and follows the audit's privacy on the web", async () => {
    expect(
      (await call(api, "GET", `/api/v1/crawls/${crawlId}/audit.pdf`, { key: otherKey })).statusCode,
    ).toBe(404);
    const visitor = new WebClient(api.app, "10.0.1.1");
    expect((await visitor.get(`/crawls/${crawlId}/audit.pdf`)).statusCode).toBe(404);
    await call(api, "PATCH", `/api/v1/crawls/${crawlId}`, {
      key: ownerKey,
      json: { privacy: 2, password: "for the client" },
    });
    expect((await visitor.get(`/crawls/${crawlId}/audit.pdf`)).body).toContain("This audit is protected");
    const audit = await visitor.post(`/crawls/${crawlId}/audit/unlock`, { password: "for the client" });
    expect(audit.statusCode).toBe(303);
    expect((await visitor.get(`/crawls/${crawlId}/audit`)).body).toContain(
      `href="/crawls/${crawlId}/audit.pdf"`,
    );
    const pdf = await visitor.get(`/crawls/${crawlId}/audit.pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers["content-type"]).toBe("application/pdf");
    expect(pdfPages(pdf.rawPayload)[0]).toContain("Site audit of 127.0.0.1");
  });

  it("prints the owner's brand on the audit's cover and header and on report PDFs", async () => {
    const set = await setBranding(api.app, ownerKey, "Acme Web Agency");
    expect(set.statusCode).toBe(200);
    const audit = await call(api, "GET", `/api/v1/crawls/${crawlId}/audit.pdf`, { key: ownerKey });
    const pages = pdfPages(audit.rawPayload);
    expect(pages[0]).toContain("Acme Web Agency");
    for (const text of pages) expect(text).not.toContain("pagegrade");
    const report = await call(api, "POST", "/api/v1/reports", {
      key: ownerKey,
      form: { url: `${site.url}/` },
    });
    expect(report.statusCode).toBe(201);
    const reportPdf = await call(api, "GET", `/api/v1/reports/${report.json().data.id}/pdf`, {
      key: ownerKey,
    });
    expect(reportPdf.statusCode).toBe(200);
    const reportPages = pdfPages(reportPdf.rawPayload);
    expect(reportPages[0]).toContain("Acme Web Agency ·");
    for (const text of reportPages) expect(text).not.toContain("pagegrade ·");
  });
});
