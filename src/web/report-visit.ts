/**
 * Opening a report's pages as a visitor: the report page, its PDF, its history and its past analyses share one rule
 * (report-access.ts). Private is a 404 to others, a password page asks for its password until the access
 * cookie (scoped to the report's path, so it covers every page under it) is there, and only public pages may
 * be indexed.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import { ResourceNotFound } from "../errors.js";
import type { ReportAccess } from "../reports/report-access.js";
import type { DisplayRow } from "../store/report-store.js";
import { pathId } from "./path-id.js";
import { sendHtml } from "./render.js";
import { passwordFormBody } from "./views/reports.js";

/** The report a visitor may see, and whether the visitor owns it. */
export interface Visit {
  row: DisplayRow;
  owner: boolean;
}

/**
 * The visitor pages' side of the access seam: `hook` is the preHandler of every page under `/reports/{id}` a
 * visitor may open; it throws ResourceNotFound (error-handling.ts's 404 page) for a report the visitor may not
 * see or an id of the wrong shape, answers the password form itself (and the route never runs), and otherwise
 * leaves the visit for the handler, read with `of(request)`.
 */
export function reportVisits(access: ReportAccess) {
  const visits = new WeakMap<FastifyRequest, Visit>();
  const hook = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    const id = pathId((request.params as { id: string }).id);
    if (id === null) throw new ResourceNotFound();
    const view = await access.view(
      id,
      request.session?.account.id ?? null,
      request.cookies[accessCookie(id)],
    );
    if (view.kind === "missing") throw new ResourceNotFound();
    if (view.kind === "password") {
      reply.header("x-robots-tag", "noindex");
      return sendHtml(request, reply, "Protected report", passwordFormBody(request.csrfToken, id, null));
    }
    if (view.row.privacy !== 0) reply.header("x-robots-tag", "noindex");
    visits.set(request, { row: view.row, owner: view.owner });
    return undefined;
  };
  const of = (request: FastifyRequest): Visit => {
    const visit = visits.get(request);
    if (!visit) throw new Error(`${request.url} reads a visit without the visit hook`);
    return visit;
  };
  return { hook, of };
}

export type ReportVisits = ReturnType<typeof reportVisits>;

/** The cookie that holds a report's access token, scoped to that report's paths. */
export function accessCookie(id: number): string {
  return `pg_report_${id}`;
}

/** The paths the access cookie is set for: the report's pages, and its PDF (which no page path covers). */
export function accessCookiePaths(id: number): string[] {
  return [`/reports/${id}`, `/reports/${id}.pdf`];
}
