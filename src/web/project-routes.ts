/**
 * The user's projects (signed-in): the list (searched, sorted and paged from the query string), a project's
 * dashboard (with what changed in its latest crawl against the one before, stored when the crawl completed
 * or else compared now, and its crawl notification form, notification-routes.ts), and deleting a project with
 * all of its reports, after a confirmation page.
 */
import type { FastifyInstance } from "fastify";
import { found } from "../accounts/access.js";
import type { CrawlFindings } from "../crawls/crawl-findings.js";
import type { CrawlService } from "../crawls/crawl-service.js";
import type { NotificationSettings } from "../notifications/notification-settings.js";
import type { ProjectService } from "../projects/project-service.js";
import { html } from "./html.js";
import { perPageValues, readListQuery, sortChoices } from "./list-query.js";
import { seeOther, sendHtml } from "./render.js";
import { fixFirstShown } from "./views/fix-first.js";
import { confirmBody } from "./views/forms.js";
import { notificationFormCard } from "./views/notification-form.js";
import { projectDashboardBody } from "./views/project-dashboard.js";
import { projectsBody } from "./views/projects.js";
import type { WebAccess } from "./web-access.js";

const projectListChoices = {
  sort_by: { allowed: ["created_at", "project"], fallback: "created_at" },
  sort: sortChoices,
  per_page: { allowed: perPageValues, fallback: "25" },
};

export async function projectRoutes(
  app: FastifyInstance,
  {
    projects,
    crawls,
    crawlFindings,
    notifications,
    resources,
  }: {
    projects: ProjectService;
    crawls: CrawlService;
    crawlFindings: CrawlFindings;
    notifications: NotificationSettings;
    resources: WebAccess;
  },
): Promise<void> {
  app.get("/projects", async (request, reply) => {
    const { values, page, ignored } = readListQuery(
      request.query as Record<string, string | undefined>,
      projectListChoices,
      ["search"],
    );
    const state = { ...values, per_page: Number(values.per_page), page };
    const workspace = await resources.workspace(request);
    const { rows, total } = await projects.list(workspace, {
      ...(state.search ? { search: state.search } : {}),
      sortBy: state.sort_by as "created_at" | "project",
      direction: state.sort as "asc" | "desc",
      limit: state.per_page,
      offset: (page - 1) * state.per_page,
    });
    return sendHtml(
      request,
      reply,
      "Projects",
      projectsBody({ items: rows, total, state, ignored, readOnly: workspace.role === "viewer" }),
    );
  });

  app.get<{ Params: { project: string }; Querystring: { notifications?: string } }>(
    "/projects/:project",
    async (request, reply) => {
      const project = await resources.project(request);
      const workspace = await resources.workspace(request);
      const trend = await crawls.trend(workspace, project.project);
      const latest = trend.at(-1);
      const [fixes, changes] = latest
        ? await Promise.all([crawlFindings.fixFirst(latest.id), crawls.changes.latest(latest)])
        : [[], null];
      const dashboard = projectDashboardBody({
        project,
        trend,
        fixFirst: fixes.slice(0, fixFirstShown),
        fixFirstTotal: fixes.length,
        changes,
        readOnly: workspace.role === "viewer",
      });
      if (workspace.role === "viewer") return sendHtml(request, reply, project.project, dashboard);
      const notificationCard = notificationFormCard(
        request.csrfToken,
        await notifications.show(workspace, project.project),
        {
          saved: request.query.notifications === "saved",
          mails: await notifications.latestMails(workspace, project.project),
        },
      );
      return sendHtml(request, reply, project.project, html`${dashboard}${notificationCard}`);
    },
  );

  app.get<{ Params: { project: string } }>("/projects/:project/delete", async (request, reply) => {
    await resources.workspace(request, "write");
    const project = request.params.project;
    const path = `/projects/${encodeURIComponent(project)}/delete`;
    return sendHtml(
      request,
      reply,
      "Delete project",
      confirmBody(
        request.csrfToken,
        `Delete the project ${project} and all of its reports?`,
        path,
        "/projects",
      ),
    );
  });

  app.post<{ Params: { project: string } }>("/projects/:project/delete", async (request, reply) => {
    const workspace = await resources.workspace(request, "write");
    found(await projects.delete(workspace, request.params.project));
    return seeOther(reply, "/projects");
  });
}
