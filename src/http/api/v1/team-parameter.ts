/**
 * The `team` query parameter in the OpenAPI document: every endpoint that acts in a workspace (reports, analyses,
 * projects, crawls, webhooks, branding, notifications, exports: api-contract part 4) takes `team={id}`, read by
 * the access seam (access.ts) rather than by each route's schema, so it is added to the document here, once, for
 * every operation outside the paths that name no workspace (the account, teams and invitations, the checks
 * catalogue). Documentation only: the seam keeps its rule (a value naming no team of the caller's is a 404).
 */

/** Paths whose operations act in no workspace (they take no `team`). */
const outsideWorkspaces = [
  "/api/v1/account",
  "/api/v1/teams",
  "/api/v1/invitations",
  "/api/v1/checks",
  "/api/v1/openapi.json",
];

export const teamParameter = {
  name: "team",
  in: "query",
  required: false,
  description:
    "Act in this team's workspace (you must be a member; viewers may only read). Without it: your own workspace. A team you are not in is a 404, a write by a viewer a 403.",
  schema: { type: "integer", minimum: 1 },
} as const;

interface Operation {
  parameters?: Array<{ name: string; in: string; [field: string]: unknown }>;
}

/** The OpenAPI document with `team` among the query parameters of every workspace operation. */
export function withTeamParameter<Doc extends { paths?: Record<string, unknown> }>(doc: Doc): Doc {
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    if (outsideWorkspaces.some((prefix) => path === prefix || path.startsWith(`${prefix}/`))) continue;
    for (const [method, operation] of Object.entries(item as Record<string, Operation>)) {
      if (!["get", "post", "put", "patch", "delete"].includes(method)) continue;
      const parameters = operation.parameters ?? [];
      if (parameters.some((parameter) => parameter.in === "query" && parameter.name === "team")) continue;
      operation.parameters = [...parameters, { ...teamParameter, schema: { ...teamParameter.schema } }];
    }
  }
  return doc;
}
