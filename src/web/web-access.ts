/**
 * The web's side of the access seam (accounts/access.ts), for the signed-in pages: the workspace the session's
 * user chose in the header's switcher (their own, or a team's with their role there), and one typed accessor per resource a page's path names (`/crawls/{id}`, `/reports/{id}`,
 * `/account/webhooks/{id}`, `/projects/{project}`). Each loads the resource within the workspace or throws the
 * 404 error-handling.ts answers with the not-found page (an id of the wrong shape, a missing resource and
 * another's resource alike), so a page reads `const crawl = await resources.crawl(request)` (or
 * `(request, "write")` before a change) and never checks ownership itself. A new resource gets one line in
 * accounts/access.ts (`workspaceResources`).
 */
import type { FastifyRequest } from "fastify";
import { workspaceResources } from "../accounts/access.js";
import type { CrawlService } from "../crawls/crawl-service.js";
import type { ProjectService } from "../projects/project-service.js";
import type { ReportService } from "../reports/report-service.js";
import type { TeamService } from "../teams/team-service.js";
import type { WebhookService } from "../webhooks/webhook-service.js";
import { pathId } from "./path-id.js";
import { signedInSession } from "./signed-in.js";

export function webAccess(services: {
  crawls: CrawlService;
  reports: ReportService;
  webhooks: WebhookService;
  projects: ProjectService;
  teams: TeamService;
}) {
  return workspaceResources(
    {
      // The team chosen in the header's switcher (web-context.ts); resolveWorkspace reads the role afresh.
      actorOf: (request: FastifyRequest) => {
        const team = request.workspaces?.team;
        return { userId: signedInSession(request).account.id, ...(team ? { team: String(team.id) } : {}) };
      },
      idOf: (request) => pathId((request.params as { id: string }).id),
      projectOf: (request) => (request.params as { project: string }).project,
    },
    services,
  );
}

export type WebAccess = ReturnType<typeof webAccess>;
