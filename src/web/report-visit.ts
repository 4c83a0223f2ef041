/**
 * Opening a report's pages as a visitor: the report page, its PDF, its history and its past analyses share one rule
 * (report-access.ts). Private is a 404 to others, a password page asks for its password until the access
 * cookie (scoped to the report's path, so it covers every page under it) is there, and only public pages may
 * be indexed.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import type { ReportAccess } from "../reports/report-access.js";
import type { DisplayRow } from "../store/report-store.js";
import { pathId } from "./path-id.js";
import { notFoundPage, sendHtml } from "./render.js";
import { passwordFormBody } from "./views/reports.js";

/** The report the visitor may see, or null once the 404 or the password form has been sent. */
export async function visitReport(
  access: ReportAccess,
  request: FastifyRequest,
  reply: FastifyReply,
  rawId: string,
): Promise<{ row: DisplayRow; owner: boolean } | null> {
  const id = pathId(rawId);
  if (id === null) {
    await notFoundPage(request, reply);
    return null;
  }
  const view = await access.view(id, request.session?.account.id ?? null, request.cookies[accessCookie(id)]);
  if (view.kind === "missing") {
    await notFoundPage(request, reply);
    return null;
  }
  if (view.kind === "password") {
    reply.header("x-robots-tag", "noindex");
    await sendHtml(request, reply, "Protected report", passwordFormBody(request.csrfToken, id, null));
    return null;
  }
  if (view.row.privacy !== 0) reply.header("x-robots-tag", "noindex");
  return { row: view.row, owner: view.owner };
}

/** The cookie that holds a report's access token, scoped to that report's paths. */
export function accessCookie(id: number): string {
  return `pg_report_${id}`;
}

/** The paths the access cookie is set for: the report's pages, and its PDF (which no page path covers). */
export function accessCookiePaths(id: number): string[] {
  return [`/reports/${id}`, `/reports/${id}.pdf`];
}
