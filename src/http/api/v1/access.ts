/**
 * The API's side of the access seam (accounts/access.ts): the workspace of the key's owner (their own, or the
 * team the `team` query parameter names, with their role in it), and one typed
 * accessor per resource a path names (`/crawls/{id}`, `/reports/{id}`, `/webhooks/{id}`, `/projects/{project}`).
 * Each loads the resource within the caller's workspace or throws the 404 error-handling.ts answers, so a
 * handler reads `const crawl = await access.crawl(request)` (or `(request, "write")` before a change) and never
 * checks ownership itself. A new resource gets one line in accounts/access.ts (`workspaceResources`).
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { changeOf, workspaceResources } from "../../../accounts/access.js";
import type { CrawlService } from "../../../crawls/crawl-service.js";
import type { ProjectService } from "../../../projects/project-service.js";
import type { ReportService } from "../../../reports/report-service.js";
import type { TeamService } from "../../../teams/team-service.js";
import type { WebhookService } from "../../../webhooks/webhook-service.js";

/** The path's numeric `id` (the route's schema has made it a number). */
export const pathId = (request: FastifyRequest): number => (request.params as { id: number }).id;

export function apiAccess(services: {
  crawls: CrawlService;
  reports: ReportService;
  webhooks: WebhookService;
  projects: ProjectService;
  teams: TeamService;
}) {
  return workspaceResources(
    {
      // `team={id}` on any endpoint selects that team's workspace (api-contract part 4).
      actorOf: (request: FastifyRequest) => ({
        userId: request.account.id,
        team: (request.query as { team?: unknown } | undefined)?.team,
      }),
      idOf: pathId,
      projectOf: (request) => (request.params as { project: string }).project,
    },
    services,
  );
}

export type ApiAccess = ReturnType<typeof apiAccess>;

/**
 * The team's activity, kept in one place: every request that was allowed to change a team's workspace and
 * succeeded appends who did what to which path (`report.updated`, `/api/v1/reports/12`) before its response is
 * sent, so a client that reads the activity after its change's answer finds it there. An activity write that
 * fails is logged and does not turn a change that was made into an error.
 */
export function recordTeamChanges(app: FastifyInstance, access: ApiAccess, teams: TeamService): void {
  app.addHook("onSend", async (request, reply, payload) => {
    const workspace = access.written(request);
    if (!workspace || workspace.teamId === null || reply.statusCode >= 400) return payload;
    try {
      await teams.recordChange({
        teamId: workspace.teamId,
        userId: workspace.userId,
        action: changeOf(request.method, request.routeOptions.url ?? request.url),
        target: request.url.split("?")[0] ?? request.url,
      });
    } catch (error) {
      request.log.error({ err: error }, "the team's activity entry could not be written");
    }
    return payload;
  });
}
