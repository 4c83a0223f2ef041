/**
 * Teams as every face uses them (contract part 4 "Teams"): create and list a user's teams, rename and delete
 * (owners), members and their roles, invitations by e-mail address with a one-time token (shown once, mailed
 * when mail is set up, stored only as its digest, valid 7 days), accepting one, and the activity. Each call
 * checks the caller's membership afresh (team-access.ts): a non-member gets ResourceNotFound, exactly as for a team
 * that does not exist; a role too low gets AccessDenied.
 */
import { createHash, randomBytes } from "node:crypto";
import { isEmailAddress } from "../accounts/account-service.js";
import { ResourceNotFound, ValidationFailed } from "../errors.js";
import type { MailOutbox } from "../mail/mail-outbox.js";
import type { TeamRole } from "../store/schema.js";
import { timestamp } from "../timestamps.js";
import { type MembershipMemory, membershipMemoryFor, throughMemory } from "./membership-memory.js";
import { TeamAccess, type TeamAction } from "./team-access.js";
import type { InvitationRow, Page, RoleAndVersion, TeamRow, TeamStore } from "./team-store.js";

export const invitationLifetimeMs = 7 * 24 * 3600_000;
export const activityRetentionMs = 90 * 24 * 3600_000;
export const teamNameMaxLength = 100;

/** The signed-in user, as teams need them. */
export interface TeamUser {
  id: number;
  email: string;
}

export interface CreatedInvitation {
  invitation: InvitationRow;
  /** The one-time link, shown once. */
  acceptUrl: string;
  /** Whether it was mailed (mail is set up). */
  mailed: boolean;
}

export class TeamService {
  private readonly access: TeamAccess;
  private readonly memberships: MembershipMemory | null;

  constructor(
    readonly store: TeamStore,
    private readonly mail: MailOutbox,
  ) {
    this.access = new TeamAccess(store);
    this.memberships = membershipMemoryFor(store.store);
  }

  /** The user's role in the team, fresh from the database; null for a non-member (the workspace seam's). */
  membership(userId: number, teamId: number): Promise<TeamRole | null> {
    return this.access.membership(userId, teamId);
  }

  /**
   * The teams a user belongs to with their role in each (id, name, role), oldest first, fresh from the database:
   * the web's workspace switcher, on every signed-in page. At most `limit`.
   */
  choices(userId: number, limit: number): Promise<Array<{ id: number; name: string; role: TeamRole }>> {
    return this.store.choices(userId, limit);
  }

  /**
   * The user's role in the team with the team's reports version (what the response cache keys a team's answers
   * by); null for a non-member. The workspace seam asks it once per request. Answered from the membership memory
   * when it is certainly current (membership-memory.ts: any write on SQLite, migration 040's notices and a fence
   * on PostgreSQL), else from the database, so a removed member's next request is refused all the same.
   */
  roleAndVersion(userId: number, teamId: number): Promise<RoleAndVersion | null> {
    return throughMemory(this.memberships, userId, teamId, () => this.store.roleAndVersion(userId, teamId));
  }

  /** Records a change a member made in the team's workspace (the access seam calls it after each write). */
  recordChange(change: { teamId: number; userId: number; action: string; target: string }): Promise<void> {
    return this.store.appendActivity({ ...change, at: timestamp() });
  }

  async create(user: TeamUser, name: string): Promise<TeamRow> {
    return this.store.create(teamName(name), user.id, timestamp());
  }

  list(user: TeamUser, page: Page) {
    return this.store.list(user.id, page);
  }

  /** The team as the member sees it. */
  async show(user: TeamUser, teamId: number): Promise<TeamRow> {
    const team = await this.store.find(user.id, teamId);
    if (!team) throw new ResourceNotFound();
    return team;
  }

  async rename(user: TeamUser, teamId: number, name: string): Promise<TeamRow> {
    await this.allow(user, teamId, "manage");
    await this.store.rename(teamId, teamName(name), user.id, timestamp());
    return this.show(user, teamId);
  }

  async delete(user: TeamUser, teamId: number): Promise<void> {
    await this.allow(user, teamId, "manage");
    if (!(await this.store.delete(teamId))) throw new ResourceNotFound();
  }

  async members(user: TeamUser, teamId: number, page: Page) {
    await this.allow(user, teamId, "read");
    return this.store.members(teamId, page);
  }

