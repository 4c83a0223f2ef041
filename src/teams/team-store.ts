/**
 * Queries on teams, their members, invitations and activity (migration 031), the same on SQLite and PostgreSQL.
 * Membership is read from the database on every call (no cache here; TeamService.roleAndVersion puts a memory in
 * front of roleAndVersion that forgets on any change), so a removed member's next request is refused.
 *
 * Changes that must see a consistent team (a role change or removal that could leave it without an owner) start
 * their transaction by writing the team's row: that takes the row's lock on PostgreSQL and the database's write
 * lock on SQLite, so two such changes to one team run one after the other and the last-owner rule holds under
 * concurrency. Accepting an invitation is one conditional update (pending, unexpired, the caller's address), so a
 * token is used once however many requests race with it.
 */
import { type Kysely, sql, type Transaction } from "kysely";
import { ValidationFailed } from "../errors.js";
import type { Database, TeamRole } from "../store/schema.js";
import type { Store } from "../store/store.js";

export interface TeamRow {
  id: number;
  name: string;
  /** The asking user's role in it. */
  role: TeamRole;
  members: number;
  created_at: string;
}

export interface MemberRow {
  user_id: number;
  email: string;
  role: TeamRole;
  joined_at: string;
}

export interface InvitationRow {
  id: number;
  email: string;
  role: TeamRole;
  created_at: string;
  expires_at: string;
}

export interface ActivityRow {
  id: number;
  at: string;
  user_id: number | null;
  email: string | null;
  action: string;
  target: string;
}

export interface Page {
  limit: number;
  offset: number;
}

/** Removing or demoting a team's last owner: a rule break, 422 on `role` (or on `user_id` for a removal). */
export class LastOwner extends ValidationFailed {
  constructor(field: "role" | "user_id") {
    super({ [field]: ["A team always has an owner: make another member an owner first."] });
  }
}

/** One thing done in a team, for its activity. */
export interface ActivityEntry {
  teamId: number;
  userId: number | null;
  action: string;
  target: string;
  at: string;
}

/** A member's role and the team's reports version, read together. */
export interface RoleAndVersion {
  role: TeamRole;
  /** Raised by the database on every change to the team's reports and analyses (migration 038). */
  reportsVersion: number;
}

export class TeamStore {
  private readonly db: Kysely<Database>;
  /** The team's reports version: on PostgreSQL the counter plus its rows in team_report_changes (migration 038). */
  private readonly reportsVersion;

  /** The store it reads, for what remembers its answers (membership-memory.ts). */
  readonly store: Store;

  constructor(store: Store) {
    this.store = store;
    this.db = store.db;
    this.reportsVersion =
      store.dialect === "postgres"
        ? sql<number>`teams.reports_version + (select count(*) from team_report_changes where team_report_changes.team_id = teams.id)`
        : sql<number>`teams.reports_version`;
  }

  /** A new team with its creator as its only owner. */
  async create(name: string, userId: number, now: string): Promise<TeamRow> {
    return this.db.transaction().execute(async (trx) => {
      const team = await trx
        .insertInto("teams")
        .values({ name, created_at: now, updated_at: now })
        .returning(["id", "name", "created_at"])
        .executeTakeFirstOrThrow();
      await trx
        .insertInto("team_members")
        .values({ team_id: team.id, user_id: userId, role: "owner", joined_at: now })
        .execute();
      await appendActivity(trx, { teamId: team.id, userId, action: "team.created", target: name, at: now });
      return { ...team, role: "owner" as const, members: 1 };
    });
  }

  /** The user's role in the team; null when they are not a member (or the team does not exist). */
  async role(userId: number, teamId: number): Promise<TeamRole | null> {
    const row = await this.db
      .selectFrom("team_members")
      .select("role")
      .where("team_id", "=", teamId)
      .where("user_id", "=", userId)
      .executeTakeFirst();
    return row?.role ?? null;
  }

  /**
   * The user's role in the team and the team's reports version, in one statement (one snapshot); null when they
   * are not a member. What every request that names the team asks (the access seam), through TeamService's
   * membership memory (membership-memory.ts), which answers without this query while nothing changed.
   */
  async roleAndVersion(userId: number, teamId: number): Promise<RoleAndVersion | null> {
    const row = await this.db
      .selectFrom("team_members")
      .innerJoin("teams", "teams.id", "team_members.team_id")
      .select(["team_members.role", this.reportsVersion.as("reports_version")])
      .where("team_members.team_id", "=", teamId)
      .where("team_members.user_id", "=", userId)
      .executeTakeFirst();
    return row ? { role: row.role, reportsVersion: Number(row.reports_version) } : null;
  }

