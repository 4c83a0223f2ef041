/**
 * The dashboard (/reports), analysing a page from a form, managing one report (re-run, privacy, delete with
 * confirmation) and the public report page with its privacy rules. All rules come from the same services the
 * API uses.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { AnalysisFailed, CapacityExceeded, ValidationFailed } from "../errors.js";
import type { Quotas } from "../limits/quotas.js";
import type { HistoryService } from "../reports/history-service.js";
import type { ReportAccess } from "../reports/report-access.js";
import type { ReportService } from "../reports/report-service.js";
import type { DisplayRow, ReportSortKey } from "../store/report-store.js";
import { type ReportSchedule, reportSchedules } from "../store/schema.js";
import { type AnalysisMode, analysisModes } from "../vocabulary.js";
import { expired } from "./account-routes.js";
import { perPageValues, readListQuery, sortChoices } from "./list-query.js";
import { notFoundPage, seeOther, sendHtml } from "./render.js";
import { reportView } from "./report-view.js";
import { accessCookie, accessCookiePaths, reportIdOf, visitReport } from "./report-visit.js";
import { analysisStatusBanner, pendingReportBody } from "./views/analysis-status.js";
import { scoreChart } from "./views/history.js";
import { reportBody } from "./views/report-page.js";
import { confirmBody, dashboardBody, type ListState, manageBody, passwordFormBody } from "./views/reports.js";
import { whatChanged } from "./views/what-changed.js";
import { cookieOptions, csrfValid } from "./web-context.js";

type Form = Record<string, string | undefined>;

const listChoices = {
  result: { allowed: ["good", "decent", "bad"], fallback: "" },
  sort_by: { allowed: ["id", "generated_at", "url", "result"], fallback: "id" },
  sort: sortChoices,
  per_page: { allowed: perPageValues, fallback: "10" },
};

export interface ReportRouteOptions {
  reports: ReportService;
  history: HistoryService;
  access: ReportAccess;
  quotas: Quotas;
}

/** Analyses the report page's chart shows (the newest). */
const chartedAnalyses = 30;

