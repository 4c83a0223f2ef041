/**
 * GET /api/v1/reports/{id}/pdf: the caller's report as a PDF (src/web/pdf/). Owner-scoped like every report
 * call. A server without Chromium answers 503: the request is valid and may succeed on another instance or
 * once the operator installs Chromium, so it is the server's condition (5xx), not the client's mistake (422).
 */
import type { FastifyInstance } from "fastify";
import { Type } from "typebox";
import { ChromiumUnavailable } from "../../../../analysis/render/chromium-launch.js";
import { PdfBusy, type PdfRenderer, PdfTimeout } from "../../../../web/pdf/pdf-renderer.js";
import {
  noAnalysisYet,
  pdfBusyMessage,
  pdfUnavailableMessage,
  reportPdf,
  sendPdf,
} from "../../../../web/pdf/report-pdf.js";
import { reportView } from "../../../../web/report-view.js";
import { type Problem, problems, sendProblem } from "../../../problem.js";
import { errorResponses } from "../common-schema.js";
import type { ApiContext } from "../context.js";

export const showReportPdf = {
  summary: "Download a report as a PDF",
  description:
    "The report (any mode) as an A4 PDF: the URL and date on every page, page numbers, every finding with its evidence. " +
    "409 while the report's first analysis has not completed. 503 when this server has no Chromium, or (with Retry-After) when too many PDFs are being made.",
  tags: ["reports"],
  params: Type.Object({ id: Type.Integer({ minimum: 1 }) }),
  response: {
    200: {
      description: 'The PDF, as an attachment named "report-<id>.pdf"',
      content: { "application/pdf": { schema: { type: "string", contentMediaType: "application/pdf" } } },
    },
    ...errorResponses(404, 409, 503),
  },
};

const unavailable = (detail: string): Problem => ({
  status: 503,
  type: "/problems/unavailable",
  title: "Service unavailable",
  detail,
});

export async function reportPdfRoutes(
  app: FastifyInstance,
  { reports, pdfs, limits }: ApiContext & { pdfs: PdfRenderer },
): Promise<void> {
  app.get<{ Params: { id: number } }>(
    "/reports/:id/pdf",
    { schema: showReportPdf, preHandler: limits.charge("pdfs") },
    async (request, reply) => {
      const row = await reports.show(request.account.id, request.params.id);
      if (!row) return sendProblem(request, reply, problems.notFound());
      const view = reportView(row);
      if (!view) return sendProblem(request, reply, problems.conflict(noAnalysisYet));
      try {
        return sendPdf(reply, row.id, await reportPdf(pdfs, view));
      } catch (error) {
        if (error instanceof ChromiumUnavailable)
          return sendProblem(request, reply, unavailable(pdfUnavailableMessage(error.problem)));
        if (error instanceof PdfBusy || error instanceof PdfTimeout) {
          reply.header("retry-after", "5");
          return sendProblem(request, reply, unavailable(pdfBusyMessage));
        }
        throw error;
      }
    },
  );
}
