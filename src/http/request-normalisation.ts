/**
 * Before validation: strings are trimmed and an empty string counts as absent; integer parameters sent as
 * decimal strings (forms, query strings) become numbers, but only in their plain form ("1", never "01",
 * "1.0" or "+1"), so the schema refuses the rest; the same goes for the {id}, {analysis}, {user_id} and {invitation_id} path parameters. A missing body on
 * POST/PUT/PATCH is an empty set of fields.
 */
import type { FastifyRequest } from "fastify";

const integerFields = new Set([
  "privacy",
  "results",
  "page",
  "per_page",
  "id",
  "analysis",
  "from",
  "to",
  "enabled",
  "max_pages",
  "max_depth",
  "sitemaps",
  "status",
  "user_id",
  "invitation_id",
]);
const plainInteger = /^(0|[1-9][0-9]{0,14})$/;

export async function normaliseRequest(request: FastifyRequest): Promise<void> {
  if (request.params && typeof request.params === "object")
    normaliseFields(request.params as Record<string, unknown>);
  if (request.query && typeof request.query === "object")
    normaliseFields(request.query as Record<string, unknown>);
  if (request.body === undefined || request.body === null) {
    if (request.method !== "GET" && request.method !== "DELETE") request.body = {};
  } else if (typeof request.body === "object" && !Array.isArray(request.body)) {
    normaliseFields(request.body as Record<string, unknown>);
  }
}

function normaliseFields(fields: Record<string, unknown>): void {
  for (const [name, value] of Object.entries(fields)) {
    if (typeof value !== "string") continue;
    const trimmed = value.trim();
    if (trimmed === "") delete fields[name];
    else if (integerFields.has(name) && plainInteger.test(trimmed)) fields[name] = Number(trimmed);
    else fields[name] = trimmed;
  }
}
