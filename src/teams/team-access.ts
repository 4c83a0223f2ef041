/**
 * What a user may do in a team's workspace: their role, read from the database on every call (no cache, so a
 * removed member's next request is refused), and what each role allows. The workspace seam (`team={id}` on every
 * part 1–3 endpoint) asks `membership` (or `allow`) once per request and `can` before each write or management
 * step; a non-member is answered exactly like an unknown team (errors.ts ResourceNotFound, 404), a role too low
 * with AccessDenied (403, naming the role needed).
 */
import { AccessDenied, ResourceNotFound } from "../errors.js";
import type { TeamRole } from "../store/schema.js";
import type { TeamStore } from "./team-store.js";

export type TeamAction = "read" | "write" | "manage";

/** The least role each action needs: viewers read, editors also write, owners also manage. */
export const roleNeeded: Record<TeamAction, TeamRole> = { read: "viewer", write: "editor", manage: "owner" };

const rank: Record<TeamRole, number> = { viewer: 0, editor: 1, owner: 2 };

export function can(role: TeamRole, action: TeamAction): boolean {
  return rank[role] >= rank[roleNeeded[action]];
}

export class TeamAccess {
  constructor(private readonly teams: Pick<TeamStore, "role">) {}

  /** The user's role in the team, fresh from the database; null when they are not a member. */
  membership(userId: number, teamId: number): Promise<TeamRole | null> {
    return this.teams.role(userId, teamId);
  }

  /** The user's role when it allows the action; throws ResourceNotFound for a non-member, AccessDenied below it. */
  async allow(userId: number, teamId: number, action: TeamAction): Promise<TeamRole> {
    const role = await this.membership(userId, teamId);
    if (role === null) throw new ResourceNotFound();
    if (!can(role, action)) throw new AccessDenied(roleNeeded[action]);
    return role;
  }
}
