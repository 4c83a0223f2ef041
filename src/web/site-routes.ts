/** The landing page, /projects, the API docs page and the static assets (styles, icon, docs script). */
import { readFileSync } from "node:fs";
import type { FastifyInstance } from "fastify";
import type { ProjectService } from "../projects/project-service.js";
import { expired } from "./account-routes.js";
import { perPageValues, readListQuery, sortChoices } from "./list-query.js";
import { notFoundPage, seeOther, sendHtml } from "./render.js";
import { projectsBody } from "./views/projects.js";
import { confirmBody } from "./views/reports.js";
import { docsBody, landingBody } from "./views/site.js";
import { csrfValid } from "./web-context.js";

const assets: Record<string, { type: string; body: Buffer }> = Object.fromEntries(
  [
    ["app.css", "text/css; charset=utf-8"],
    ["icon.svg", "image/svg+xml"],
    ["docs.js", "text/javascript; charset=utf-8"],
  ].map(([name, type]) => [
    name,
    { type: type as string, body: readFileSync(new URL(`./assets/${name}`, import.meta.url)) },
  ]),
);

const projectListChoices = {
  sort_by: { allowed: ["created_at", "project"], fallback: "created_at" },
  sort: sortChoices,
  per_page: { allowed: perPageValues, fallback: "25" },
};

export async function siteRoutes(
  app: FastifyInstance,
  { projects }: { projects: ProjectService },
): Promise<void> {
  app.get("/", async (request, reply) =>
    sendHtml(request, reply, "Grade your web pages", landingBody(request.session !== null)),
  );

  app.get("/docs", async (request, reply) => sendHtml(request, reply, "API documentation", docsBody()));

  app.get<{ Params: { name: string } }>("/assets/:name", async (request, reply) => {
    const asset = assets[request.params.name];
    if (!asset) return notFoundPage(request, reply);
    return reply
      .type(asset.type)
      .header("cache-control", "public, max-age=3600")
      .header("x-content-type-options", "nosniff")
      .send(asset.body);
  });

  app.get("/projects", async (request, reply) => {
    const user = request.session?.account;
    if (!user) return seeOther(reply, "/login");
    const { values, page, ignored } = readListQuery(
      request.query as Record<string, string | undefined>,
      projectListChoices,
      ["search"],
    );
    const state = { ...values, per_page: Number(values.per_page), page };
    const { rows, total } = await projects.list(user.id, {
      ...(state.search ? { search: state.search } : {}),
      sortBy: state.sort_by as "created_at" | "project",
      direction: state.sort as "asc" | "desc",
      limit: state.per_page,
      offset: (page - 1) * state.per_page,
    });
    return sendHtml(request, reply, "Projects", projectsBody({ items: rows, total, state, ignored }));
  });

  app.get<{ Params: { project: string } }>("/projects/:project/delete", async (request, reply) => {
    if (!request.session) return seeOther(reply, "/login");
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
    if (!csrfValid(request)) return expired(request, reply);
    const user = request.session?.account;
    if (!user) return seeOther(reply, "/login");
    const deleted = await projects.delete(user.id, request.params.project);
    if (deleted === 0) return notFoundPage(request, reply);
    return seeOther(reply, "/projects");
  });
}