  async changeRole(user: TeamUser, teamId: number, memberId: number, role: TeamRole) {
    await this.allow(user, teamId, "manage");
    if (!(await this.store.changeRole(teamId, memberId, role, user.id, timestamp())))
      throw new ResourceNotFound();
    const member = await this.store.member(teamId, memberId);
    if (!member) throw new ResourceNotFound();
    return member;
  }

  /** Owners remove anyone; any member may remove themself (leave). */
  async removeMember(user: TeamUser, teamId: number, memberId: number): Promise<void> {
    await this.allow(user, teamId, memberId === user.id ? "read" : "manage");
    if (!(await this.store.removeMember(teamId, memberId, user.id, timestamp())))
      throw new ResourceNotFound();
  }

  /**
   * Invites an address with a role: the accept link (on `baseUrl` unless mail is set up, then on the public
   * URL) is returned once and mailed when mail is set up.
   */
  async invite(
    user: TeamUser,
    teamId: number,
    input: { email: string; role: TeamRole },
    baseUrl: string,
  ): Promise<CreatedInvitation> {
    await this.allow(user, teamId, "manage");
    const email = input.email.toLowerCase();
    if (!isEmailAddress(email))
      throw ValidationFailed.of("email", "The email must be a valid e-mail address.");
    if (await this.store.hasMember(teamId, email))
      throw ValidationFailed.of("email", `${email} is already a member of the team.`);
    const token = randomBytes(32).toString("base64url");
    const now = new Date();
    const invitation = await this.store.invite(
      { teamId, email, role: input.role, digest: invitationDigest(token), invitedBy: user.id },
      timestamp(now),
      timestamp(new Date(now.getTime() + invitationLifetimeMs)),
    );
    const path = `/invitations/accept?token=${token}`;
    if (!this.mail.isSetUp) return { invitation, acceptUrl: `${baseUrl}${path}`, mailed: false };
    const acceptUrl = this.mail.link(path);
    const team = await this.show(user, teamId);
    await this.mail.send("team-invitation", null, {
      to: email,
      subject: `${user.email} invites you to the team ${team.name} on pagegrade`,
      paragraphs: [
        `${user.email} invites you to join the team ${team.name} on pagegrade as ${input.role}.`,
        "Sign in (or sign up) with this e-mail address and open the link below. It works once, within 7 days.",
      ],
      link: { label: "Join the team", url: acceptUrl },
      footer: "If you did not expect this, ignore this mail: nothing happens unless the link is used.",
    });
    return { invitation, acceptUrl, mailed: true };
  }

  async invitations(user: TeamUser, teamId: number, page: Page) {
    await this.allow(user, teamId, "manage");
    return this.store.invitations(teamId, timestamp(), page);
  }

  async revoke(user: TeamUser, teamId: number, invitationId: number): Promise<void> {
    await this.allow(user, teamId, "manage");
    if (!(await this.store.revoke(teamId, invitationId, user.id, timestamp()))) throw new ResourceNotFound();
  }

  /** Joins the signed-in user to the invitation's team; ResourceNotFound for any token they may not use. */
  async accept(user: TeamUser, token: string): Promise<TeamRow> {
    const accepted = await this.store.accept(invitationDigest(token), user, timestamp());
    if (!accepted) throw new ResourceNotFound();
    return this.show(user, accepted.teamId);
  }

  async activity(user: TeamUser, teamId: number, page: Page) {
    await this.allow(user, teamId, "manage");
    return this.store.activity(teamId, page);
  }

  /** The maintenance task: activity past its 90 days goes. */
  async purgeActivity(now: number): Promise<void> {
    await this.store.purgeActivity(timestamp(new Date(now - activityRetentionMs)));
  }

  private allow(user: TeamUser, teamId: number, action: TeamAction): Promise<TeamRole> {
    return this.access.allow(user.id, teamId, action);
  }
}

/** The name trimmed, or ValidationFailed on `name` (required, at most 100 characters). */
export function teamName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === "") throw ValidationFailed.of("name", "The name field is required.");
  if ([...trimmed].length > teamNameMaxLength) {
    throw ValidationFailed.of("name", `The name may not be longer than ${teamNameMaxLength} characters.`);
  }
  return trimmed;
}

export function invitationDigest(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}
