/**
 * A crawl's shared audit on the API: `PATCH /crawls/{id}` sets who may see it (privacy, password), owner-scoped
 * like every crawl call.
 */
import type { FastifyInstance } from "fastify";
import type { CrawlAudits } from "../../../../crawls/crawl-audits.js";
import { crawlObject } from "../../../../crawls/present.js";
import { problems, sendProblem } from "../../../problem.js";
import type { ApiContext } from "../context.js";
import { updateCrawl } from "./audit-schema.js";

export async function crawlAuditRoutes(
  app: FastifyInstance,
  { audits }: ApiContext & { audits: CrawlAudits },
): Promise<void> {
  app.patch<{ Params: { id: number }; Body: { privacy?: number; password?: string } }>(
    "/crawls/:id",
    { schema: updateCrawl },
    async (request, reply) => {
      const crawl = await audits.share(request.account.id, request.params.id, request.body);
      if (!crawl) return sendProblem(request, reply, problems.notFound());
      return reply.send({ data: crawlObject(crawl), status: 200 });
    },
  );
}
