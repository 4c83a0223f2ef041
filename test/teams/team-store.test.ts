/**
 * TeamStore and team-access on SQLite and PostgreSQL (migration 031): teams with their creator as owner, the
 * last-owner rule (also when two owners demote each other at once), invitations that are used once (also when
 * accepted by several requests at once) and only by their address, deleting a team with its workspace's rows,
 * activity and its purge, and membership read fresh on every call.
 */
import { createHash, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AccountService } from "../../src/accounts/account-service.js";
import { AccessDenied, ResourceNotFound } from "../../src/errors.js";
import { can, TeamAccess } from "../../src/teams/team-access.js";
import { LastOwner, TeamStore } from "../../src/teams/team-store.js";
import { timestamp } from "../../src/timestamps.js";
import { databaseKinds, freshDatabase, type TestDatabase } from "../helpers/api.js";
import { seedColumns } from "../helpers/seed.js";

const page = { limit: 100, offset: 0 };
const now = () => timestamp();
const inDays = (days: number) => timestamp(new Date(Date.now() + days * 86_400_000));
const digest = (token: string) => createHash("sha256").update(token).digest("hex");

describe("can", () => {
  it("lets viewers read, editors write, owners manage", () => {
    expect(["viewer", "editor", "owner"].map((role) => can(role as "viewer", "read"))).toEqual([
      true,
      true,
      true,
    ]);
    expect(["viewer", "editor", "owner"].map((role) => can(role as "viewer", "write"))).toEqual([
      false,
      true,
      true,
    ]);
    expect(["viewer", "editor", "owner"].map((role) => can(role as "viewer", "manage"))).toEqual([
      false,
      false,
      true,
    ]);
  });
});

