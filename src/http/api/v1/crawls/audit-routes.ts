/**
 * A crawl's shared audit on the API, within the caller's workspace like every crawl call (access.ts):
 * `PATCH /crawls/{id}` sets who may see it (privacy, password), `GET /crawls/{id}/audit.pdf` prints it (counted
 * as report PDFs are).
 */
import type { FastifyInstance, FastifyReply } from "fastify";
import { found } from "../../../../accounts/access.js";
import type { CrawlAudits } from "../../../../crawls/crawl-audits.js";
import type { CrawlRow } from "../../../../crawls/crawl-store.js";
import { crawlObject } from "../../../../crawls/present.js";
import type { ApiContext } from "../context.js";
import { type ReportPdfs, sendPrintedProblem } from "../reports/pdf-routes.js";
import { showAuditPdf, updateCrawl } from "./audit-schema.js";

/** What the API needs to print an audit (the web's AuditPrinter, handed over by app.ts). */
export interface AuditPdfs {
  print(crawl: CrawlRow): ReturnType<ReportPdfs["print"]>;
  send(reply: FastifyReply, crawlId: number, pdf: Buffer): FastifyReply;
}

export async function crawlAuditRoutes(
  app: FastifyInstance,
  { audits, auditPdfs, access, limits }: ApiContext & { audits: CrawlAudits; auditPdfs: AuditPdfs },
): Promise<void> {
  app.patch<{ Params: { id: number }; Body: { privacy?: number; password?: string } }>(
    "/crawls/:id",
    { schema: updateCrawl },
    async (request, reply) => {
      const workspace = await access.workspace(request, "write");
      const crawl = found(await audits.share(workspace, request.params.id, request.body));
      return reply.send({ data: crawlObject(crawl), status: 200 });
    },
  );

  app.get<{ Params: { id: number } }>(
    "/crawls/:id/audit.pdf",
    { schema: showAuditPdf, preHandler: limits.charge("pdfs") },
    async (request, reply) => {
      const crawl = await access.crawl(request);
      const printed = await auditPdfs.print(crawl);
      return sendPrintedProblem(request, reply, printed, (pdf) => auditPdfs.send(reply, crawl.id, pdf));
    },
  );
}
