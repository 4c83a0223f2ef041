/** Request and response schemas of /api/v1/projects. */
import { Type } from "typebox";
import { errorResponses, PageQuery, paginated, refTo, stringEnum, Timestamp } from "../common-schema.js";
import { Crawl } from "../crawls/schema.js";

export const Project = Type.Object(
  {
    object: Type.Literal("project"),
    project: Type.String(),
    reports: Type.Integer({ minimum: 1 }),
    score: Type.Integer({ minimum: 0, maximum: 100, description: "Rounded mean of the reports' scores" }),
    result: stringEnum(["good", "decent", "bad"]),
    created_at: Timestamp,
    last_generated_at: Timestamp,
  },
  { $id: "Project", title: "Project" },
);

export const listProjects = {
  summary: "List projects",
  tags: ["projects"],
  querystring: Type.Object({
    search: Type.Optional(Type.String({ maxLength: 255 })),
    search_by: Type.Optional(stringEnum(["project"], "Field searched (default project)")),
    sort_by: Type.Optional(stringEnum(["created_at", "project"], "Sort key (default created_at)")),
    ...PageQuery,
  }),
  response: { 200: paginated(refTo(Project), "ProjectPage"), ...errorResponses(422) },
};

export const deleteProject = {
  summary: "Delete a project and all of its reports",
  tags: ["projects"],
  params: Type.Object({ project: Type.String({ minLength: 1, maxLength: 255 }) }),
  response: {
    200: Type.Object({
      id: Type.String(),
      object: Type.Literal("project"),
      deleted: Type.Literal(true),
      deleted_reports: Type.Integer({ minimum: 1 }),
      status: Type.Literal(200),
    }),
    ...errorResponses(404),
  },
};

export const ProjectDetail = Type.Object(
  {
    object: Type.Literal("project"),
    project: Type.String(),
    reports: Type.Integer({ minimum: 1 }),
    results: Type.Object(
      { good: Type.Integer(), decent: Type.Integer(), bad: Type.Integer() },
      { description: "The reports by the result of their latest complete analysis" },
    ),
    score: Type.Union([Type.Integer({ minimum: 0, maximum: 100 }), Type.Null()], {
      description: "Rounded mean of the reports' scores; null when none has a complete analysis",
    }),
    result: Type.Union([stringEnum(["good", "decent", "bad"]), Type.Null()]),
    created_at: Timestamp,
    last_generated_at: Type.Union([Timestamp, Type.Null()]),
    latest_crawl: Type.Union([refTo(Crawl), Type.Null()], { description: "The latest complete crawl" }),
    trend: Type.Array(
      Type.Object({
        crawl_id: Type.Integer(),
        finished_at: Timestamp,
        score: Type.Union([Type.Integer(), Type.Null()]),
        issues: Type.Object({ high: Type.Integer(), medium: Type.Integer(), low: Type.Integer() }),
        pages: Type.Object({ analysed: Type.Integer() }),
      }),
      { description: "The last 20 complete crawls of the project, oldest first" },
    ),
  },
  { $id: "ProjectDetail", title: "ProjectDetail" },
);

export const showProject = {
  summary: "Show a project: its reports by result, its score, its latest crawl and the trend of its crawls",
  tags: ["projects"],
  params: Type.Object({ project: Type.String({ minLength: 1, maxLength: 255 }) }),
  response: {
    200: Type.Object({ data: refTo(ProjectDetail), status: Type.Literal(200) }),
    ...errorResponses(404),
  },
};
