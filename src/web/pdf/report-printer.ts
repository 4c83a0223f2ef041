/**
 * Reports as PDFs for both faces: the web's `/reports/{id}.pdf` and, handed over by app.ts, the API's
 * `/api/v1/reports/{id}/pdf`. It answers what happened (the PDF, or why there is none) and each face says it
 * in its own form (a page or a problem object). The PdfRenderer, and with it playwright-core, is loaded on the
 * first PDF: a process that never prints never loads the browser driver.
 */

import type { FastifyReply } from "fastify";
import { ChromiumUnavailable } from "../../analysis/render/render-errors.js";
import { type Brand, pagegradeBrand } from "../../branding/brandings.js";
import { type WorkspaceScope, workspaceOf } from "../../store/owned-rows.js";
import type { DisplayRow } from "../../store/report-store.js";
import { reportView } from "../report-view.js";
import type { PdfRenderer, PdfRendererOptions } from "./pdf-renderer.js";
import { noAnalysisYet, pdfBusyMessage, pdfUnavailableMessage, reportPdf, sendPdf } from "./report-pdf.js";

/** What became of a request for a report's PDF; every message is ours, never a library's. */
export type PrintOutcome =
  | { kind: "pdf"; pdf: Buffer }
  /** The report has no complete analysis yet, the crawl has not finished (409). */
  | { kind: "no-analysis"; message: string }
  /** Chromium does not start here (503). */
  | { kind: "unavailable"; message: string }
  /** Too many PDFs at once, or one past its deadline (503, retry in `retryAfterSeconds`). */
  | { kind: "busy"; message: string; retryAfterSeconds: number };

export class ReportPrinter {
  private renderer: Promise<{ renderer: PdfRenderer; module: typeof import("./pdf-renderer.js") }> | null =
    null;
  private closed = false;

  constructor(
    private readonly options: PdfRendererOptions,
    /** The brand a user's PDFs show (pagegrade's by default). */
    private readonly brandOf: (workspace: WorkspaceScope) => Promise<Brand> = async () => pagegradeBrand,
  ) {}

  /**
   * The report's PDF. `beforePrinting` runs once the report has something to print and before any work
   * (the web charges its quota there, so a report without an analysis costs nothing).
   */
  async print(
    row: Parameters<typeof reportView>[0] & { user_id: number; team_id?: number | null },
    beforePrinting?: () => Promise<void>,
  ): Promise<PrintOutcome> {
    const view = reportView(row);
    if (!view) return { kind: "no-analysis", message: noAnalysisYet };
    await beforePrinting?.();
    const brand = await this.brandOf(workspaceOf(row));
    return this.printWith((renderer) => reportPdf(renderer, view, brand));
  }

  /**
   * Prints with the renderer (a report, a crawl's audit), telling Chromium's absence and a full or late queue
   * apart from the PDF.
   */
  async printWith(print: (renderer: PdfRenderer) => Promise<Buffer>): Promise<PrintOutcome> {
    const { renderer, module } = await this.load();
    try {
      return { kind: "pdf", pdf: await print(renderer) };
    } catch (error) {
      if (error instanceof ChromiumUnavailable)
        return { kind: "unavailable", message: pdfUnavailableMessage(error.problem) };
      if (error instanceof module.PdfBusy || error instanceof module.PdfTimeout)
        return { kind: "busy", message: pdfBusyMessage, retryAfterSeconds: 5 };
      throw error;
    }
  }

  /** Sends a PDF as a download named after its report. */
  send(reply: FastifyReply, reportId: DisplayRow["id"], pdf: Buffer): FastifyReply {
    return sendPdf(reply, `report-${reportId}.pdf`, pdf);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.renderer) await (await this.renderer).renderer.close();
  }

  private load() {
    if (this.closed) throw new Error("the report printer is closed");
    this.renderer ??= import("./pdf-renderer.js").then((module) => ({
      renderer: new module.PdfRenderer(this.options),
      module,
    }));
    return this.renderer;
  }
}