  /** The team as the member sees it; undefined for a non-member or an unknown team. */
  async find(userId: number, teamId: number): Promise<TeamRow | undefined> {
    const [row] = await this.teamsOf(userId, { limit: 1, offset: 0 }, teamId);
    return row;
  }

  /** The teams the user belongs to, oldest first, with their role and member count. */
  async list(userId: number, page: Page): Promise<{ rows: TeamRow[]; total: number }> {
    const [rows, count] = await Promise.all([
      this.teamsOf(userId, page),
      this.db
        .selectFrom("team_members")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("user_id", "=", userId)
        .executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.n) };
  }

  private async teamsOf(userId: number, page: Page, teamId?: number): Promise<TeamRow[]> {
    let query = this.db
      .selectFrom("team_members as mine")
      .innerJoin("teams", "teams.id", "mine.team_id")
      .select((eb) => [
        "teams.id",
        "teams.name",
        "mine.role",
        "teams.created_at",
        eb
          .selectFrom("team_members as all_members")
          .select((inner) => inner.fn.countAll<number>().as("n"))
          .whereRef("all_members.team_id", "=", "teams.id")
          .as("members"),
      ])
      .where("mine.user_id", "=", userId);
    if (teamId !== undefined) query = query.where("teams.id", "=", teamId);
    const rows = await query.orderBy("teams.id").limit(page.limit).offset(page.offset).execute();
    return rows.map((row) => ({ ...row, members: Number(row.members) }));
  }

  /**
   * The teams the user belongs to, oldest first, with their role: one indexed read of `team_members`
   * (`team_members_user`) joined to the teams' names, what the web's switcher asks on every page. At most `limit`.
   */
  async choices(userId: number, limit: number): Promise<Array<{ id: number; name: string; role: TeamRole }>> {
    return this.db
      .selectFrom("team_members")
      .innerJoin("teams", "teams.id", "team_members.team_id")
      .select(["teams.id", "teams.name", "team_members.role"])
      .where("team_members.user_id", "=", userId)
      .orderBy("teams.id")
      .limit(limit)
      .execute();
  }

  /** Every team, oldest first, with its member count and owners' addresses (for operators). */
  async all(
    page: Page,
  ): Promise<Array<{ id: number; name: string; members: number; owners: string[]; created_at: string }>> {
    const teams = await this.db
      .selectFrom("teams")
      .select(["id", "name", "created_at"])
      .orderBy("id")
      .limit(page.limit)
      .offset(page.offset)
      .execute();
    if (teams.length === 0) return [];
    const members = await this.db
      .selectFrom("team_members")
      .innerJoin("users", "users.id", "team_members.user_id")
      .select(["team_members.team_id", "team_members.role", "users.email"])
      .where(
        "team_members.team_id",
        "in",
        teams.map((team) => team.id),
      )
      .orderBy("users.email")
      .execute();
    return teams.map((team) => {
      const mine = members.filter((member) => member.team_id === team.id);
      const owners = mine.filter((member) => member.role === "owner").map((member) => member.email);
      return { ...team, members: mine.length, owners };
    });
  }

