/**
 * The report as a printed document, for the PDF (src/web/pdf/): the report page's summary and findings in the
 * page's order (passed checks as a compact list) without navigation, forms, links or anything that would be
 * fetched, with its CSS inline; plus Chromium's header
 * (the report's URL and date) and footer (page numbers). Everything from the analysed page goes through the
 * html template, here and in the header, which Chromium also reads as HTML: page text stays text.
 */
import { type Brand, pagegradeBrand } from "../../branding/brandings.js";
import { html, type SafeHtml, trusted } from "../html.js";
import { categoryNames, findingSections } from "./report-findings.js";
import { bar, gauge, type ReportView, renderedCard, tally } from "./report-page.js";

/** "2026-11-24 09:30 UTC". */
function generatedAt(report: ReportView): string {
  return `${report.generated_at.slice(0, 16).replace("T", " ")} UTC`;
}

/** The whole document: our own CSS (read from disk by the caller) inline, no external reference at all. */
export function reportPrintDocument(
  report: ReportView,
  css: string,
  brand: Brand = pagegradeBrand,
): SafeHtml {
  const checks = Object.entries(report.results);
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>Report for ${report.url} · ${brand.name}</title>
<style>${trusted(css)}</style>
</head>
<body>
<article class="report">
  ${printedBrandLogo(brand)}
  <h1>Report for <span class="key">${report.url}</span></h1>
  ${report.final_url !== report.url ? html`<p class="muted">Redirected to <span class="key">${report.final_url}</span></p>` : ""}
  <div class="card summary">
    ${gauge(report.score, report.result)}
    <div class="bars">${Object.entries(report.categories).map(([category, score]) => bar(categoryNames[category] ?? category, score))}</div>
  </div>
  <p class="tally">${tally(checks.map(([, result]) => result.status))}</p>
  <p class="muted">Project ${report.project} · generated ${generatedAt(report)} · report ${report.id}</p>
  ${renderedCard(report, "")}
  ${findingSections(report.results, { print: true })}
</article>
</body>
</html>`;
}

/**
 * Chromium's header template: the report's URL and when it was generated, on every page. Inline styles are all
 * a template may have; its size must be set, Chromium's default is tiny.
 */
export function reportPrintHeader(report: ReportView, brand: Brand = pagegradeBrand): SafeHtml {
  return html`<div style="${templateStyle} display: flex; justify-content: space-between; gap: 6mm; align-items: flex-start;">
  <span style="word-break: break-all; max-height: 2.9em; overflow: hidden;">${report.url}</span>
  <span style="white-space: nowrap;">${brand.name} · ${generatedAt(report)}</span>
</div>`;
}

/** The owner's logo atop a printed document (a data: URL, so printing fetches nothing), or nothing. */
export function printedBrandLogo(brand: Brand): SafeHtml | "" {
  return brand.logoUrl
    ? html`<p class="print-brand"><img src="${brand.logoUrl}" alt="${brand.name}" height="40"></p>`
    : "";
}

/** Chromium's footer template: "Page 2 of 5" (Chromium fills in the numbers). */
export function reportPrintFooter(): SafeHtml {
  return html`<div style="${templateStyle} text-align: center;">
  Page <span class="pageNumber"></span> of <span class="totalPages"></span>
</div>`;
}

/** The page margins the header and footer are drawn in; they match @page in print.css. */
export const printMargins = { top: "20mm", right: "14mm", bottom: "16mm", left: "14mm" };

/** The inline style of Chromium's header and footer templates (a template may have no other). */
export const templateStyle = trusted(
  "width: 100%; box-sizing: border-box; padding: 0 14mm; font-size: 8pt; color: #5b6474; font-family: 'Noto Sans', 'Noto Sans CJK JP', 'Noto Sans Arabic', sans-serif;",
);
