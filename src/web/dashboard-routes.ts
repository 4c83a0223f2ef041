/**
 * The dashboard (/reports, signed-in): the user's reports as a list that can be searched, filtered, sorted and
 * paged from the query string, and the form that analyses a new page (privacy, mode, schedule); a URL that
 * already has a report is offered a re-run or a second report on purpose. The rules come from the
 * ReportService, as in the API.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { DomainError } from "../errors.js";
import type { Quotas } from "../limits/quotas.js";
import type { ReportService } from "../reports/report-service.js";
import type { ReportSortKey } from "../store/report-store.js";
import { type ReportSchedule, reportSchedules } from "../store/schema.js";
import { type AnalysisMode, analysisModes } from "../vocabulary.js";
import { analysisFailureMessage } from "./analysis-failure-message.js";
import { perPageValues, readListQuery, sortChoices } from "./list-query.js";
import { seeOther, sendHtml } from "./render.js";
import { signedInSession } from "./signed-in.js";
import { typedUrl } from "./typed-url.js";
import { dashboardBody, duplicateBody, type ListState } from "./views/reports.js";
import type { WebAccess } from "./web-access.js";

type Form = Record<string, string | undefined>;

const listChoices = {
  result: { allowed: ["good", "decent", "bad"], fallback: "" },
  sort_by: { allowed: ["id", "generated_at", "url", "result"], fallback: "id" },
  sort: sortChoices,
  per_page: { allowed: perPageValues, fallback: "10" },
};

export interface DashboardRouteOptions {
  reports: ReportService;
  quotas: Quotas;
  resources: WebAccess;
}

export async function dashboardRoutes(
  app: FastifyInstance,
  { reports, quotas, resources }: DashboardRouteOptions,
): Promise<void> {
  const showDashboard = async (
    request: FastifyRequest,
    reply: FastifyReply,
    form: { values: Record<string, string>; error: string | null },
    status = 200,
  ) => {
    const workspace = await resources.workspace(request);
    const { state, ignored } = listState(request.query as Form);
    const { rows, total } = await reports.list(workspace, {
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
      dashboardBody(request.csrfToken, {
        items: rows,
        total,
        state,
        ignored,
        form,
        readOnly: workspace.role === "viewer",
      }),
      status,
    );
  };

  app.get("/reports", async (request, reply) => showDashboard(request, reply, { values: {}, error: null }));

  app.post<{ Body: Form }>("/reports", async (request, reply) => {
    const user = signedInSession(request).account;
    const values = {
      url: typedUrl(request.body.url ?? ""),
      privacy: request.body.privacy ?? "1",
      mode: request.body.mode ?? "raw",
      schedule: request.body.schedule ?? "off",
    };
    const refuse = (error: string) => showDashboard(request, reply, { values, error }, 422);
    if (!/^[012]$/.test(values.privacy)) return refuse("Choose who can see the report page.");
    if (!(analysisModes as readonly string[]).includes(values.mode))
      return refuse("Choose how to read the page.");
    if (!(reportSchedules as readonly string[]).includes(values.schedule))
      return refuse("Choose how often to analyse again.");
    // A URL that already has a report: offer to re-run it, unless a second one was asked for on purpose.
    const workspace = await resources.workspace(request, "write");
    const existing =
      request.body.duplicate === "1" ? undefined : await reports.existingFor(workspace, values.url);
    if (existing !== undefined) {
      return sendHtml(request, reply, "Already reported", duplicateBody(request.csrfToken, existing, values));
    }
    const password = request.body.password || undefined;
    await quotas.charge("analyses", { userId: user.id });
    try {
      const row = await reports.create(workspace, {
        url: values.url,
        privacy: Number(values.privacy),
        mode: values.mode as AnalysisMode,
        schedule: values.schedule as ReportSchedule,
        ...(password !== undefined ? { password } : {}),
      });
      return seeOther(reply, `/reports/${row.id}`);
    } catch (error) {
      const message = analysisFailureMessage(error);
      if (message === null) throw error;
      // The form again, with the error's own status (422 a refusal, 503 a full service): a message means a DomainError.
      return showDashboard(request, reply, { values, error: message }, (error as DomainError).status);
    }
  });
}

function listState(query: Form): { state: ListState; ignored: string[] } {
  const { values, page, ignored } = readListQuery(query, listChoices, ["search", "project"]);
  return { state: { ...values, per_page: Number(values.per_page), page }, ignored };
}
