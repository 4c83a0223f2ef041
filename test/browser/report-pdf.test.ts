/**
 * Reports as PDF, end to end: the API's /api/v1/reports/{id}/pdf and the web's /reports/{id}.pdf on a real
 * service, printed by Debian's Chromium, read back with poppler's pdftotext. What the PDF must hold (URL, date,
 * page numbers, findings, non-Latin titles drawn with Noto fonts, markup as text), that printing makes no
 * request at all, the report page's access rules, and the answer of a server without Chromium.
 */
import { readFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { catalogue } from "../../src/analysis/catalogue.js";
import { categoryNames } from "../../src/analysis/checks/check.js";
import { PdfBusy, PdfRenderer, PdfTimeout } from "../../src/web/pdf/pdf-renderer.js";
import { call, startApi, type TestApi } from "../helpers/api.js";
import { chromiumPath, launchBrowser, withScreenshot } from "../helpers/browser.js";
import { html, type LocalServer, startServer } from "../helpers/local-server.js";
import { fontsDrawing, pdfPages } from "../helpers/pdf.js";

const password = "correct horse battery";
const statusNames: Record<string, string> = { fail: "Failed", warn: "Warning" };
const titles = new Map(catalogue.map((entry) => [entry.id, entry]));

interface ReportJson {
  id: number;
  url: string;
  generated_at: string;
  results: Record<string, { status: string; importance: string; message: string; category: string }>;
}

describe("reports as PDF", () => {
  let canary: LocalServer;
  let site: LocalServer;
  let api: TestApi;
  let serviceUrl: string;
  let browser: Browser;
  let ownerKey: string;
  let otherKey: string;
  let report: ReportJson;

  beforeAll(async () => {
    // Anything that reaches the canary proves a request left the printer.
    canary = await startServer({}, { fallback: (_request, response) => response.end("canary") });
    site = await startServer({
      "/": html(
        `<!doctype html><html lang="en"><head>
<title><script>alert(1)</script> markup in a title</title>
<title>日本語のタイトル · Привет, мир · مرحبا بالعالم</title>
</head><body><h1>Bicycle repair</h1><p>Tools and parts for repairing bicycles at home.</p>
<img src="${canary.url}/evidence.png"></body></html>`,
      ),
    });
    api = await startApi("sqlite");
    await api.app.listen({ host: "127.0.0.1", port: 0 });
    serviceUrl = `http://127.0.0.1:${(api.app.server.address() as AddressInfo).port}`;
    ownerKey = (await api.accounts.createUser("owner@example.com", password)).key;
    otherKey = (await api.accounts.createUser("other@example.com", password)).key;
    const created = await call(api, "POST", "/api/v1/reports", {
      key: ownerKey,
      form: { url: `${site.url}/`, privacy: "1" },
    });
    expect(created.statusCode, created.body).toBe(201);
    report = (JSON.parse(created.body) as { data: ReportJson }).data;
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await api?.close();
    await site?.close();
    await canary?.close();
  });

  const pdfOf = async (key: string) => {
    const response = await call(api, "GET", `/api/v1/reports/${report.id}/pdf`, { key });
    return response;
  };

  it("prints the URL and date on every page, page numbers, every finding whole, titles in any script as text", async () => {
    const response = await pdfOf(ownerKey);
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("application/pdf");
    expect(response.headers["content-disposition"]).toBe(`attachment; filename="report-${report.id}.pdf"`);
    const pdf = response.rawPayload;
    expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");

    const pages = pdfPages(pdf);
    const all = pages.join(" ");
    expect(pages.length).toBeGreaterThan(1);
    const date = `${report.generated_at.slice(0, 16).replace("T", " ")} UTC`;
    pages.forEach((page, index) => {
      expect(page).toContain(report.url);
      expect(page).toContain(date);
      expect(page).toContain(`Page ${index + 1} of ${pages.length}`);
    });

    // Every failed or warned finding is there, its heading on the same page as its fix.
    const findings = Object.entries(report.results).filter(([, result]) => result.status in statusNames);
    expect(findings.length).toBeGreaterThan(3);
    for (const [id, result] of findings) {
      const entry = titles.get(id);
      // The heading names the check (its category, importance and id follow as secondary labels).
      const heading = `${statusNames[result.status]} ${entry?.title ?? id}`;
      const page = pages.findIndex((text) => text.includes(heading));
      expect(page, heading).toBeGreaterThanOrEqual(0);
      const fix = `How to fix: ${entry?.how_to_fix.normalize("NFKC").replace(/\s+/g, " ").slice(0, 50)}`;
      expect(pages[page], `${heading} is cut from its fix`).toContain(fix);
      expect(pages[page], `${heading}'s category`).toContain(categoryNames[result.category] as string);
    }

    // Page text stays text: a title's markup prints as the characters it is made of.
    expect(all).toContain("<script>alert(1)</script> markup in a title");
    // Non-Latin titles print as text, drawn by Noto fonts (not boxes of a font without the glyphs).
    expect(all).toContain("日本語のタイトル · Привет, мир ·");
    expect(all).toContain("مرحبا");
    expect(all).toContain("بالعالم");
    const drawnBy = (character: string, font: RegExp) => {
      const fonts = fontsDrawing(pdf, character);
      expect(fonts.length, character).toBeGreaterThan(0);
      for (const name of fonts) expect(name, character).toMatch(font);
    };
    drawnBy("語", /^NotoSans(Mono)?CJK/);
    drawnBy("П", /^NotoSans/);
    drawnBy("ع", /^NotoSans(Mono)?(Arabic|CJK)/);

    // The image in the evidence is text too: nothing reached the canary it names.
    expect(all).toContain(`${canary.url}/evidence.png`);
    expect(canary.connections).toBe(0);
  });

  it("makes no request and runs no script, whatever the printed document holds", async () => {
    const renderer = new PdfRenderer({ executablePath: chromiumPath, sandbox: false, maxConcurrent: 1 });
    try {
      expect(renderer.launches).toBe(0);
      const target = `${canary.url}/fetched`;
      const document = `<!doctype html><html><head><meta charset="utf-8">
<link rel="stylesheet" href="${target}/style.css"><link rel="preconnect" href="${target}">
<link rel="prefetch" href="${target}/prefetch"><link rel="icon" href="${target}/icon.png">
<style>@font-face { font-family: Remote; src: url(${target}/font.woff2); }
body { font-family: Remote, sans-serif; background: url(${target}/background.png); }</style>
</head><body><p>The inert body.</p>
<img src="${target}/image.png"><img srcset="${target}/srcset.png 2x">
<iframe src="${target}/frame"></iframe><object data="${target}/object"></object>
<video poster="${target}/poster.png" src="${target}/video.mp4"></video><audio src="${target}/audio.mp3" autoplay></audio>
<svg><image href="${target}/svg.png" width="10" height="10"/></svg>
<script>document.body.textContent = "SCRIPT RAN"; fetch("${target}/fetch");</script>
<script src="${target}/script.js"></script>
</body></html>`;
      const pdf = await renderer.render({
        html: document,
        headerTemplate: `<div style="font-size: 8pt"><img src="${target}/header.png"> header</div>`,
        footerTemplate: `<div style="font-size: 8pt">Page <span class="pageNumber"></span></div>`,
        margin: { top: "20mm", right: "10mm", bottom: "16mm", left: "10mm" },
      });
      const text = pdfPages(pdf).join(" ");
      expect(text).toContain("The inert body.");
      expect(text).not.toContain("SCRIPT RAN");
      // A refresh navigates away (to an error page: the print is blank, or fails when the navigation lands
      // mid-print) but reaches nothing either. The print view never holds one: its markup is all ours.
      await renderer
        .render({
          html: `<meta http-equiv="refresh" content="0; url=${target}/refresh"><link rel="stylesheet" href="${target}/late.css"><p>refresh</p>`,
          headerTemplate: "<span></span>",
          footerTemplate: "<span></span>",
          margin: { top: "10mm", right: "10mm", bottom: "10mm", left: "10mm" },
        })
        .catch((error: unknown) => expect(String(error)).toContain("Printing failed"));
      expect(canary.connections).toBe(0);
      expect(canary.requests).toEqual([]);

      // One browser, started on first use, shared by the PDFs after it; the same document is not printed twice.
      await renderer.render({
        html: "<p>second</p>",
        headerTemplate: "<span></span>",
        footerTemplate: "<span></span>",
        margin: { top: "10mm", right: "10mm", bottom: "10mm", left: "10mm" },
      });
      await renderer.render({
        html: "<p>second</p>",
        headerTemplate: "<span></span>",
        footerTemplate: "<span></span>",
        margin: { top: "10mm", right: "10mm", bottom: "10mm", left: "10mm" },
      });
      expect(renderer.launches).toBe(1);
      expect(renderer.prints).toBe(3);
    } finally {
      await renderer.close();
    }
  });

  it("closes an idle browser and starts another for the next PDF", async () => {
    const renderer = new PdfRenderer({
      executablePath: chromiumPath,
      sandbox: false,
      maxConcurrent: 1,
      idleMs: 100,
    });
    const document = (text: string) => ({
      html: `<p>${text}</p>`,
      headerTemplate: "<span></span>",
      footerTemplate: "<span></span>",
      margin: { top: "10mm", right: "10mm", bottom: "10mm", left: "10mm" },
    });
    try {
      await renderer.render(document("first"));
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(pdfPages(await renderer.render(document("after a pause")))).toEqual(["after a pause"]);
      expect(renderer.launches).toBe(2);
    } finally {
      await renderer.close();
    }
  });

  it("bounds PDFs at once: a full queue is busy, a late one times out", async () => {
    const page = (text: string) => ({
      html: `<p>${text}</p>`,
      headerTemplate: "<span></span>",
      footerTemplate: "<span></span>",
      margin: { top: "10mm", right: "10mm", bottom: "10mm", left: "10mm" },
    });
    const busy = new PdfRenderer({
      executablePath: chromiumPath,
      sandbox: false,
      maxConcurrent: 1,
      maxWaiting: 0,
    });
    try {
      const results = await Promise.allSettled([busy.render(page("one")), busy.render(page("two"))]);
      expect(results[0]?.status).toBe("fulfilled");
      expect(results[1]?.status === "rejected" && results[1].reason).toBeInstanceOf(PdfBusy);
    } finally {
      await busy.close();
    }
    const hurried = new PdfRenderer({
      executablePath: chromiumPath,
      sandbox: false,
      maxConcurrent: 1,
      deadlineMs: 1,
    });
    try {
      await expect(hurried.render(page("late"))).rejects.toBeInstanceOf(PdfTimeout);
    } finally {
      await hurried.close();
    }
  });

  it("follows the report page's rules: owner only when private, the password's cookie, anyone when public", async () => {
    const pdfPath = `/reports/${report.id}.pdf`;
    const reportPath = `/reports/${report.id}`;
    const contexts: BrowserContext[] = [];
    const open = async () => {
      const context = await browser.newContext({ acceptDownloads: true });
      contexts.push(context);
      return { context, page: await context.newPage() };
    };
    const logIn = async (page: Page, email: string) => {
      await page.goto(`${serviceUrl}/login`);
      await page.fill("#email", email);
      await page.fill("#password", password);
      await page.getByRole("button", { name: "Log in" }).click();
      await page.waitForURL(`${serviceUrl}/reports`);
    };
    const download = async (page: Page) => {
      const [file] = await Promise.all([
        page.waitForEvent("download"),
        page.getByRole("link", { name: "Download PDF" }).click(),
      ]);
      return { name: file.suggestedFilename(), bytes: readFileSync(await file.path()) };
    };
    try {
      const owner = await open();
      await withScreenshot(owner.page, "pdf-access", async () => {
        // Private: the owner downloads it from the report page; another user and a visitor get the 404 page.
        await logIn(owner.page, "owner@example.com");
        await owner.page.goto(`${serviceUrl}${reportPath}`);
        const mine = await download(owner.page);
        expect(mine.name).toBe(`report-${report.id}.pdf`);
        expect(mine.bytes.subarray(0, 5).toString()).toBe("%PDF-");

        const other = await open();
        await logIn(other.page, "other@example.com");
        const denied = await other.context.request.get(`${serviceUrl}${pdfPath}`);
        expect(denied.status()).toBe(404);
        expect(denied.headers()["content-type"]).toContain("text/html");
        const anonymous = await open();
        expect((await anonymous.context.request.get(`${serviceUrl}${pdfPath}`)).status()).toBe(404);
        expect((await pdfOf(otherKey)).statusCode).toBe(404);

        // Password: the form until the visitor unlocks the report, then the PDF (its cookie covers the PDF's path).
        const protect = await call(api, "PATCH", `/api/v1/reports/${report.id}`, {
          key: ownerKey,
          form: { privacy: "2", password: "pdf secret" },
        });
        expect(protect.statusCode).toBe(200);
        const visitor = await open();
        const locked = await visitor.context.request.get(`${serviceUrl}${pdfPath}`);
        expect(locked.status()).toBe(200);
        expect(locked.headers()["content-type"]).toContain("text/html");
        expect(await locked.text()).toContain("This report is protected");
        await visitor.page.goto(`${serviceUrl}${reportPath}`);
        await visitor.page.fill("#password", "pdf secret");
        await visitor.page.getByRole("button", { name: "Open the report" }).click();
        await visitor.page.getByRole("link", { name: "Download PDF" }).waitFor();
        const unlocked = await download(visitor.page);
        expect(unlocked.bytes.subarray(0, 5).toString()).toBe("%PDF-");
        const fetched = await visitor.context.request.get(`${serviceUrl}${pdfPath}`);
        expect(fetched.headers()["content-type"]).toBe("application/pdf");
        expect(fetched.headers()["x-robots-tag"]).toBe("noindex");
        // A new password revokes the cookie for the PDF as for the page.
        await call(api, "PATCH", `/api/v1/reports/${report.id}`, {
          key: ownerKey,
          form: { privacy: "2", password: "another secret" },
        });
        const revoked = await visitor.context.request.get(`${serviceUrl}${pdfPath}`);
        expect(revoked.headers()["content-type"]).toContain("text/html");

        // Public: anyone.
        await call(api, "PATCH", `/api/v1/reports/${report.id}`, { key: ownerKey, form: { privacy: "0" } });
        const everyone = await anonymous.context.request.get(`${serviceUrl}${pdfPath}`);
        expect(everyone.status()).toBe(200);
        expect(everyone.headers()["content-type"]).toBe("application/pdf");
        expect(everyone.headers()["content-disposition"]).toBe(
          `attachment; filename="report-${report.id}.pdf"`,
        );
        await call(api, "PATCH", `/api/v1/reports/${report.id}`, { key: ownerKey, form: { privacy: "1" } });
      });
      expect(canary.connections).toBe(0);
    } finally {
      for (const context of contexts) await context.close();
    }
  });

  it("answers clearly on a server without Chromium, and the report page still works", async () => {
    const bare = await startApi("sqlite", { PAGEGRADE_CHROMIUM_PATH: "/nonexistent" });
    try {
      const key = await bare.newUser();
      const created = await call(bare, "POST", "/api/v1/reports", {
        key,
        form: { url: `${site.url}/`, privacy: "0" },
      });
      const id = (JSON.parse(created.body) as { data: { id: number } }).data.id;
      const response = await call(bare, "GET", `/api/v1/reports/${id}/pdf`, { key });
      expect(response.statusCode).toBe(503);
      expect(response.headers["content-type"]).toContain("application/problem+json");
      const problem = JSON.parse(response.body) as { message: string };
      expect(problem.message).toContain("no Chromium");
      expect(problem.message).toContain("PAGEGRADE_CHROMIUM_PATH");
      expect(response.body).not.toContain("/nonexistent");
      // Someone else's report is still simply not there.
      expect(
        (await call(bare, "GET", `/api/v1/reports/${id}/pdf`, { key: await bare.newUser() })).statusCode,
      ).toBe(404);

      const page = await bare.app.inject({ method: "GET", url: `/reports/${id}.pdf` });
      expect(page.statusCode).toBe(503);
      expect(page.headers["content-type"]).toContain("text/html");
      expect(page.body).toContain("This server cannot make PDFs: there is no Chromium");
      expect((await bare.app.inject({ method: "GET", url: `/reports/${id}` })).statusCode).toBe(200);
    } finally {
      await bare.close();
    }
  });
});