  async rename(teamId: number, name: string, userId: number, now: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.updateTable("teams").set({ name, updated_at: now }).where("id", "=", teamId).execute();
      await appendActivity(trx, { teamId, userId, action: "team.renamed", target: name, at: now });
    });
  }

  /** Deletes the team and everything in its workspace (foreign keys cascade). */
  async delete(teamId: number): Promise<boolean> {
    const result = await this.db.deleteFrom("teams").where("id", "=", teamId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async members(teamId: number, page: Page): Promise<{ rows: MemberRow[]; total: number }> {
    const [rows, total] = await Promise.all([
      membersOf(this.db, teamId)
        .orderBy("team_members.joined_at")
        .orderBy("team_members.user_id")
        .limit(page.limit)
        .offset(page.offset)
        .execute(),
      countInTeam(this.db, "team_members", teamId),
    ]);
    return { rows, total };
  }

  async member(teamId: number, userId: number): Promise<MemberRow | undefined> {
    return membersOf(this.db, teamId).where("team_members.user_id", "=", userId).executeTakeFirst();
  }

  /** Whether the user with this (lower-cased) address is a member of the team. */
  async hasMember(teamId: number, email: string): Promise<boolean> {
    const row = await this.db
      .selectFrom("team_members")
      .innerJoin("users", "users.id", "team_members.user_id")
      .select("team_members.user_id")
      .where("team_members.team_id", "=", teamId)
      .where("users.email", "=", email)
      .executeTakeFirst();
    return row !== undefined;
  }

  /**
   * Changes a member's role; false when they are not a member. Demoting the last owner throws LastOwner.
   * `actorId` is who did it, for the activity.
   */
  changeRole(teamId: number, userId: number, role: TeamRole, actorId: number, now: string): Promise<boolean> {
    return this.changeMember(teamId, userId, role, actorId, now);
  }

  /** Removes a member; false when they are not one. Removing the last owner throws LastOwner. */
  removeMember(teamId: number, userId: number, actorId: number, now: string): Promise<boolean> {
    return this.changeMember(teamId, userId, null, actorId, now);
  }

  /** Gives the member a new role, or removes them (null), keeping an owner, with its activity. */
  private changeMember(
    teamId: number,
    userId: number,
    role: TeamRole | null,
    actorId: number,
    now: string,
  ): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const current = await lockedMember(trx, teamId, userId, now);
      if (!current) return false;
      if (current.role === role) return true;
      if (current.role === "owner" && (await owners(trx, teamId)) <= 1) {
        throw new LastOwner(role === null ? "user_id" : "role");
      }
      if (role === null) {
        await trx
          .deleteFrom("team_members")
          .where("team_id", "=", teamId)
          .where("user_id", "=", userId)
          .execute();
      } else {
        await trx
          .updateTable("team_members")
          .set({ role })
          .where("team_id", "=", teamId)
          .where("user_id", "=", userId)
          .execute();
      }
      await appendActivity(trx, {
        teamId,
        userId: actorId,
        action: role === null ? "member.removed" : "member.role_changed",
        target: role === null ? current.email : `${current.email}: ${role}`,
        at: now,
      });
      return true;
    });
  }

  async invite(
    invitation: { teamId: number; email: string; role: TeamRole; digest: string; invitedBy: number },
    now: string,
    expiresAt: string,
  ): Promise<InvitationRow> {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto("team_invitations")
        .values({
          team_id: invitation.teamId,
          email: invitation.email,
          role: invitation.role,
          digest: invitation.digest,
          invited_by: invitation.invitedBy,
          created_at: now,
          expires_at: expiresAt,
        })
        .returning(["id", "email", "role", "created_at", "expires_at"])
        .executeTakeFirstOrThrow();
      await appendActivity(trx, {
        teamId: invitation.teamId,
        userId: invitation.invitedBy,
        action: "invitation.created",
        target: `${invitation.email}: ${invitation.role}`,
        at: now,
      });
      return row;
    });
  }

  /** The team's open invitations (neither accepted, revoked nor expired), newest first. */
  async invitations(
    teamId: number,
    now: string,
    page: Page,
  ): Promise<{ rows: InvitationRow[]; total: number }> {
    const open = this.db
      .selectFrom("team_invitations")
      .where("team_id", "=", teamId)
      .where("accepted_at", "is", null)
      .where("revoked_at", "is", null)
      .where("expires_at", ">", now);
    const [rows, count] = await Promise.all([
      open
        .select(["id", "email", "role", "created_at", "expires_at"])
        .orderBy("id", "desc")
        .limit(page.limit)
        .offset(page.offset)
        .execute(),
      open.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.n) };
  }

  /** Revokes an open invitation of the team; false when there is none with that id. */
  async revoke(teamId: number, invitationId: number, actorId: number, now: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const revoked = await trx
        .updateTable("team_invitations")
        .set({ revoked_at: now })
        .where("id", "=", invitationId)
        .where("team_id", "=", teamId)
        .where("accepted_at", "is", null)
        .where("revoked_at", "is", null)
        .where("expires_at", ">", now)
        .returning("email")
        .executeTakeFirst();
      if (!revoked) return false;
      await appendActivity(trx, {
        teamId,
        userId: actorId,
        action: "invitation.revoked",
        target: revoked.email,
        at: now,
      });
      return true;
    });
  }

  /**
   * Accepts the invitation whose token has this digest for the user with this (lower-cased) address: the user
   * joins with the invited role (a member already keeps theirs). Undefined, with nothing changed, when the token
   * is unknown, used, revoked, expired or meant for another address.
   */
  async accept(
    digest: string,
    user: { id: number; email: string },
    now: string,
  ): Promise<{ teamId: number; role: TeamRole } | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const taken = await trx
        .updateTable("team_invitations")
        .set({ accepted_at: now, accepted_by: user.id })
        .where("digest", "=", digest)
        .where("email", "=", user.email)
        .where("accepted_at", "is", null)
        .where("revoked_at", "is", null)
        .where("expires_at", ">", now)
        .returning(["team_id", "role"])
        .executeTakeFirst();
      if (!taken) return undefined;
      await trx
        .insertInto("team_members")
        .values({ team_id: taken.team_id, user_id: user.id, role: taken.role, joined_at: now })
        .onConflict((conflict) => conflict.columns(["team_id", "user_id"]).doNothing())
        .execute();
      await appendActivity(trx, {
        teamId: taken.team_id,
        userId: user.id,
        action: "invitation.accepted",
        target: `${user.email}: ${taken.role}`,
        at: now,
      });
      const role = await trx
        .selectFrom("team_members")
        .select("role")
        .where("team_id", "=", taken.team_id)
        .where("user_id", "=", user.id)
        .executeTakeFirstOrThrow();
      return { teamId: taken.team_id, role: role.role };
    });
  }

  async appendActivity(entry: ActivityEntry): Promise<void> {
    await appendActivity(this.db, entry);
  }

  /** The team's activity, newest first, with each actor's address (null once they are deleted). */
  async activity(teamId: number, page: Page): Promise<{ rows: ActivityRow[]; total: number }> {
    const [rows, total] = await Promise.all([
      this.db
        .selectFrom("team_activity")
        .leftJoin("users", "users.id", "team_activity.user_id")
        .select([
          "team_activity.id",
          "team_activity.at",
          "team_activity.user_id",
          "users.email",
          "team_activity.action",
          "team_activity.target",
        ])
        .where("team_activity.team_id", "=", teamId)
        .orderBy("team_activity.id", "desc")
        .limit(page.limit)
        .offset(page.offset)
        .execute(),
      countInTeam(this.db, "team_activity", teamId),
    ]);
    return { rows, total };
  }

  /** Deletes activity older than `before` (the 90-day retention); how many rows went. */
  async purgeActivity(before: string): Promise<number> {
    const result = await this.db.deleteFrom("team_activity").where("at", "<", before).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}

