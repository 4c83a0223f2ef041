/**
 * Opening a report's pages as a visitor: the report page, its PDF, its history and its past analyses share one rule
 * (report-access.ts, through shared-visit.ts). The access cookie is scoped to the report's path, so it covers
 * every page under it, and to its PDF.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import type { ReportAccess } from "../reports/report-access.js";
import type { DisplayRow } from "../store/report-store.js";
import { type SharedPage, visitShared } from "./shared-visit.js";

export const reportPages: SharedPage = {
  what: "report",
  cookie: (id) => `pg_report_${id}`,
  // A cookie's path covers /reports/{id} and what is under it, not /reports/{id}.pdf: that gets its own.
  cookiePaths: (id) => [`/reports/${id}`, `/reports/${id}.pdf`],
  unlockPath: (id) => `/reports/${id}/unlock`,
  home: (id) => `/reports/${id}`,
};

/** The report the visitor may see, or null once the 404 or the password form has been sent. */
export function visitReport(
  access: ReportAccess,
  request: FastifyRequest,
  reply: FastifyReply,
  rawId: string,
): Promise<{ row: DisplayRow; owner: boolean } | null> {
  return visitShared(access, reportPages, request, reply, rawId);
}
