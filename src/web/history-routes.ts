/**
 * A report's history pages: every analysis (paged, newest first) and a page per past analysis, under the
 * same access rules as the report page (report-visit.ts), reading history as the report's owner would.
 */
import type { FastifyInstance } from "fastify";
import { found } from "../accounts/access.js";
import type { HistoryService } from "../reports/history-service.js";
import type { ReportAccess } from "../reports/report-access.js";
import { workspaceOf } from "../store/owned-rows.js";
import { pathId } from "./path-id.js";
import { sendHtml } from "./render.js";
import { reportView } from "./report-view.js";
import { reportVisits } from "./report-visit.js";
import { failedAnalysisBody, historyBody, pastAnalysisBanner } from "./views/history.js";
import { reportBody } from "./views/report-page.js";

export interface HistoryRouteOptions {
  history: HistoryService;
  access: ReportAccess;
}

/** Analyses per history page. */
const perPage = 25;

export async function historyRoutes(
  app: FastifyInstance,
  { history, access }: HistoryRouteOptions,
): Promise<void> {
  const visits = reportVisits(access);
  app.get<{ Params: { id: string }; Querystring: { page?: string } }>(
    "/reports/:id/history",
    { preHandler: visits.hook },
    async (request, reply) => {
      const { row } = visits.of(request);
      // Like the other lists, a page never refuses a bad value: anything but a page number is page 1.
      const page = /^[1-9][0-9]{0,14}$/.test(request.query.page ?? "") ? Number(request.query.page) : 1;
      // One row beyond the page, so the page's oldest analysis can show its change too.
      const listed = await history.list(workspaceOf(row), row.id, {
        direction: "desc",
        limit: perPage + 1,
        offset: (page - 1) * perPage,
      });
      return sendHtml(
        request,
        reply,
        `History of ${row.url}`,
        historyBody({
          report: row,
          rows: listed?.rows.slice(0, perPage) ?? [],
          older: listed?.rows[perPage],
          total: listed?.total ?? 0,
          page,
          per_page: perPage,
        }),
      );
    },
  );

  app.get<{ Params: { id: string; analysis: string } }>(
    "/reports/:id/analyses/:analysis",
    { preHandler: visits.hook },
    async (request, reply) => {
      const { row, owner } = visits.of(request);
      const analysisId = pathId(request.params.analysis);
      const analysis = found(
        analysisId !== null && (await history.show(workspaceOf(row), row.id, analysisId)),
      );
      const banner = pastAnalysisBanner(row.id, analysis, row.analysis_id);
      const title = `Analysis of ${analysis.url}`;
      const view =
        analysis.status === "complete"
          ? reportView({
              id: row.id,
              url: analysis.url,
              final_url: analysis.final_url ?? analysis.url,
              project: row.project,
              result: analysis.result,
              score: analysis.score,
              generated_at: analysis.generated_at,
              categories: analysis.categories,
              results: analysis.results,
              summary: analysis.summary,
            })
          : null;
      if (!view) {
        return sendHtml(
          request,
          reply,
          title,
          failedAnalysisBody(row.id, analysis.url, banner, analysis.error_message ?? ""),
        );
      }
      return sendHtml(request, reply, title, reportBody(view, owner, undefined, banner));
    },
  );
}
