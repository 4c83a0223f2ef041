/** A team, member, invitation and activity entry as the API shows them (contract part 4 "Teams"). */
import type { ActivityRow, InvitationRow, MemberRow, TeamRow } from "../../../../teams/team-store.js";

export function teamObject(row: TeamRow) {
  return {
    object: "team" as const,
    id: row.id,
    name: row.name,
    role: row.role,
    members: row.members,
    created_at: row.created_at,
  };
}

export function memberObject(row: MemberRow) {
  return {
    object: "member" as const,
    user_id: row.user_id,
    email: row.email,
    role: row.role,
    joined_at: row.joined_at,
  };
}

export function invitationObject(row: InvitationRow) {
  return {
    object: "invitation" as const,
    id: row.id,
    email: row.email,
    role: row.role,
    created_at: row.created_at,
    expires_at: row.expires_at,
  };
}

export function activityObject(row: ActivityRow) {
  return {
    object: "activity" as const,
    at: row.at,
    user_id: row.user_id,
    email: row.email,
    action: row.action,
    target: row.target,
  };
}