describe.each(databaseKinds)("TeamStore on %s", (kind) => {
  let database: TestDatabase;
  let teams: TeamStore;
  let accounts: AccountService;
  let users = 0;
  const newUser = async () => {
    const email = `member${++users}@example.com`;
    return { id: (await accounts.createUser(email, null)).account.id, email };
  };

  beforeAll(async () => {
    database = await freshDatabase(kind);
    teams = new TeamStore(database.store);
    accounts = new AccountService(database.store);
  });
  afterAll(async () => {
    await database.drop();
  });

  it("makes the creator the only owner and lists a user's teams with their role", async () => {
    const ann = await newUser();
    const bob = await newUser();
    const team = await teams.create("Agency", ann.id, now());
    expect(team).toMatchObject({ name: "Agency", role: "owner", members: 1 });
    expect(await teams.role(ann.id, team.id)).toBe("owner");
    expect(await teams.role(bob.id, team.id)).toBe(null);
    expect(await teams.find(bob.id, team.id)).toBe(undefined);
    expect((await teams.list(bob.id, page)).total).toBe(0);
    await teams.rename(team.id, "Agency two", ann.id, now());
    const { rows, total } = await teams.list(ann.id, page);
    expect(total).toBe(1);
    expect(rows[0]).toMatchObject({ id: team.id, name: "Agency two", role: "owner", members: 1 });
  });

  it("never leaves a team without an owner", async () => {
    const ann = await newUser();
    const bob = await newUser();
    const team = await teams.create("Owners", ann.id, now());
    await expect(teams.changeRole(team.id, ann.id, "editor", ann.id, now())).rejects.toThrow(LastOwner);
    await expect(teams.removeMember(team.id, ann.id, ann.id, now())).rejects.toThrow(LastOwner);
    expect(await teams.changeRole(team.id, bob.id, "editor", ann.id, now())).toBe(false); // not a member

    await joinAs(team.id, bob, "owner", ann.id);
    // Two owners demoting each other at once: one wins, the other is refused.
    const outcomes = await Promise.allSettled([
      teams.changeRole(team.id, ann.id, "viewer", bob.id, now()),
      teams.changeRole(team.id, bob.id, "viewer", ann.id, now()),
    ]);
    expect(outcomes.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(1);
    expect(
      (outcomes.find((outcome) => outcome.status === "rejected") as PromiseRejectedResult).reason,
    ).toBeInstanceOf(LastOwner);
    const members = (await teams.members(team.id, page)).rows;
    expect(members.filter((member) => member.role === "owner")).toHaveLength(1);
  });

  it("removes a member at once", async () => {
    const ann = await newUser();
    const bob = await newUser();
    const team = await teams.create("Removal", ann.id, now());
    await joinAs(team.id, bob, "editor", ann.id);
    const access = new TeamAccess(teams);
    expect(await access.membership(bob.id, team.id)).toBe("editor");
    expect(await access.allow(bob.id, team.id, "write")).toBe("editor");
    await expect(access.allow(bob.id, team.id, "manage")).rejects.toEqual(new AccessDenied("owner"));
    expect(await teams.removeMember(team.id, bob.id, ann.id, now())).toBe(true);
    expect(await access.membership(bob.id, team.id)).toBe(null);
    await expect(access.allow(bob.id, team.id, "read")).rejects.toThrow(ResourceNotFound);
    expect(await teams.removeMember(team.id, bob.id, ann.id, now())).toBe(false);
  });

  it("lets an invitation be accepted once, by its address, while open", async () => {
    const ann = await newUser();
    const bob = await newUser();
    const eve = await newUser();
    const team = await teams.create("Invites", ann.id, now());
    const invite = (email: string, expiresAt = inDays(7)) => {
      const token = randomBytes(16).toString("hex");
      return teams
        .invite(
          { teamId: team.id, email, role: "viewer", digest: digest(token), invitedBy: ann.id },
          now(),
          expiresAt,
        )
        .then((row) => ({ ...row, token }));
    };

    const forBob = await invite(bob.email);
    expect((await teams.invitations(team.id, now(), page)).rows.map((row) => row.id)).toEqual([forBob.id]);
    expect(await teams.accept(digest(forBob.token), eve, now())).toBe(undefined); // wrong user
    expect(await teams.accept(digest("unknown"), bob, now())).toBe(undefined);
    // Several requests at once: exactly one joins.
    const accepted = await Promise.all(
      [1, 2, 3, 4].map(() => teams.accept(digest(forBob.token), bob, now())),
    );
    expect(accepted.filter(Boolean)).toEqual([{ teamId: team.id, role: "viewer" }]);
    expect(await teams.role(bob.id, team.id)).toBe("viewer");
    expect(await teams.accept(digest(forBob.token), bob, now())).toBe(undefined); // used
    expect((await teams.invitations(team.id, now(), page)).total).toBe(0);

    const revoked = await invite(eve.email);
    expect(await teams.revoke(team.id, revoked.id, ann.id, now())).toBe(true);
    expect(await teams.revoke(team.id, revoked.id, ann.id, now())).toBe(false);
    expect(await teams.accept(digest(revoked.token), eve, now())).toBe(undefined);

    const expired = await invite(eve.email, inDays(-1));
    expect(await teams.accept(digest(expired.token), eve, now())).toBe(undefined);
    expect((await teams.invitations(team.id, now(), page)).total).toBe(0);
    expect(await teams.role(eve.id, team.id)).toBe(null);

    const actions = (await teams.activity(team.id, page)).rows.map((row) => row.action);
    expect(actions).toEqual([
      "invitation.created",
      "invitation.revoked",
      "invitation.created",
      "invitation.accepted",
      "invitation.created",
      "team.created",
    ]);
  });

  it("deletes a team with everything in its workspace, and nothing of its members' own", async () => {
    const ann = await newUser();
    const team = await teams.create("Doomed", ann.id, now());
    const db = database.store.db;
    const insert = (teamId: number | null, url: string) =>
      db
        .insertInto("reports")
        .values({ ...seedColumns(ann.id, { url, score: 70 }), team_id: teamId })
        .returning("id")
        .executeTakeFirstOrThrow();
    const own = await insert(null, "https://own.example/");
    const teams_ = await insert(team.id, "https://team.example/");
    expect(await teams.delete(team.id)).toBe(true);
    expect(await teams.delete(team.id)).toBe(false);
    const left = await db.selectFrom("reports").select("id").where("id", "in", [own.id, teams_.id]).execute();
    expect(left.map((row) => row.id)).toEqual([own.id]);
    expect(await teams.role(ann.id, team.id)).toBe(null);
    expect((await teams.activity(team.id, page)).total).toBe(0);
  });

  it("keeps activity newest first and purges what is past its retention", async () => {
    const ann = await newUser();
    const team = await teams.create("Busy", ann.id, now());
    await teams.appendActivity({
      teamId: team.id,
      userId: ann.id,
      action: "report.created",
      target: "report 1",
      at: inDays(-91),
    });
    await teams.appendActivity({
      teamId: team.id,
      userId: ann.id,
      action: "report.deleted",
      target: "report 1",
      at: now(),
    });
    expect(await teams.purgeActivity(inDays(-90))).toBeGreaterThanOrEqual(1);
    const { rows } = await teams.activity(team.id, page);
    expect(rows.map((row) => [row.action, row.email])).toEqual([
      ["report.deleted", ann.email],
      ["team.created", ann.email],
    ]);
  });

  async function joinAs(
    teamId: number,
    user: { id: number; email: string },
    role: "owner" | "editor",
    by: number,
  ) {
    const token = randomBytes(16).toString("hex");
    await teams.invite(
      { teamId, email: user.email, role, digest: digest(token), invitedBy: by },
      now(),
      inDays(7),
    );
    expect(await teams.accept(digest(token), user, now())).toEqual({ teamId, role });
  }
});
