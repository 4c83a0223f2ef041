/**
 * Who may see a shared page (a report's, a crawl's audit). Public (0): anyone. Private (1): its owner; everyone
 * else gets "missing", exactly as for a page that does not exist. Password (2): the owner, or whoever holds an
 * access token for the current password — an HMAC of the scope, the id and the password hash, so changing the
 * password revokes every token. Wrong passwords are limited per page and client address.
 *
 * The owner of a page in a team's workspace is the team: every current member sees it, and only editors and
 * owners are shown its owner's links (managing it, where the team's workspace then decides); its creator is
 * owner only while a member, so a member removed loses the page at once, like everyone else's.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { verifyPassword } from "../accounts/passwords.js";
import type { RateLimiter } from "../limits/rate-limiter.js";
import type { TeamRole } from "../store/schema.js";
import { can } from "../teams/team-access.js";
import { privacyLevels } from "./privacy-change.js";

/** What a gate needs of the row it guards. */
export interface GatedRow {
  id: number;
  user_id: number;
  team_id: number | null;
  privacy: number;
  password_hash: string | null;
}

export type PageAccess<Row extends GatedRow> =
  | { kind: "show"; row: Row; owner: boolean }
  | { kind: "password"; row: Row }
  | { kind: "missing" };

export type UnlockOutcome =
  | { kind: "unlocked"; token: string }
  | { kind: "wrong" }
  | { kind: "locked"; retryAfterSeconds: number }
  | { kind: "missing" };

export class PasswordGate<Row extends GatedRow> {
  constructor(
    private readonly find: (id: number) => Promise<Row | undefined>,
    private readonly secret: string,
    private readonly attempts: RateLimiter,
    /** Told apart in tokens and attempt counts: "" for reports (their tokens predate other scopes), "crawl". */
    private readonly scope: string,
    /** The viewer's role in a team, null for a non-member (read fresh, or from memory kept current). */
    private readonly roleIn: (userId: number, teamId: number) => Promise<TeamRole | null>,
  ) {}

  async view(id: number, viewerId: number | null, token: string | undefined): Promise<PageAccess<Row>> {
    const row = await this.find(id);
    if (!row) return { kind: "missing" };
    if (viewerId !== null && row.team_id !== null) {
      const role = await this.roleIn(viewerId, row.team_id);
      if (role !== null) return { kind: "show", row, owner: can(role, "write") };
    }
    const owner = viewerId !== null && row.team_id === null && row.user_id === viewerId;
    if (owner || row.privacy === privacyLevels.public) return { kind: "show", row, owner };
    if (row.privacy === privacyLevels.password && row.password_hash) {
      return token !== undefined && this.tokenMatches(row, token)
        ? { kind: "show", row, owner: false }
        : { kind: "password", row };
    }
    return { kind: "missing" };
  }

  async unlock(id: number, password: string, clientAddress: string): Promise<UnlockOutcome> {
    const row = await this.find(id);
    if (!row || row.privacy !== privacyLevels.password || !row.password_hash) return { kind: "missing" };
    // Only wrong passwords count; once five have been tried, even the right one waits for the window to end.
    const attemptKey = `${this.prefix()}${id}:${clientAddress}`;
    const locked = await this.attempts.exhausted(attemptKey);
    if (locked) return { kind: "locked", retryAfterSeconds: locked.retryAfterSeconds };
    if (!(await verifyPassword(password, row.password_hash))) {
      await this.attempts.hit(attemptKey);
      return { kind: "wrong" };
    }
    return { kind: "unlocked", token: this.tokenFor(row) };
  }

  private prefix(): string {
    return this.scope ? `${this.scope}:` : "";
  }

  private tokenFor(row: Row): string {
    return createHmac("sha256", this.secret)
      .update(`${this.prefix()}${row.id}:${row.password_hash}`)
      .digest("base64url");
  }

  private tokenMatches(row: Row, token: string): boolean {
    const expected = Buffer.from(this.tokenFor(row));
    const actual = Buffer.from(token);
    return expected.length === actual.length && timingSafeEqual(expected, actual);
  }
}
