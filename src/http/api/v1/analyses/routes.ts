/**
 * A report's history: /api/v1/reports/{id}/analyses (list, show) and /api/v1/reports/{id}/diff. Thin: schema,
 * service call, present.
 */
import type { FastifyInstance } from "fastify";
import { pageResponse } from "../../../pagination.js";
import { problems, sendProblem } from "../../../problem.js";
import { jsonHeaders, respondCached } from "../../../response-cache.js";
import type { ApiContext } from "../context.js";
import { analysisJson } from "./present.js";
import { diffAnalyses, listAnalyses, showAnalysis } from "./schema.js";

interface ListQuery {
  sort?: "asc" | "desc";
  per_page?: number;
  page?: number;
}

export async function analysisRoutes(
  app: FastifyInstance,
  { history, responses }: ApiContext,
): Promise<void> {
  app.get<{ Params: { id: number }; Querystring: ListQuery }>(
    "/reports/:id/analyses",
    { schema: listAnalyses },
    async (request, reply) =>
      respondCached(responses, request, reply, async () => {
        const query = request.query;
        const page = query.page ?? 1;
        const perPage = query.per_page ?? 10;
        const direction = query.sort ?? "desc";
        const found = await history.list(request.account.id, request.params.id, {
          direction,
          limit: perPage,
          offset: (page - 1) * perPage,
        });
        if (!found) return undefined;
        const params: Array<[string, string]> = [
          ["sort", direction],
          ["per_page", String(perPage)],
        ];
        return pageResponse(request, { page, perPage, params }, found.rows.map(analysisJson), found.total);
      }),
  );

  app.get<{ Params: { id: number; analysis: number } }>(
    "/reports/:id/analyses/:analysis",
    { schema: showAnalysis },
    async (request, reply) =>
      respondCached(responses, request, reply, async () => {
        const row = await history.show(request.account.id, request.params.id, request.params.analysis);
        return (
          row && {
            body: Buffer.concat([Buffer.from('{"data":'), analysisJson(row), Buffer.from(',"status":200}')]),
            headers: jsonHeaders,
          }
        );
      }),
  );

  app.get<{ Params: { id: number }; Querystring: { from?: number; to?: number } }>(
    "/reports/:id/diff",
    { schema: diffAnalyses },
    async (request, reply) => {
      const { from, to } = request.query;
      const diff = await history.diff(request.account.id, request.params.id, {
        ...(from !== undefined ? { from } : {}),
        ...(to !== undefined ? { to } : {}),
      });
      if (!diff) return sendProblem(request, reply, problems.notFound());
      return reply.send({ data: diff, status: 200 });
    },
  );
}
