/**
 * Schemas shared by the API's operations: enums, the problem object, the paginator envelope. The routes
 * validate with them and the OpenAPI document is generated from them, so the two cannot drift apart.
 */
import { type Static, type TSchema, Type } from "typebox";

/** A `$ref` to a named schema (one with an `$id`), typed as the schema it names. */
export function refTo<T extends TSchema>(schema: T) {
  const id = (schema as { $id?: unknown }).$id;
  if (typeof id !== "string") throw new Error("refTo needs a schema with an $id");
  return Type.Unsafe<Static<T>>(Type.Ref(id));
}

export const stringEnum = <T extends string>(values: readonly T[], description?: string) =>
  Type.Unsafe<T>({ type: "string", enum: [...values], ...(description ? { description } : {}) });

export const integerEnum = <T extends number>(values: readonly T[], description?: string) =>
  Type.Unsafe<T>({ type: "integer", enum: [...values], ...(description ? { description } : {}) });

export const perPageValues = [10, 25, 50, 100] as const;
export const sortValues = ["desc", "asc"] as const;

export const Timestamp = Type.String({
  description: "ISO-8601 UTC with microseconds",
  examples: ["2026-11-20T10:15:30.000000Z"],
});

export const Problem = Type.Object(
  {
    type: Type.String(),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
    message: Type.String(),
    errors: Type.Optional(Type.Record(Type.String(), Type.Array(Type.String()))),
    reason: Type.Optional(Type.String({ description: "Why a URL could not be analysed" })),
    limit: Type.Optional(
      Type.Object(
        {
          name: Type.String({
            description:
              "analyses, crawl-starts, pings, pdfs, team-creations, invitations, event-streams, crawls or requests",
          }),
          max: Type.Integer(),
          window_seconds: Type.Union([Type.Integer(), Type.Null()], {
            description: "The window the limit counts over; null for a limit on what is open at once",
          }),
        },
        { description: "On 429: the limit that was reached" },
      ),
    ),
    retry_after: Type.Optional(Type.Integer({ description: "On 429: seconds to wait, as in Retry-After" })),
    role_needed: Type.Optional(Type.String({ description: "On 403: the team role the call needs" })),
    instance: Type.String(),
    request_id: Type.String(),
  },
  { $id: "Problem", title: "Problem" },
);

const ProblemRef = refTo(Problem);

/** The error responses every authenticated operation may give, plus the ones named. */
export function errorResponses(...statuses: number[]): Record<number, TSchema> {
  const out: Record<number, TSchema> = {};
  // 400: a request the server cannot even route (a malformed percent-encoding in the path). 403 and 404: in a
  // team's workspace (`team={id}`), a viewer's write, and a team the caller is not a member of.
  for (const status of [400, 401, 403, 404, 429, 500, ...statuses]) out[status] = ProblemRef;
  return out;
}

const PageLink = Type.Object({
  url: Type.Union([Type.String(), Type.Null()]),
  label: Type.String(),
  active: Type.Boolean(),
});

/** The Laravel paginator envelope around a list of items. */
export function paginated(item: TSchema, title: string) {
  return Type.Object(
    {
      data: Type.Array(item),
      links: Type.Object({
        first: Type.String(),
        last: Type.String(),
        prev: Type.Union([Type.String(), Type.Null()]),
        next: Type.Union([Type.String(), Type.Null()]),
      }),
      meta: Type.Object({
        current_page: Type.Integer(),
        from: Type.Union([Type.Integer(), Type.Null()]),
        last_page: Type.Integer(),
        links: Type.Array(PageLink),
        path: Type.String(),
        per_page: Type.Integer(),
        to: Type.Union([Type.Integer(), Type.Null()]),
        total: Type.Integer(),
      }),
      status: Type.Literal(200),
    },
    { title },
  );
}

export const PageQuery = {
  per_page: Type.Optional(integerEnum(perPageValues, "Results per page (default 10)")),
  page: Type.Optional(Type.Integer({ minimum: 1, description: "Page number, from 1" })),
  sort: Type.Optional(stringEnum(sortValues, "Sort direction (default desc)")),
};
