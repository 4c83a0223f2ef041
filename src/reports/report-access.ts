/**
 * Who may see a report page: the password gate (password-gate.ts) over the report's display row.
 */
import type { RateLimiter } from "../limits/rate-limiter.js";
import type { DisplayRow, ReportStore } from "../store/report-store.js";
import type { TeamRole } from "../store/schema.js";
import { type PageAccess, PasswordGate } from "./password-gate.js";

export type { UnlockOutcome } from "./password-gate.js";
export type ReportPageAccess = PageAccess<DisplayRow>;

export class ReportAccess extends PasswordGate<DisplayRow> {
  constructor(
    reports: ReportStore,
    secret: string,
    attempts: RateLimiter,
    roleIn: (userId: number, teamId: number) => Promise<TeamRole | null>,
  ) {
    super((id) => reports.findForPage(id), secret, attempts, "", roleIn);
  }
}
