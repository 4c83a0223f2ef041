/**
 * A report's history: /api/v1/reports/{id}/analyses (list, show) and /api/v1/reports/{id}/diff. Thin: schema,
 * service call, present.
 */
import type { FastifyInstance } from "fastify";
import { found } from "../../../../accounts/access.js";
import { pageResponse } from "../../../pagination.js";
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
  { history, responses, access }: ApiContext,
): Promise<void> {
  app.get<{ Params: { id: number }; Querystring: ListQuery }>(
    "/reports/:id/analyses",
    { schema: listAnalyses },
    async (request, reply) => {
      const workspace = await access.workspace(request);
      return respondCached(responses, request, reply, workspace, async () => {
        const query = request.query;
        const page = query.page ?? 1;
        const perPage = query.per_page ?? 10;
        const direction = query.sort ?? "desc";
        const listed = found(
          await history.list(workspace, request.params.id, {
            direction,
            limit: perPage,
            offset: (page - 1) * perPage,
          }),
        );
        const params: Array<[string, string]> = [
          ["sort", direction],
          ["per_page", String(perPage)],
        ];
        return pageResponse(request, { page, perPage, params }, listed.rows.map(analysisJson), listed.total);
      });
    },
  );

  app.get<{ Params: { id: number; analysis: number } }>(
    "/reports/:id/analyses/:analysis",
    { schema: showAnalysis },
    async (request, reply) => {
      const workspace = await access.workspace(request);
      return respondCached(responses, request, reply, workspace, async () => {
        const row = found(await history.show(workspace, request.params.id, request.params.analysis));
        return {
          body: Buffer.concat([Buffer.from('{"data":'), analysisJson(row), Buffer.from(',"status":200}')]),
          headers: jsonHeaders,
        };
      });
    },
  );

  app.get<{ Params: { id: number }; Querystring: { from?: number; to?: number } }>(
    "/reports/:id/diff",
    { schema: diffAnalyses },
    async (request, reply) => {
      const { from, to } = request.query;
      const workspace = await access.workspace(request);
      const diff = found(
        await history.diff(workspace, request.params.id, {
          ...(from !== undefined ? { from } : {}),
          ...(to !== undefined ? { to } : {}),
        }),
      );
      return reply.send({ data: diff, status: 200 });
    },
  );
}
