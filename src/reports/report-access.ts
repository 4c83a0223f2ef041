/**
 * Who may see a report page. Public (0): anyone. Private (1): its owner; everyone else gets "missing", exactly
 * as for a report that does not exist. Password (2): the owner, or whoever holds an access token for the
 * report's current password — an HMAC of the report id and the password hash, so changing the password revokes
 * every token. Wrong passwords are limited per report and client address.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { verifyPassword } from "../accounts/passwords.js";
import type { RateLimiter } from "../limits/rate-limiter.js";
import type { DisplayRow, ReportStore } from "../store/report-store.js";
import { privacyLevels } from "./report-service.js";

export type ReportPageAccess =
  | { kind: "show"; row: DisplayRow; owner: boolean }
  | { kind: "password"; row: DisplayRow }
  | { kind: "missing" };

export type UnlockOutcome =
  | { kind: "unlocked"; token: string }
  | { kind: "wrong" }
  | { kind: "locked"; retryAfterSeconds: number }
  | { kind: "missing" };

export class ReportAccess {
  constructor(
    private readonly reports: ReportStore,
    private readonly secret: string,
    private readonly attempts: RateLimiter,
  ) {}

  async view(id: number, viewerId: number | null, token: string | undefined): Promise<ReportPageAccess> {
    const row = await this.reports.findForPage(id);
    if (!row) return { kind: "missing" };
    const owner = viewerId !== null && row.user_id === viewerId;
    if (owner || row.privacy === privacyLevels.public) return { kind: "show", row, owner };
    if (row.privacy === privacyLevels.password && row.password_hash) {
      return token !== undefined && this.tokenMatches(row, token)
        ? { kind: "show", row, owner: false }
        : { kind: "password", row };
    }
    return { kind: "missing" };
  }

  async unlock(id: number, password: string, clientAddress: string): Promise<UnlockOutcome> {
    const row = await this.reports.findForPage(id);
    if (!row || row.privacy !== privacyLevels.password || !row.password_hash) return { kind: "missing" };
    // Only wrong passwords count; once five have been tried, even the right one waits for the window to end.
    const attemptKey = `${id}:${clientAddress}`;
    const locked = await this.attempts.exhausted(attemptKey);
    if (locked) return { kind: "locked", retryAfterSeconds: locked.retryAfterSeconds };
    if (!(await verifyPassword(password, row.password_hash))) {
      await this.attempts.hit(attemptKey);
      return { kind: "wrong" };
    }
    return { kind: "unlocked", token: this.tokenFor(row) };
  }

  private tokenFor(row: DisplayRow): string {
    return createHmac("sha256", this.secret).update(`${row.id}:${row.password_hash}`).digest("base64url");
  }

  private tokenMatches(row: DisplayRow, token: string): boolean {
    const expected = Buffer.from(this.tokenFor(row));
    const actual = Buffer.from(token);
    return expected.length === actual.length && timingSafeEqual(expected, actual);
  }
}