async function appendActivity(db: Kysely<Database>, entry: ActivityEntry): Promise<void> {
  await db
    .insertInto("team_activity")
    .values({
      team_id: entry.teamId,
      user_id: entry.userId,
      at: entry.at,
      action: entry.action,
      target: entry.target,
    })
    .execute();
}

/**
 * The member's role, after writing the team's row (its lock on PostgreSQL, the write lock on SQLite) so that
 * changes to one team's members run one at a time; undefined when they are not a member.
 */
async function lockedMember(
  trx: Transaction<Database>,
  teamId: number,
  userId: number,
  now: string,
): Promise<MemberRow | undefined> {
  await trx.updateTable("teams").set({ updated_at: now }).where("id", "=", teamId).execute();
  return membersOf(trx, teamId).where("team_members.user_id", "=", userId).executeTakeFirst();
}

/** The team's members with their addresses, as MemberRow. */
function membersOf(db: Kysely<Database>, teamId: number) {
  return db
    .selectFrom("team_members")
    .innerJoin("users", "users.id", "team_members.user_id")
    .select(["team_members.user_id", "users.email", "team_members.role", "team_members.joined_at"])
    .where("team_members.team_id", "=", teamId);
}

/** How many rows of the table belong to the team. */
async function countInTeam(
  db: Kysely<Database>,
  table: "team_members" | "team_activity",
  teamId: number,
): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("team_id", "=", teamId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function owners(trx: Transaction<Database>, teamId: number): Promise<number> {
  const row = await trx
    .selectFrom("team_members")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("team_id", "=", teamId)
    .where("role", "=", "owner")
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