export async function reportRoutes(
  app: FastifyInstance,
  { reports, history, access, quotas }: ReportRouteOptions,
): Promise<void> {
  const requireUser = (request: FastifyRequest, reply: FastifyReply) => {
    if (!request.session) {
      void seeOther(reply, "/login");
      return null;
    }
    return request.session.account;
  };

  const showDashboard = async (
    request: FastifyRequest,
    reply: FastifyReply,
    form: { values: Record<string, string>; error: string | null },
    status = 200,
  ) => {
    const user = request.session?.account;
    if (!user) return seeOther(reply, "/login");
    const { state, ignored } = listState(request.query as Form);
    const { rows, total } = await reports.list(user.id, {
      ...(state.search ? { search: state.search } : {}),
      ...(state.project ? { project: state.project } : {}),
      ...(state.result ? { result: state.result } : {}),
      sortBy: (state.sort_by === "result" ? "score" : state.sort_by) as ReportSortKey,
      direction: state.sort as "asc" | "desc",
      limit: state.per_page,
      offset: (state.page - 1) * state.per_page,
    });
    return sendHtml(
      request,
      reply,
      "Reports",
      dashboardBody(request.csrfToken, { items: rows, total, state, ignored, form }),
      status,
    );
  };

  app.get("/reports", async (request, reply) => showDashboard(request, reply, { values: {}, error: null }));

  app.post<{ Body: Form }>("/reports", async (request, reply) => {
    if (!csrfValid(request)) return expired(request, reply);
    const user = requireUser(request, reply);
    if (!user) return reply;
    const values = { url: (request.body.url ?? "").trim(), privacy: request.body.privacy ?? "1" };
    const privacy = Number(values.privacy);
    if (![0, 1, 2].includes(privacy) || !/^[012]$/.test(values.privacy)) {
      return showDashboard(request, reply, { values, error: "Choose who can see the report page." }, 422);
    }
    const password = request.body.password || undefined;
    await quotas.charge("analyses", { userId: user.id });
    try {
      const row = await reports.create(user.id, {
        url: values.url,
        privacy,
        ...(password !== undefined ? { password } : {}),
      });
      return seeOther(reply, `/reports/${row.id}`);
    } catch (error) {
      const message = failureMessage(error);
      if (message === null) throw error;
      return showDashboard(
        request,
        reply,
        { values, error: message },
        error instanceof CapacityExceeded ? 503 : 422,
      );
    }
  });

  app.get<{ Params: { id: string } }>("/reports/:id", async (request, reply) => {
    const visit = await visitReport(access, request, reply, request.params.id);
    if (!visit) return reply;
    const { row, owner } = visit;
    const title = `Report for ${row.url}`;
    const view = reportView(row);
    if (!view) return sendHtml(request, reply, title, pendingReportBody(row, owner));
    const [points, changes] = await Promise.all([
      history.scores(row.user_id, row.id, chartedAnalyses),
      history.latestChanges(row.user_id, row.id),
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
      ),
    );
  });

  app.get<{ Params: { id: string } }>("/reports/:id/screenshot", async (request, reply) => {
    const visit = await visitReport(access, request, reply, request.params.id);
    if (!visit) return reply;
    const screenshot = await history.screenshot(visit.row.user_id, visit.row.id);
    if (!screenshot) return notFoundPage(request, reply);
    return reply
      .type(screenshot.mediaType)
      .header("cache-control", "private, no-cache")
      .send(screenshot.data);
  });

  app.post<{ Params: { id: string }; Body: Form }>("/reports/:id/unlock", async (request, reply) => {
    if (!csrfValid(request)) return expired(request, reply);
    const id = reportIdOf(request.params.id);
    if (id === null) return notFoundPage(request, reply);
    reply.header("x-robots-tag", "noindex");
    const outcome = await access.unlock(id, request.body.password ?? "", request.ip);
    switch (outcome.kind) {
      case "missing":
        return notFoundPage(request, reply);
      case "locked":
        reply.header("retry-after", String(outcome.retryAfterSeconds));
        return sendHtml(
          request,
          reply,
          "Protected report",
          passwordFormBody(
            request.csrfToken,
            id,
            `Too many wrong passwords. Try again in ${Math.ceil(outcome.retryAfterSeconds / 60)} minutes.`,
          ),
          429,
        );
      case "wrong":
        return sendHtml(
          request,
          reply,
          "Protected report",
          passwordFormBody(request.csrfToken, id, "The password is not correct."),
          401,
        );
      case "unlocked":
        // A cookie's path covers /reports/{id} and what is under it, not /reports/{id}.pdf: that gets its own.
        for (const path of accessCookiePaths(id)) {
          reply.setCookie(accessCookie(id), outcome.token, {
            ...cookieOptions(request, 7 * 24 * 3600),
            path,
          });
        }
        return seeOther(reply, `/reports/${id}`);
    }
  });

  const owned = async (request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) => {
    const user = requireUser(request, reply);
    if (!user) return null;
    const id = reportIdOf(request.params.id);
    const row = id === null ? undefined : await reports.show(user.id, id);
    if (!row) {
      await notFoundPage(request, reply);
      return null;
    }
    return { user, row };
  };

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
    const found = await owned(request, reply);
    return found ? showManage(request, reply, found.row) : reply;
  });

  app.post<{ Params: { id: string }; Body: Form }>("/reports/:id/rerun", async (request, reply) => {
    if (!csrfValid(request)) return expired(request, reply);
    const found = await owned(request, reply);
    if (!found) return reply;
    await quotas.charge("analyses", { userId: found.user.id });
    try {
      await reports.update(found.user.id, found.row.id, { results: 1 });
    } catch (error) {
      const message = failureMessage(error);
      if (message === null) throw error;
      return showManage(
        request,
        reply,
        found.row,
        { error: `The analysis could not run again: ${message}` },
        422,
      );
    }
    return seeOther(reply, `/reports/${found.row.id}`);
  });

  app.post<{ Params: { id: string }; Body: Form }>("/reports/:id/privacy", async (request, reply) => {
    if (!csrfValid(request)) return expired(request, reply);
    const found = await owned(request, reply);
    if (!found) return reply;
    const privacy = Number(request.body.privacy);
    if (!/^[012]$/.test(request.body.privacy ?? ""))
      return showManage(request, reply, found.row, { error: "Choose who can see the report page." }, 422);
    const password = request.body.password || undefined;
    try {
      await reports.update(found.user.id, found.row.id, {
        privacy,
        ...(password !== undefined ? { password } : {}),
      });
    } catch (error) {
      if (!(error instanceof ValidationFailed)) throw error;
      return showManage(request, reply, found.row, { error: error.message }, 422);
    }
    const updated = await reports.show(found.user.id, found.row.id);
    return showManage(request, reply, updated ?? found.row, { notice: "Privacy saved." });
  });

  app.post<{ Params: { id: string }; Body: Form }>("/reports/:id/settings", async (request, reply) => {
    if (!csrfValid(request)) return expired(request, reply);
    const found = await owned(request, reply);
    if (!found) return reply;
    const schedule = request.body.schedule ?? "";
    const mode = request.body.mode ?? "";
    if (!(reportSchedules as readonly string[]).includes(schedule))
      return showManage(request, reply, found.row, { error: "Choose how often to analyse again." }, 422);
    if (!(analysisModes as readonly string[]).includes(mode))
      return showManage(request, reply, found.row, { error: "Choose how to read the page." }, 422);
    try {
      await reports.update(found.user.id, found.row.id, {
        schedule: schedule as ReportSchedule,
        mode: mode as AnalysisMode,
      });
    } catch (error) {
      if (!(error instanceof ValidationFailed)) throw error;
      return showManage(request, reply, found.row, { error: error.message }, 422);
    }
    const updated = await reports.show(found.user.id, found.row.id);
    return showManage(request, reply, updated ?? found.row, { notice: "Schedule and mode saved." });
  });

  app.get<{ Params: { id: string } }>("/reports/:id/delete", async (request, reply) => {
    const found = await owned(request, reply);
    if (!found) return reply;
    return sendHtml(
      request,
      reply,
      "Delete report",
      confirmBody(
        request.csrfToken,
        `Delete the report for ${found.row.url}?`,
        `/reports/${found.row.id}/delete`,
        `/reports/${found.row.id}/manage`,
      ),
    );
  });

  app.post<{ Params: { id: string } }>("/reports/:id/delete", async (request, reply) => {
    if (!csrfValid(request)) return expired(request, reply);
    const found = await owned(request, reply);
    if (!found) return reply;
    await reports.delete(found.user.id, found.row.id);
    return seeOther(reply, "/reports");
  });
}

function failureMessage(error: unknown): string | null {
  if (error instanceof ValidationFailed || error instanceof AnalysisFailed) return error.message;
  if (error instanceof CapacityExceeded)
    return "Too many analyses are running right now; try again in a few seconds.";
  return null;
}

function listState(query: Form): { state: ListState; ignored: string[] } {
  const { values, page, ignored } = readListQuery(query, listChoices, ["search", "project"]);
  return { state: { ...values, per_page: Number(values.per_page), page }, ignored };
}
