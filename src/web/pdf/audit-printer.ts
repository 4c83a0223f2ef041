/**
 * Crawls' audits as PDFs for both faces: the web's `/crawls/{id}/audit.pdf` and the API's
 * `/api/v1/crawls/{id}/audit.pdf`, each after its own access rules. The audit's contents (crawl-audits.ts) with
 * each issue's first 25 pages, printed as views/audit-print.ts lays them out by the report PDFs' printer (one
 * Chromium, one queue, the same refusals), under the owner's brand.
 */

import type { FastifyReply } from "fastify";
import { brandOwnerOf } from "../../branding/branding-store.js";
import type { Brandings } from "../../branding/brandings.js";
import type { CrawlAudits } from "../../crawls/crawl-audits.js";
import type { CrawlRow } from "../../crawls/crawl-store.js";
import { workspaceOf } from "../../store/owned-rows.js";
import { auditPrintDocument, auditPrintHeader, printedIssueItems } from "../views/audit-print.js";
import { printMargins, reportPrintFooter } from "../views/report-print.js";
import { printCss, sendPdf } from "./report-pdf.js";
import type { PrintOutcome, ReportPrinter } from "./report-printer.js";

export const crawlNotFinished = "The crawl has not finished; try again once its status is complete.";

export class AuditPrinter {
  constructor(
    private readonly printer: ReportPrinter,
    private readonly audits: CrawlAudits,
    private readonly brandings: Brandings,
  ) {}

  /**
   * The crawl's audit as a PDF. `beforePrinting` runs once there is something to print, before any work (the
   * callers charge their PDF quota there).
   */
  async print(crawl: CrawlRow, beforePrinting?: () => Promise<void>): Promise<PrintOutcome> {
    if (crawl.status === "queued" || crawl.status === "running")
      return { kind: "no-analysis", message: crawlNotFinished };
    await beforePrinting?.();
    const contents = await this.audits.contents(crawl);
    const lists = [];
    for (const fix of contents.fixes) {
      const first = { limit: printedIssueItems, offset: 0 };
      lists.push({ fix, list: await this.audits.issuePages(crawl.id, fix, first, contents.issues) });
    }
    const brand = await this.brandings.brandOf(brandOwnerOf(workspaceOf(crawl)));
    const view = { ...contents, lists, brand };
    return this.printer.printWith((renderer) =>
      renderer.render({
        html: auditPrintDocument(view, printCss()).value,
        headerTemplate: auditPrintHeader(view, brand.name).value,
        footerTemplate: reportPrintFooter().value,
        margin: printMargins,
      }),
    );
  }

  send(reply: FastifyReply, crawlId: number, pdf: Buffer): FastifyReply {
    return sendPdf(reply, `audit-${crawlId}.pdf`, pdf);
  }
}
