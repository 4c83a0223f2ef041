/**
 * Opening a report's pages as a visitor: the report page, its PDF, its history and its past analyses share one rule
 * (report-access.ts), through shared-visit.ts's hook. The access cookie is scoped to the report's path, so it
 * covers every page under it, and to its PDF.
 */
import type { ReportAccess } from "../reports/report-access.js";
import type { DisplayRow } from "../store/report-store.js";
import { type SharedPage, type SharedVisit, sharedVisits } from "./shared-visit.js";

/** The report a visitor may see, and whether the visitor owns it. */
export type Visit = SharedVisit<DisplayRow>;

export const reportPages: SharedPage = {
  what: "report",
  cookie: (id) => `pg_report_${id}`,
  // A cookie's path covers /reports/{id} and what is under it, not /reports/{id}.pdf: that gets its own.
  cookiePaths: (id) => [`/reports/${id}`, `/reports/${id}.pdf`],
  unlockPath: (id) => `/reports/${id}/unlock`,
  home: (id) => `/reports/${id}`,
  indexPublic: true,
};

/** The report pages' visits: `hook` (preHandler), `of(request)` and `unlock` (the password form's answer). */
export function reportVisits(access: ReportAccess) {
  return sharedVisits(access, reportPages);
}

export type ReportVisits = ReturnType<typeof reportVisits>;
