/**
 * /reports/{id}.pdf: the report page as a PDF, opened through report-visit.ts like the page itself (public,
 * private, password). Without a Chromium that starts (the page names the problem), or while too many PDFs are being made, a readable page says so.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Quotas } from "../limits/quotas.js";
import type { ReportAccess } from "../reports/report-access.js";
import type { PrintOutcome, ReportPrinter } from "./pdf/report-printer.js";
import { sendHtml } from "./render.js";
import { reportVisits } from "./report-visit.js";
import { errorBody } from "./views/site.js";

export interface PdfRouteOptions {
  access: ReportAccess;
  pdfs: ReportPrinter;
  quotas: Quotas;
}

export async function pdfRoutes(
  app: FastifyInstance,
  { access, pdfs, quotas }: PdfRouteOptions,
): Promise<void> {
  const visits = reportVisits(access);
  app.get<{ Params: { id: string } }>(
    "/reports/:id.pdf",
    { preHandler: visits.hook },
    async (request, reply) => {
      const { row } = visits.of(request);
      const printed = await pdfs.print(row, chargePdf(quotas, request));
      return sendPrinted(request, reply, printed, (pdf) => pdfs.send(reply, row.id, pdf));
    },
  );
}

/** Charges a PDF to the visitor's quota: a signed-in visitor's per user, anyone else's per client address. */
export function chargePdf(quotas: Quotas, request: FastifyRequest): () => Promise<void> {
  const account = request.session?.account;
  return () => quotas.charge("pdfs", account ? { userId: account.id } : { address: request.ip });
}

/** The PDF, or a readable page saying why there is none (not yet: 409; no Chromium or too busy: 503). */
export function sendPrinted(
  request: FastifyRequest,
  reply: FastifyReply,
  printed: PrintOutcome,
  send: (pdf: Buffer) => FastifyReply,
): FastifyReply {
  switch (printed.kind) {
    case "pdf":
      return send(printed.pdf);
    case "no-analysis":
      return sendHtml(request, reply, "No PDF yet", errorBody("No PDF yet", printed.message), 409);
    case "unavailable":
      return sendHtml(request, reply, "PDF unavailable", errorBody("No PDF here", printed.message), 503);
    case "busy":
      reply.header("retry-after", String(printed.retryAfterSeconds));
      return sendHtml(request, reply, "PDF unavailable", errorBody("Please try again", printed.message), 503);
  }
}
