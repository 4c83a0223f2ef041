/** /api/v1/reports: list, show, store, update (PUT and PATCH), delete. Thin: schema, service call, present. */
import type { FastifyInstance } from "fastify";
import type { ReportSortKey } from "../../../../store/report-store.js";
import { pageResponse } from "../../../pagination.js";
import { problems, sendProblem } from "../../../problem.js";
import { jsonHeaders, respondCached } from "../../../response-cache.js";
import type { ApiContext } from "../context.js";
import { reportEnvelope, reportJson } from "./present.js";
import { deleteReport, listReports, showReport, storeReport, updateReport } from "./schema.js";

interface ListQuery {
  search?: string;
  search_by?: string;
  project?: string;
  result?: string;
  sort_by?: string;
  sort?: "asc" | "desc";
  per_page?: number;
  page?: number;
}

export async function reportRoutes(app: FastifyInstance, context: ApiContext): Promise<void> {
  const { reports, limits, responses } = context;

  app.get<{ Querystring: ListQuery }>("/reports", { schema: listReports }, async (request, reply) => {
    return respondCached(responses, request, reply, async () => {
      const query = request.query;
      const page = query.page ?? 1;
      const perPage = query.per_page ?? 10;
      const sortBy = query.sort_by ?? "id";
      const direction = query.sort ?? "desc";
      const { rows, total } = await reports.list(request.account.id, {
        ...(query.search !== undefined ? { search: query.search } : {}),
        ...(query.project !== undefined ? { project: query.project } : {}),
        ...(query.result !== undefined ? { result: query.result } : {}),
        sortBy: (sortBy === "result" ? "score" : sortBy) as ReportSortKey,
        direction,
        limit: perPage,
        offset: (page - 1) * perPage,
      });
      const params: Array<[string, string]> = [];
      if (query.search !== undefined)
        params.push(["search", query.search], ["search_by", query.search_by ?? "url"]);
      if (query.project !== undefined) params.push(["project", query.project]);
      if (query.result !== undefined) params.push(["result", query.result]);
      params.push(["sort_by", sortBy], ["sort", direction], ["per_page", String(perPage)]);
      return pageResponse(request, { page, perPage, params }, rows.map(reportJson), total);
    });
  });

  app.get<{ Params: { id: number } }>("/reports/:id", { schema: showReport }, async (request, reply) => {
    return respondCached(responses, request, reply, async () => {
      const row = await reports.show(request.account.id, request.params.id);
      return row && { body: reportEnvelope(row, 200), headers: jsonHeaders };
    });
  });

  app.post<{ Body: { url: string; privacy?: number; password?: string } }>(
    "/reports",
    { schema: storeReport, preHandler: limits.analysis },
    async (request, reply) => {
      const row = await reports.create(request.account.id, request.body);
      return reply
        .code(201)
        .header("location", `/api/v1/reports/${row.id}`)
        .type("application/json; charset=utf-8")
        .send(reportEnvelope(row, 201));
    },
  );

  for (const method of ["PUT", "PATCH"] as const) {
    app.route<{ Params: { id: number }; Body: { privacy?: number; password?: string; results?: number } }>({
      method,
      url: "/reports/:id",
      schema: { ...updateReport, summary: `${updateReport.summary} (${method})` },
      preHandler: limits.analysisWhen(
        (request) => (request.body as { results?: number } | undefined)?.results === 1,
      ),
      handler: async (request, reply) => {
        const row = await reports.update(request.account.id, request.params.id, request.body ?? {});
        if (!row) return sendProblem(request, reply, problems.notFound());
        return reply.type("application/json; charset=utf-8").send(reportEnvelope(row, 200));
      },
    });
  }

  app.delete<{ Params: { id: number } }>("/reports/:id", { schema: deleteReport }, async (request, reply) => {
    const deleted = await reports.delete(request.account.id, request.params.id);
    if (!deleted) return sendProblem(request, reply, problems.notFound());
    return reply.send({ id: request.params.id, object: "report", deleted: true, status: 200 });
  });
}
