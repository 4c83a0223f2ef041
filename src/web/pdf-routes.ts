/**
 * /reports/{id}.pdf: the report page as a PDF, opened through report-visit.ts like the page itself (public,
 * private, password). Without a Chromium that starts (the page names the problem), or while too many PDFs are being made, a readable page says so.
 */
import type { FastifyInstance } from "fastify";
import { ChromiumUnavailable } from "../analysis/render/chromium-launch.js";
import type { Quotas } from "../limits/quotas.js";
import type { ReportAccess } from "../reports/report-access.js";
import { PdfBusy, type PdfRenderer, PdfTimeout } from "./pdf/pdf-renderer.js";
import {
  noAnalysisYet,
  pdfBusyMessage,
  pdfUnavailableMessage,
  reportPdf,
  sendPdf,
} from "./pdf/report-pdf.js";
import { sendHtml } from "./render.js";
import { reportView } from "./report-view.js";
import { visitReport } from "./report-visit.js";
import { errorBody } from "./views/site.js";

export interface PdfRouteOptions {
  access: ReportAccess;
  pdfs: PdfRenderer;
  quotas: Quotas;
}

export async function pdfRoutes(
  app: FastifyInstance,
  { access, pdfs, quotas }: PdfRouteOptions,
): Promise<void> {
  app.get<{ Params: { id: string } }>("/reports/:id.pdf", async (request, reply) => {
    const visit = await visitReport(access, request, reply, request.params.id);
    if (!visit) return reply;
    const view = reportView(visit.row);
    if (!view) {
      return sendHtml(request, reply, "No PDF yet", errorBody("No PDF yet", noAnalysisYet), 409);
    }
    // Signed-in visitors count per user, anyone else per client address.
    const account = request.session?.account;
    await quotas.charge("pdfs", account ? { userId: account.id } : { address: request.ip });
    try {
      return sendPdf(reply, visit.row.id, await reportPdf(pdfs, view));
    } catch (error) {
      if (error instanceof ChromiumUnavailable)
        return sendHtml(
          request,
          reply,
          "PDF unavailable",
          errorBody("No PDF here", pdfUnavailableMessage(error.problem)),
          503,
        );
      if (error instanceof PdfBusy || error instanceof PdfTimeout) {
        reply.header("retry-after", "5");
        return sendHtml(
          request,
          reply,
          "PDF unavailable",
          errorBody("Please try again", pdfBusyMessage),
          503,
        );
      }
      throw error;
    }
  });
}
