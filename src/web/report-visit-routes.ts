/**
 * A report as its visitors see it (the owner, anyone with the link, anyone with the password), under the
 * privacy rules of report-visit.ts: the report page with its score chart and what changed, its screenshot,
 * and the password form's answer, which sets the report's access cookie.
 */
import type { FastifyInstance } from "fastify";
import { found } from "../accounts/access.js";
import type { HistoryService } from "../reports/history-service.js";
import type { ReportAccess } from "../reports/report-access.js";
import { workspaceOf } from "../store/owned-rows.js";
import { sendHtml } from "./render.js";
import { reportView } from "./report-view.js";
import { reportVisits } from "./report-visit.js";
import { analysisStatusBanner, pendingReportBody } from "./views/analysis-status.js";
import { scoreChart } from "./views/history.js";
import { reportBody } from "./views/report-page.js";
import { whatChanged } from "./views/what-changed.js";

export interface ReportVisitRouteOptions {
  history: HistoryService;
  access: ReportAccess;
}

/** Analyses the report page's chart shows (the newest). */
const chartedAnalyses = 30;

export async function reportVisitRoutes(
  app: FastifyInstance,
  { history, access }: ReportVisitRouteOptions,
): Promise<void> {
  const visits = reportVisits(access);
  app.get<{ Params: { id: string }; Querystring: { category?: unknown } }>(
    "/reports/:id",
    { preHandler: visits.hook },
    async (request, reply) => {
      const { row, owner } = visits.of(request);
      const title = `Report for ${row.url}`;
      const view = reportView(row);
      if (!view) return sendHtml(request, reply, title, pendingReportBody(row, owner));
      const [points, changes] = await Promise.all([
        history.scores(row.user_id, row.id, chartedAnalyses),
        history.latestChanges(workspaceOf(row), row.id),
      ]);
      return sendHtml(
        request,
        reply,
        title,
        reportBody(
          view,
          owner,
          {
            chart: scoreChart(row.id, points, row.analysis_id),
            changes: changes ? whatChanged(changes) : "",
            analyses: row.analyses,
            scoreChange: row.score_change,
          },
          analysisStatusBanner(row) || undefined,
          { category: typeof request.query.category === "string" ? request.query.category : undefined },
        ),
      );
    },
  );

  app.get<{ Params: { id: string } }>(
    "/reports/:id/screenshot",
    { preHandler: visits.hook },
    async (request, reply) => {
      const { row } = visits.of(request);
      const screenshot = found(await history.screenshot(workspaceOf(row), row.id));
      return reply
        .type(screenshot.mediaType)
        .header("cache-control", "private, no-cache")
        .send(screenshot.data);
    },
  );

  app.post<{ Params: { id: string }; Body: Record<string, string | undefined> }>(
    "/reports/:id/unlock",
    visits.unlock,
  );
}
