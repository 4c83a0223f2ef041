/**
 * /api/v1/reports: list, show, store, update (PUT and PATCH), delete. Thin: schema, service call, present.
 * Store and re-run honour `Prefer: respond-async` (202, the analysis in the background).
 */
import type { FastifyInstance, FastifyReply } from "fastify";
import { found } from "../../../../accounts/access.js";
import { reportEnvelope, reportJson } from "../../../../reports/present.js";
import type { CreateReportInput, UpdateReportInput } from "../../../../reports/report-service.js";
import type { ReportRow, ReportSortKey } from "../../../../store/report-store.js";
import { pageResponse } from "../../../pagination.js";
import { prefersRespondAsync } from "../../../prefer.js";
import { jsonHeaders, respondCached } from "../../../response-cache.js";
import type { ApiContext } from "../context.js";
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

/**
 * A report in its envelope. 202: the analysis runs in the background (the preference was applied); the
 * report's `status` says where it is.
 */
function sendReport(reply: FastifyReply, row: ReportRow, status: 200 | 201 | 202) {
  if (status === 202) reply.header("preference-applied", "respond-async");
  return reply.code(status).type("application/json; charset=utf-8").send(reportEnvelope(row, status));
}

export async function reportRoutes(app: FastifyInstance, context: ApiContext): Promise<void> {
  const { reports, limits, responses, access } = context;

  app.get<{ Querystring: ListQuery }>("/reports", { schema: listReports }, async (request, reply) => {
    const workspace = await access.workspace(request);
    return respondCached(responses, request, reply, workspace, async () => {
      const query = request.query;
      const page = query.page ?? 1;
      const perPage = query.per_page ?? 10;
      const sortBy = query.sort_by ?? "id";
      const direction = query.sort ?? "desc";
      const { rows, total } = await reports.list(workspace, {
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
      return pageResponse(
        request,
        { page, perPage, params },
        rows.map((row) => reportJson(row)),
        total,
      );
    });
  });

  app.get<{ Params: { id: number } }>("/reports/:id", { schema: showReport }, async (request, reply) => {
    return respondCached(responses, request, reply, await access.workspace(request), async () => {
      const row = await access.report(request);
      return { body: reportEnvelope(row, 200), headers: jsonHeaders };
    });
  });

  app.post<{ Body: CreateReportInput }>(
    "/reports",
    { schema: storeReport, preHandler: limits.charge("analyses") },
    async (request, reply) => {
      const background = prefersRespondAsync(request.headers.prefer);
      const workspace = await access.workspace(request, "write");
      const row = await reports.create(workspace, request.body, { background });
      return sendReport(reply.header("location", `/api/v1/reports/${row.id}`), row, background ? 202 : 201);
    },
  );

  for (const method of ["PUT", "PATCH"] as const) {
    app.route<{ Params: { id: number }; Body: UpdateReportInput }>({
      method,
      url: "/reports/:id",
      schema: { ...updateReport, summary: `${updateReport.summary} (${method})` },
      preHandler: limits.chargeWhen(
        "analyses",
        (request) => (request.body as { results?: number } | undefined)?.results === 1,
      ),
      handler: async (request, reply) => {
        const body = request.body ?? {};
        const background = body.results === 1 && prefersRespondAsync(request.headers.prefer);
        const workspace = await access.workspace(request, "write");
        const row = found(await reports.update(workspace, request.params.id, body, { background }));
        if (background) reply.header("location", `/api/v1/reports/${row.id}`);
        return sendReport(reply, row, background ? 202 : 200);
      },
    });
  }

  app.delete<{ Params: { id: number } }>("/reports/:id", { schema: deleteReport }, async (request, reply) => {
    const workspace = await access.workspace(request, "write");
    found(await reports.delete(workspace, request.params.id));
    return reply.send({ id: request.params.id, object: "report", deleted: true, status: 200 });
  });
}
