/**
 * A report as a PDF: the print view (views/report-print.ts) with pagegrade's own CSS read from disk, printed by
 * the PdfRenderer. The API (/api/v1/reports/{id}/pdf) and the web page (/reports/{id}.pdf) both come here
 * through the ReportPrinter (report-printer.ts) after their own access rules, and send the result with the
 * same headers.
 */
import { readFileSync } from "node:fs";
import type { FastifyReply } from "fastify";
import type { Brand } from "../../branding/brandings.js";
import type { ReportView } from "../views/report-page.js";
import {
  printMargins,
  reportPrintDocument,
  reportPrintFooter,
  reportPrintHeader,
} from "../views/report-print.js";
import type { PdfRenderer } from "./pdf-renderer.js";

const assets = new URL("../assets/", import.meta.url);
let css: string | null = null;

/** app.css then print.css, read once. */
export function printCss(): string {
  css ??= ["app.css", "print.css"].map((name) => readFileSync(new URL(name, assets), "utf8")).join("\n");
  return css;
}

export function reportPdf(renderer: PdfRenderer, report: ReportView, brand?: Brand): Promise<Buffer> {
  return renderer.render({
    html: reportPrintDocument(report, printCss(), brand).value,
    headerTemplate: reportPrintHeader(report, brand).value,
    footerTemplate: reportPrintFooter().value,
    margin: printMargins,
  });
}

/** Sends the PDF as a download with this file name ("report-7.pdf"). */
export function sendPdf(reply: FastifyReply, fileName: string, pdf: Buffer): FastifyReply {
  return reply
    .code(200)
    .type("application/pdf")
    .header("content-disposition", `attachment; filename="${fileName}"`)
    .header("cache-control", "no-store")
    .header("x-content-type-options", "nosniff")
    .send(pdf);
}

/** What a client is told when no PDF can be made; never a library's text. */
export function pdfUnavailableMessage(problem: string): string {
  return `This server cannot make PDFs: ${problem}.`;
}
export const pdfBusyMessage = "Too many PDFs are being made right now; try again in a few seconds.";

/** A report stored asynchronously has nothing to print until its first analysis completes. */
export const noAnalysisYet =
  "The report has no complete analysis yet; try again once its status is complete.";
