/**
 * /api/v1/teams end to end on SQLite and PostgreSQL (contract part 4 "Teams"): create, list, show, rename and
 * delete; members, role changes and the last owner; invitations (shown once, accepted once by their address
 * only, revoked, mailed when mail is set up); activity; a non-member's 404 identical to an unknown team's, a
 * role too low a 403 naming the role needed; removal ending access at the next request; quotas on team creation
 * and invitations.
 */
import type { LightMyRequestResponse } from "fastify";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, databaseKinds, startApi, type TestApi } from "../helpers/api.js";
import { startTestSmtp, type TestSmtp } from "../helpers/smtp.js";

/** A problem body without what differs between any two requests. */
const problemOf = (response: LightMyRequestResponse) => {
  const { request_id: _id, instance: _instance, ...rest } = response.json();
  return rest;
};

const tokenOf = (acceptUrl: string) => new URL(acceptUrl).searchParams.get("token") as string;

describe.each(databaseKinds)("teams API on %s", (kind) => {
  let api: TestApi;
  let owner: string;
  let editor: string;
  let viewer: string;
  let stranger: string;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    api = await startApi(kind);
    owner = await api.newUser("owner@example.com");
    editor = await api.newUser("editor@example.com");
    viewer = await api.newUser("viewer@example.com");
    stranger = await api.newUser("stranger@example.com");
    for (const [name, key] of Object.entries({ owner, editor, viewer, stranger })) {
      ids[name] = (await call(api, "GET", "/api/v1/account", { key })).json().data.id;
    }
  });
  afterAll(async () => {
    await api.close();
  });

  const invite = async (teamId: number, email: string, role: string) => {
    const response = await call(api, "POST", `/api/v1/teams/${teamId}/invitations`, {
      key: owner,
      json: { email, role },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data;
  };
  const join = async (teamId: number, key: string, email: string, role: string) => {
    const invitation = await invite(teamId, email, role);
    const accepted = await call(api, "POST", "/api/v1/invitations/accept", {
      key,
      json: { token: tokenOf(invitation.accept_url) },
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    return accepted.json().data;
  };
  const newTeam = async (name = "Agency") => {
    const response = await call(api, "POST", "/api/v1/teams", { key: owner, json: { name } });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data.id as number;
  };

  it("creates a team with its creator as owner and lists it for members only", async () => {
    const created = await call(api, "POST", "/api/v1/teams", {
      key: owner,
      form: { name: "  Client sites  " },
    });
    expect(created.statusCode).toBe(201);
    const team = created.json().data;
    expect(team).toMatchObject({ object: "team", name: "Client sites", role: "owner", members: 1 });
    expect(created.headers.location).toBe(`/api/v1/teams/${team.id}`);
    const mine = (await call(api, "GET", "/api/v1/teams", { key: owner })).json();
    expect(mine.data.map((item: { id: number }) => item.id)).toContain(team.id);
    const theirs = (await call(api, "GET", "/api/v1/teams", { key: stranger })).json();
    expect(theirs.data.map((item: { id: number }) => item.id)).not.toContain(team.id);
  });

  it("validates names with precise messages", async () => {
    const missing = await call(api, "POST", "/api/v1/teams", { key: owner, json: { name: "   " } });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors.name).toEqual(["The name field is required."]);
    const long = await call(api, "POST", "/api/v1/teams", { key: owner, json: { name: "x".repeat(101) } });
    expect(long.statusCode).toBe(422);
    expect(long.json().errors.name[0]).toMatch(/100 characters/);
  });

  it("answers a non-member exactly as an unknown team, and a role too low with 403 naming the role", async () => {
    const teamId = await newTeam();
    await join(teamId, viewer, "viewer@example.com", "viewer");
    const hidden = await call(api, "GET", `/api/v1/teams/${teamId}`, { key: stranger });
    const unknown = await call(api, "GET", "/api/v1/teams/999999", { key: stranger });
    expect(hidden.statusCode).toBe(404);
    expect(problemOf(hidden)).toEqual(problemOf(unknown));
    for (const path of ["members", "invitations", "activity"]) {
      expect((await call(api, "GET", `/api/v1/teams/${teamId}/${path}`, { key: stranger })).statusCode).toBe(
        404,
      );
    }

    expect((await call(api, "GET", `/api/v1/teams/${teamId}`, { key: viewer })).json().data.role).toBe(
      "viewer",
    );
    expect((await call(api, "GET", `/api/v1/teams/${teamId}/members`, { key: viewer })).statusCode).toBe(200);
    const refused = [
      await call(api, "PATCH", `/api/v1/teams/${teamId}`, { key: viewer, json: { name: "Mine now" } }),
      await call(api, "DELETE", `/api/v1/teams/${teamId}`, { key: viewer }),
      await call(api, "POST", `/api/v1/teams/${teamId}/invitations`, {
        key: viewer,
        json: { email: "friend@example.com", role: "owner" },
      }),
      await call(api, "GET", `/api/v1/teams/${teamId}/activity`, { key: viewer }),
      await call(api, "PATCH", `/api/v1/teams/${teamId}/members/${ids.viewer}`, {
        key: viewer,
        json: { role: "owner" },
      }),
    ];
    for (const response of refused) {
      expect(response.statusCode).toBe(403);
      expect(response.json().type).toMatch(/\/problems\/forbidden$/);
      expect(response.json()).toMatchObject({
        role_needed: "owner",
        detail: "This needs the owner role in the team.",
      });
    }
    expect((await call(api, "GET", `/api/v1/teams/${teamId}`, { key: owner })).json().data.name).toBe(
      "Agency",
    );
  });

  it("lets an invitation be accepted once, only by the signed-in user with its address", async () => {
    const teamId = await newTeam();
    const invitation = await invite(teamId, "Editor@Example.com", "editor");
    expect(invitation).toMatchObject({ object: "invitation", email: "editor@example.com", role: "editor" });
    expect(invitation.accept_url).toMatch(/^http:\/\/localhost(:\d+)?\/invitations\/accept\?token=/);
    const listed = (await call(api, "GET", `/api/v1/teams/${teamId}/invitations`, { key: owner })).json();
    expect(listed.data).toEqual([
      expect.objectContaining({ id: invitation.id, email: "editor@example.com" }),
    ]);
    expect(JSON.stringify(listed)).not.toContain(tokenOf(invitation.accept_url));

    const token = tokenOf(invitation.accept_url);
    const wrongUser = await call(api, "POST", "/api/v1/invitations/accept", {
      key: stranger,
      json: { token },
    });
    expect(wrongUser.statusCode).toBe(404);
    const accepted = await call(api, "POST", "/api/v1/invitations/accept", { key: editor, json: { token } });
    expect(accepted.json().data).toMatchObject({ id: teamId, role: "editor", members: 2 });
    const again = await call(api, "POST", "/api/v1/invitations/accept", { key: editor, json: { token } });
    expect(again.statusCode).toBe(404);
    expect((await call(api, "GET", `/api/v1/teams/${teamId}`, { key: stranger })).statusCode).toBe(404);

    const revoked = await invite(teamId, "stranger@example.com", "viewer");
    const revoke = await call(api, "DELETE", `/api/v1/teams/${teamId}/invitations/${revoked.id}`, {
      key: owner,
    });
    expect(revoke.json()).toMatchObject({ id: revoked.id, object: "invitation", deleted: true });
    expect(
      (await call(api, "DELETE", `/api/v1/teams/${teamId}/invitations/${revoked.id}`, { key: owner }))
        .statusCode,
    ).toBe(404);
    const afterRevoke = await call(api, "POST", "/api/v1/invitations/accept", {
      key: stranger,
      json: { token: tokenOf(revoked.accept_url) },
    });
    expect(afterRevoke.statusCode).toBe(404);

    const badEmail = await call(api, "POST", `/api/v1/teams/${teamId}/invitations`, {
      key: owner,
      json: { email: "not an address", role: "viewer" },
    });
    expect(badEmail.json().errors.email).toEqual(["The email must be a valid e-mail address."]);
    const badRole = await call(api, "POST", `/api/v1/teams/${teamId}/invitations`, {
      key: owner,
      json: { email: "a@example.com", role: "admin" },
    });
    expect(badRole.statusCode).toBe(422);
    expect(Object.keys(badRole.json().errors)).toEqual(["role"]);
    const member = await call(api, "POST", `/api/v1/teams/${teamId}/invitations`, {
      key: owner,
      json: { email: "editor@example.com", role: "viewer" },
    });
    expect(member.json().errors.email).toEqual(["editor@example.com is already a member of the team."]);
  });

  it("keeps an owner, changes roles, and ends a removed member's access at once", async () => {
    const teamId = await newTeam();
    await join(teamId, editor, "editor@example.com", "editor");
    const demoteLast = await call(api, "PATCH", `/api/v1/teams/${teamId}/members/${ids.owner}`, {
      key: owner,
      json: { role: "viewer" },
    });
    expect(demoteLast.statusCode).toBe(422);
    expect(demoteLast.json().errors.role[0]).toMatch(/always has an owner/);
    const removeLast = await call(api, "DELETE", `/api/v1/teams/${teamId}/members/${ids.owner}`, {
      key: owner,
    });
    expect(removeLast.statusCode).toBe(422);

    const changed = await call(api, "PATCH", `/api/v1/teams/${teamId}/members/${ids.editor}`, {
      key: owner,
      json: { role: "viewer" },
    });
    expect(changed.json().data).toMatchObject({ object: "member", user_id: ids.editor, role: "viewer" });
    const members = (await call(api, "GET", `/api/v1/teams/${teamId}/members`, { key: editor })).json().data;
    expect(members.map((row: { email: string; role: string }) => [row.email, row.role])).toEqual([
      ["owner@example.com", "owner"],
      ["editor@example.com", "viewer"],
    ]);
    const unknownMember = await call(api, "PATCH", `/api/v1/teams/${teamId}/members/${ids.stranger}`, {
      key: owner,
      json: { role: "viewer" },
    });
    expect(unknownMember.statusCode).toBe(404);

    const removed = await call(api, "DELETE", `/api/v1/teams/${teamId}/members/${ids.editor}`, {
      key: owner,
    });
    expect(removed.json()).toMatchObject({ id: ids.editor, object: "member", deleted: true });
    expect((await call(api, "GET", `/api/v1/teams/${teamId}`, { key: editor })).statusCode).toBe(404);

    // A member may leave on their own.
    await join(teamId, viewer, "viewer@example.com", "viewer");
    expect(
      (await call(api, "DELETE", `/api/v1/teams/${teamId}/members/${ids.viewer}`, { key: viewer }))
        .statusCode,
    ).toBe(200);
    expect((await call(api, "GET", `/api/v1/teams/${teamId}/members`, { key: viewer })).statusCode).toBe(404);

    const activity = (await call(api, "GET", `/api/v1/teams/${teamId}/activity`, { key: owner })).json().data;
    expect(activity[0]).toMatchObject({
      object: "activity",
      action: "member.removed",
      email: "viewer@example.com",
    });
    expect(activity.map((entry: { action: string }) => entry.action)).toEqual([
      "member.removed",
      "invitation.accepted",
      "invitation.created",
      "member.removed",
      "member.role_changed",
      "invitation.accepted",
      "invitation.created",
      "team.created",
    ]);
  });

  it.runIf(kind === "postgres")(
    "records a change in the activity before answering it, however slow the activity's write",
    async () => {
      const teamId = await newTeam();
      // A real, slow write: each activity row now takes 300 ms to insert.
      await sql`create or replace function pagegrade_test_slow_activity() returns trigger language plpgsql as
        $$ begin perform pg_sleep(0.3); return new; end $$`.execute(api.database.store.db);
      await sql`create trigger slow_activity before insert on team_activity
        for each row execute function pagegrade_test_slow_activity()`.execute(api.database.store.db);
      try {
        const hook = await call(api, "POST", `/api/v1/webhooks?team=${teamId}`, {
          key: owner,
          json: { url: "http://127.0.0.1:9/pagegrade", events: ["report.completed"] },
        });
        expect(hook.statusCode, hook.body).toBe(201);
        const activity = (await call(api, "GET", `/api/v1/teams/${teamId}/activity`, { key: owner })).json()
          .data;
        expect(activity[0]).toMatchObject({
          action: "webhook.created",
          target: "/api/v1/webhooks",
          user_id: ids.owner,
        });
      } finally {
        await sql`drop trigger slow_activity on team_activity`.execute(api.database.store.db);
      }
    },
  );

  it("renames and deletes a team, owners only", async () => {
    const teamId = await newTeam("Old name");
    await join(teamId, editor, "editor@example.com", "editor");
    expect((await call(api, "DELETE", `/api/v1/teams/${teamId}`, { key: editor })).statusCode).toBe(403);
    const renamed = await call(api, "PATCH", `/api/v1/teams/${teamId}`, {
      key: owner,
      json: { name: "New name" },
    });
    expect(renamed.json().data).toMatchObject({ name: "New name", members: 2 });
    const deleted = await call(api, "DELETE", `/api/v1/teams/${teamId}`, { key: owner });
    expect(deleted.json()).toEqual({ id: teamId, object: "team", deleted: true, status: 200 });
    expect((await call(api, "GET", `/api/v1/teams/${teamId}`, { key: owner })).statusCode).toBe(404);
    expect((await call(api, "DELETE", `/api/v1/teams/${teamId}`, { key: owner })).statusCode).toBe(404);
  });
});

describe.each(databaseKinds)("team quotas and invitation mail on %s", (kind) => {
  let smtp: TestSmtp;
  let api: TestApi;

  beforeAll(async () => {
    smtp = await startTestSmtp();
    api = await startApi(kind, {
      PAGEGRADE_TEAM_RATE_LIMIT: "2",
      PAGEGRADE_INVITATION_RATE_LIMIT: "1",
      PAGEGRADE_SMTP_URL: smtp.url,
      PAGEGRADE_MAIL_FROM: "pagegrade@example.com",
      PAGEGRADE_PUBLIC_URL: "https://pagegrade.test/",
    });
  });
  afterAll(async () => {
    await api.close();
    await smtp.close();
  });

  it("limits team creation and invitations per user, and mails the accept link", async () => {
    const key = await api.newUser("boss@example.com");
    const made = [];
    for (const name of ["One", "Two", "Three"]) {
      made.push(await call(api, "POST", "/api/v1/teams", { key, json: { name } }));
    }
    expect(made.map((response) => response.statusCode)).toEqual([201, 201, 429]);
    expect(made[2]?.json().limit).toMatchObject({ name: "team-creations", max: 2 });
    // Another user has quotas of their own.
    expect(
      (await call(api, "POST", "/api/v1/teams", { key: await api.newUser(), json: { name: "x" } }))
        .statusCode,
    ).toBe(201);

    const teamId = made[0]?.json().data.id;
    const first = await call(api, "POST", `/api/v1/teams/${teamId}/invitations`, {
      key,
      json: { email: "new@example.com", role: "editor" },
    });
    expect(first.json().data).toMatchObject({ mailed: true });
    expect(first.json().data.accept_url).toMatch(/^https:\/\/pagegrade\.test\/invitations\/accept\?token=/);
    const mails = await api.database.store.db
      .selectFrom("mail_messages")
      .select(["purpose", "recipient", "text_body"])
      .execute();
    expect(mails).toEqual([
      expect.objectContaining({ purpose: "team-invitation", recipient: "new@example.com" }),
    ]);
    expect(mails[0]?.text_body).toContain(first.json().data.accept_url);
    const second = await call(api, "POST", `/api/v1/teams/${teamId}/invitations`, {
      key,
      json: { email: "other@example.com", role: "editor" },
    });
    expect(second.statusCode).toBe(429);
  });
});
