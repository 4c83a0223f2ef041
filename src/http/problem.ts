/**
 * Error responses: RFC 9457 problem objects that also carry the `message` key Laravel clients read, sent as
 * application/problem+json with the request id. Messages are ours; a 5xx never carries exception text.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import type { QuotaRefusal } from "../limits/quotas.js";

export interface Problem {
  status: number;
  type: string;
  title: string;
  detail: string;
  errors?: Record<string, string[]>;
  /** Extra members (a failure reason, …). */
  extra?: Record<string, unknown>;
}

export const problems = {
  unauthenticated: (): Problem => ({
    status: 401,
    type: "/problems/unauthenticated",
    title: "Unauthenticated",
    detail: "Unauthenticated.",
  }),
  notFound: (): Problem => ({
    status: 404,
    type: "/problems/not-found",
    title: "Not found",
    detail: "Resource not found.",
  }),
  /** A team member whose role is too low (contract part 4): names the role needed. */
  forbidden: (roleNeeded: string): Problem => ({
    status: 403,
    type: "/problems/forbidden",
    title: "Forbidden",
    detail: `This needs the ${roleNeeded} role in the team.`,
    extra: { role_needed: roleNeeded },
  }),
  methodNotAllowed: (): Problem => ({
    status: 405,
    type: "/problems/method-not-allowed",
    title: "Method not allowed",
    detail: "The method is not allowed for this resource.",
  }),
  conflict: (detail: string): Problem => ({
    status: 409,
    type: "/problems/conflict",
    title: "Conflict",
    detail,
  }),
  badRequest: (detail: string): Problem => ({
    status: 400,
    type: "/problems/bad-request",
    title: "Bad request",
    detail,
  }),
  tooLarge: (limit: number): Problem => ({
    status: 413,
    type: "/problems/payload-too-large",
    title: "Payload too large",
    detail: `The request body may not be larger than ${byteSize(limit)}.`,
  }),
  unsupportedMediaType: (): Problem => ({
    status: 415,
    type: "/problems/unsupported-media-type",
    title: "Unsupported media type",
    detail: "Send the body as application/x-www-form-urlencoded or application/json.",
  }),
  validation: (errors: Record<string, string[]>, extra?: Record<string, unknown>): Problem => ({
    status: 422,
    type: "/problems/validation",
    title: "Validation failed",
    detail: Object.values(errors)[0]?.[0] ?? "The given data was invalid.",
    errors,
    ...(extra ? { extra } : {}),
  }),
  /** With a refusal, the body names the limit (`limit`: name, max, window) and says when to retry. */
  tooManyRequests: (refusal?: QuotaRefusal, detail = "Too Many Attempts."): Problem => ({
    status: 429,
    type: "/problems/too-many-requests",
    title: "Too many requests",
    detail,
    ...(refusal
      ? {
          extra: {
            limit: { name: refusal.name, max: refusal.limit, window_seconds: refusal.windowSeconds },
            retry_after: refusal.retryAfterSeconds,
          },
        }
      : {}),
  }),
  /** Any other rule of the domain broken: its status, its stable code as the type, its message. */
  domain: (status: number, code: string, detail: string): Problem => ({
    status,
    type: `/problems/${code.replaceAll("_", "-")}`,
    title: detail,
    detail,
  }),
  internal: (): Problem => ({
    status: 500,
    type: "/problems/internal",
    title: "Internal server error",
    detail: "An unexpected error has occurred.",
  }),
  unavailable: (): Problem => ({
    status: 503,
    type: "/problems/unavailable",
    title: "Service unavailable",
    detail: "Analysis capacity is full; try again shortly.",
  }),
};

export function sendProblem(request: FastifyRequest, reply: FastifyReply, problem: Problem): FastifyReply {
  const body = {
    type: problem.type,
    title: problem.title,
    status: problem.status,
    detail: problem.detail,
    message: problem.detail,
    ...(problem.errors ? { errors: problem.errors } : {}),
    ...problem.extra,
    instance: request.url.split("?")[0],
    request_id: request.id,
  };
  return reply
    .code(problem.status)
    .type("application/problem+json; charset=utf-8")
    .send(JSON.stringify(body));
}

/** A byte count as the limits are spoken of: `1 MiB`, `16 KiB`, else bytes. */
export function byteSize(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}
