/**
 * The owner's management of one report (signed-in): the manage page, analysing again, privacy (with the
 * password), schedule and mode, and delete with a confirmation page. Another user's report is a 404. The rules
 * come from the ReportService, as in the API.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { type DomainError, ValidationFailed } from "../errors.js";
import type { Quotas } from "../limits/quotas.js";
import type { ReportService } from "../reports/report-service.js";
import { workspaceOf } from "../store/owned-rows.js";
import type { DisplayRow } from "../store/report-store.js";
import { type ReportSchedule, reportSchedules } from "../store/schema.js";
import { type AnalysisMode, analysisModes } from "../vocabulary.js";
import { analysisFailureMessage } from "./analysis-failure-message.js";
import { seeOther, sendHtml } from "./render.js";
import { confirmBody } from "./views/forms.js";
import { manageBody } from "./views/reports.js";
import type { WebAccess } from "./web-access.js";

type Form = Record<string, string | undefined>;

export interface ReportManageRouteOptions {
  reports: ReportService;
  quotas: Quotas;
  resources: WebAccess;
}

export async function reportManageRoutes(
  app: FastifyInstance,
  { reports, quotas, resources }: ReportManageRouteOptions,
): Promise<void> {
  const showManage = (
    request: FastifyRequest,
    reply: FastifyReply,
    row: DisplayRow,
    message: { error?: string; notice?: string } = {},
    status = 200,
  ) =>
    sendHtml(
      request,
      reply,
      "Manage report",
      manageBody(request.csrfToken, { ...row, password: row.password_hash !== null }, message),
      status,
    );

  app.get<{ Params: { id: string } }>("/reports/:id/manage", async (request, reply) => {
    // Every part of the page changes the report: a viewer gets the 403 page.
    return showManage(request, reply, await resources.report(request, "write"));
  });

  app.post<{ Params: { id: string }; Body: Form }>("/reports/:id/rerun", async (request, reply) => {
    const row = await resources.report(request, "write");
    await quotas.charge("analyses", { userId: row.user_id });
    try {
      await reports.update(workspaceOf(row), row.id, { results: 1 });
    } catch (error) {
      const message = analysisFailureMessage(error);
      if (message === null) throw error;
      // The form again, with the error's own status (422 a refusal, 503 a full service): a message means a DomainError.
      const { status } = error as DomainError;
      return showManage(
        request,
        reply,
        row,
        { error: `The analysis could not run again: ${message}` },
        status,
      );
    }
    return seeOther(reply, `/reports/${row.id}`);
  });

  app.post<{ Params: { id: string }; Body: Form }>("/reports/:id/privacy", async (request, reply) => {
    const row = await resources.report(request, "write");
    const privacy = Number(request.body.privacy);
    if (!/^[012]$/.test(request.body.privacy ?? ""))
      return showManage(request, reply, row, { error: "Choose who can see the report page." }, 422);
    const password = request.body.password || undefined;
    try {
      await reports.update(workspaceOf(row), row.id, {
        privacy,
        ...(password !== undefined ? { password } : {}),
      });
    } catch (error) {
      if (!(error instanceof ValidationFailed)) throw error;
      return showManage(request, reply, row, { error: error.message }, 422);
    }
    const updated = await reports.show(row.user_id, row.id);
    return showManage(request, reply, updated ?? row, { notice: "Privacy saved." });
  });

  app.post<{ Params: { id: string }; Body: Form }>("/reports/:id/settings", async (request, reply) => {
    const row = await resources.report(request, "write");
    const schedule = request.body.schedule ?? "";
    const mode = request.body.mode ?? "";
    if (!(reportSchedules as readonly string[]).includes(schedule))
      return showManage(request, reply, row, { error: "Choose how often to analyse again." }, 422);
    if (!(analysisModes as readonly string[]).includes(mode))
      return showManage(request, reply, row, { error: "Choose how to read the page." }, 422);
    try {
      await reports.update(workspaceOf(row), row.id, {
        schedule: schedule as ReportSchedule,
        mode: mode as AnalysisMode,
      });
    } catch (error) {
      if (!(error instanceof ValidationFailed)) throw error;
      return showManage(request, reply, row, { error: error.message }, 422);
    }
    const updated = await reports.show(row.user_id, row.id);
    return showManage(request, reply, updated ?? row, { notice: "Schedule and mode saved." });
  });

  app.get<{ Params: { id: string } }>("/reports/:id/delete", async (request, reply) => {
    const row = await resources.report(request, "write");
    return sendHtml(
      request,
      reply,
      "Delete report",
      confirmBody(
        request.csrfToken,
        `Delete the report for ${row.url}?`,
        `/reports/${row.id}/delete`,
        `/reports/${row.id}/manage`,
      ),
    );
  });

  app.post<{ Params: { id: string } }>("/reports/:id/delete", async (request, reply) => {
    const row = await resources.report(request, "write");
    await reports.delete(workspaceOf(row), row.id);
    return seeOther(reply, "/reports");
  });
}
