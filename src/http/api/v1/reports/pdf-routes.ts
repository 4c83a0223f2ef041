/**
 * GET /api/v1/reports/{id}/pdf: the caller's report as a PDF, printed by the printer app.ts hands over. Owner-scoped like every report
 * call. A server without Chromium answers 503: the request is valid and may succeed on another instance or
 * once the operator installs Chromium, so it is the server's condition (5xx), not the client's mistake (422).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { Type } from "typebox";
import type { DisplayRow } from "../../../../store/report-store.js";
import { type Problem, problems, sendProblem } from "../../../problem.js";
import { errorResponses } from "../common-schema.js";
import type { ApiContext } from "../context.js";

/**
 * What the API needs to print a report (the web's ReportPrinter, handed over by app.ts): the PDF or why there is
 * none, and the download's headers. The messages are the printer's; the API puts them in problem objects.
 */
export interface ReportPdfs {
  print(
    row: DisplayRow,
  ): Promise<
    | { kind: "pdf"; pdf: Buffer }
    | { kind: "no-analysis" | "unavailable"; message: string }
    | { kind: "busy"; message: string; retryAfterSeconds: number }
  >;
  send(reply: FastifyReply, reportId: number, pdf: Buffer): FastifyReply;
}

/** A PDF answer, documented as an attachment of this name. */
export function pdfDownload(fileName: string) {
  return {
    description: `The PDF, as an attachment named "${fileName}"`,
    content: { "application/pdf": { schema: { type: "string", contentMediaType: "application/pdf" } } },
  };
}

export const showReportPdf = {
  summary: "Download a report as a PDF",
  description:
    "The report (any mode) as an A4 PDF: the URL and date on every page, page numbers, every finding with its evidence. " +
    "409 while the report's first analysis has not completed. 503 when this server has no Chromium, or (with Retry-After) when too many PDFs are being made.",
  tags: ["reports"],
  params: Type.Object({ id: Type.Integer({ minimum: 1 }) }),
  response: {
    200: pdfDownload("report-<id>.pdf"),
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
  { access, pdfs, limits }: ApiContext & { pdfs: ReportPdfs },
): Promise<void> {
  app.get<{ Params: { id: number } }>(
    "/reports/:id/pdf",
    { schema: showReportPdf, preHandler: limits.charge("pdfs") },
    async (request, reply) => {
      const row = await access.report(request);
      const printed = await pdfs.print(row);
      return sendPrintedProblem(request, reply, printed, (pdf) => pdfs.send(reply, row.id, pdf));
    },
  );
}

/** The PDF, or the problem saying why there is none (not yet: 409; no Chromium or too busy: 503). */
export function sendPrintedProblem(
  request: FastifyRequest,
  reply: FastifyReply,
  printed: Awaited<ReturnType<ReportPdfs["print"]>>,
  send: (pdf: Buffer) => FastifyReply,
): FastifyReply {
  switch (printed.kind) {
    case "pdf":
      return send(printed.pdf);
    case "no-analysis":
      return sendProblem(request, reply, problems.conflict(printed.message));
    case "unavailable":
      return sendProblem(request, reply, unavailable(printed.message));
    case "busy":
      reply.header("retry-after", String(printed.retryAfterSeconds));
      return sendProblem(request, reply, unavailable(printed.message));
  }
}
