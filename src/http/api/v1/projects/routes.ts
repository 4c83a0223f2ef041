/** /api/v1/projects: list, show (with the latest crawl and the trend of its crawls) and delete. */
import type { FastifyInstance } from "fastify";
import { found } from "../../../../accounts/access.js";
import { crawlObject, projectTrendPoint } from "../../../../crawls/present.js";
import { sendPage } from "../../../pagination.js";
import type { ApiContext } from "../context.js";
import { deleteProject, listProjects, showProject } from "./schema.js";

interface ListQuery {
  search?: string;
  search_by?: string;
  sort_by?: "created_at" | "project";
  sort?: "asc" | "desc";
  per_page?: number;
  page?: number;
}

export async function projectRoutes(
  app: FastifyInstance,
  { projects, crawls, access }: ApiContext,
): Promise<void> {
  app.get<{ Querystring: ListQuery }>("/projects", { schema: listProjects }, async (request, reply) => {
    const query = request.query;
    const page = query.page ?? 1;
    const perPage = query.per_page ?? 10;
    const sortBy = query.sort_by ?? "created_at";
    const direction = query.sort ?? "desc";
    const workspace = await access.workspace(request);
    const { rows, total } = await projects.list(workspace, {
      ...(query.search !== undefined ? { search: query.search } : {}),
      sortBy,
      direction,
      limit: perPage,
      offset: (page - 1) * perPage,
    });
    const params: Array<[string, string]> = [];
    if (query.search !== undefined)
      params.push(["search", query.search], ["search_by", query.search_by ?? "project"]);
    params.push(["sort_by", sortBy], ["sort", direction], ["per_page", String(perPage)]);
    const items = rows.map((row) => JSON.stringify({ object: "project", ...row }));
    return sendPage(request, reply, { page, perPage, params }, items, total);
  });

  app.get<{ Params: { project: string } }>(
    "/projects/:project",
    { schema: showProject },
    async (request, reply) => {
      const project = await access.project(request);
      const workspace = await access.workspace(request);
      const trend = await crawls.trend(workspace, project.project);
      const latest = trend.at(-1);
      return reply.send({
        data: {
          object: "project",
          ...project,
          latest_crawl: latest ? crawlObject(latest) : null,
          trend: trend.map(projectTrendPoint),
        },
        status: 200,
      });
    },
  );

  app.delete<{ Params: { project: string } }>(
    "/projects/:project",
    { schema: deleteProject },
    async (request, reply) => {
      const project = request.params.project;
      const workspace = await access.workspace(request, "write");
      const deleted = found(await projects.delete(workspace, project));
      return reply.send({
        id: project,
        object: "project",
        deleted: true,
        deleted_reports: deleted,
        status: 200,
      });
    },
  );
}
