/**
 * The team pages over the real app on SQLite and PostgreSQL: an owner makes a team and invites (the link shown
 * once), the invited user joins through the link's page, sees the team without owner controls, the owner sees
 * the activity and removes them, after which the team is the 404 page for them; a stranger gets the 404 page,
 * a bad address and the last owner's demotion the page again with their message. A visitor who opens an
 * invitation link signs up or logs in and comes back to it (`next`, a same-origin path only: an absolute or
 * scheme-relative one is ignored). A private report of the team's workspace is every member's to open (its manage
 * link an editor's, not a viewer's), and no longer its creator's once they are removed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ReportStore } from "../../src/store/report-store.js";
import { databaseKinds, startApi, type TestApi } from "../helpers/api.js";
import { seedRow } from "../helpers/seed.js";
import { WebClient } from "../helpers/web-client.js";

describe.each(databaseKinds)("team pages on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startApi(kind);
  }, 120_000);
  afterAll(async () => {
    await api.close();
  });

  it("walks owner → invite → member joins → owner removes them", async () => {
    const owner = new WebClient(api.app);
    await owner.signUp("boss@example.com");
    const member = new WebClient(api.app);
    await member.signUp("helper@example.com");
    const stranger = new WebClient(api.app);
    await stranger.signUp("stranger@example.com");

    const tooLong = await owner.post("/teams", { name: "x".repeat(101) });
    expect(tooLong.statusCode).toBe(422);
    expect(tooLong.body).toContain("The name may not be longer than 100 characters.");
    const made = await owner.post("/teams", { name: "Agency <b>" });
    expect(made.statusCode).toBe(303);
    const teamPath = made.headers.location as string;
    expect(teamPath).toMatch(/^\/teams\/\d+$/);
    const page = await owner.get(teamPath);
    expect(page.body).toContain("<h1>Agency &#60;b&#62;</h1>");
    expect(page.body).toContain("Invitations");

    const badAddress = await owner.post(`${teamPath}/invitations`, { email: "nope", role: "editor" });
    expect(badAddress.statusCode).toBe(422);
    expect(badAddress.body).toContain("The email must be a valid e-mail address.");
    const invited = await owner.post(`${teamPath}/invitations`, {
      email: "helper@example.com",
      role: "viewer",
    });
    expect(invited.statusCode).toBe(200);
    const link = /id="invitation-link">([^<]+)</.exec(invited.body)?.[1] as string;
    expect(link).toMatch(/\/invitations\/accept\?token=[A-Za-z0-9_-]{43}$/);
    expect((await owner.get(teamPath)).body).not.toContain(link); // shown once

    const acceptPath = new URL(link).pathname + new URL(link).search;
    expect((await member.get(acceptPath)).body).toContain("Join the team");
    const visitor = await new WebClient(api.app).get(acceptPath);
    expect(visitor.statusCode).toBe(200);
    expect(visitor.body).toContain("with the e-mail address the invitation was sent to; you come back");
    const token = new URL(link).searchParams.get("token") as string;
    // The wrong user: the 404 page, nobody joins.
    expect((await stranger.post("/invitations/accept", { token })).statusCode).toBe(404);
    const joined = await member.post("/invitations/accept", { token });
    expect([joined.statusCode, joined.headers.location]).toEqual([303, teamPath]);
    const asViewer = await member.get(teamPath);
    expect(asViewer.body).toContain("You joined Agency &#60;b&#62; as viewer.");
    expect(asViewer.body).not.toContain("Invitations");
    expect(asViewer.body).not.toContain("Change role");
    expect(asViewer.body).toContain("Leave the team");
    expect((await member.post("/invitations/accept", { token })).statusCode).toBe(404); // used
    expect(
      (await member.post(`${teamPath}/invitations`, { email: "x@example.com", role: "viewer" })).statusCode,
    ).toBe(403);
    expect((await stranger.get(teamPath)).statusCode).toBe(404);
    expect((await owner.get("/teams")).body).toContain(`<a href="${teamPath}">Agency &#60;b&#62;</a>`);

    const ownerId = /\/teams\/\d+\/members\/(\d+)\/role/.exec((await owner.get(teamPath)).body)?.[1];
    const lastOwner = await owner.post(`${teamPath}/members/${ownerId}/role`, { role: "viewer" });
    expect(lastOwner.statusCode).toBe(422);
    expect(lastOwner.body).toContain("A team always has an owner");

    const withMember = (await owner.get(teamPath)).body;
    expect(withMember).toContain("invitation.accepted");
    const memberId = [...withMember.matchAll(/\/members\/(\d+)\/remove/g)]
      .map((match) => match[1])
      .find((id) => id !== ownerId);
    const removed = await owner.post(`${teamPath}/members/${memberId}/remove`);
    expect(removed.statusCode).toBe(303);
    expect((await member.get(teamPath)).statusCode).toBe(404);
  });

  it("opens a private report of the team's workspace for every member, and for nobody once removed", async () => {
    const owner = new WebClient(api.app);
    await owner.signUp("pages-owner@example.com");
    const viewer = new WebClient(api.app);
    await viewer.signUp("pages-viewer@example.com");
    const stranger = new WebClient(api.app);
    await stranger.signUp("pages-stranger@example.com");
    const teamPath = (await owner.post("/teams", { name: "Private pages" })).headers.location as string;
    const teamId = Number(teamPath.split("/").at(-1));
    const invited = await owner.post(`${teamPath}/invitations`, {
      email: "pages-viewer@example.com",
      role: "viewer",
    });
    const token = /token=([A-Za-z0-9_-]{43})/.exec(invited.body)?.[1] as string;
    expect((await viewer.post("/invitations/accept", { token })).statusCode).toBe(303);

    // The viewer made the report (as an editor, say), private (privacy 1), in the team's workspace.
    const creator = await api.accounts.findByEmail("pages-viewer@example.com");
    const report = await new ReportStore(api.database.store).insert({
      ...seedRow(creator?.id as number, {
        url: "https://client.example/pricing",
        score: 70,
        privacy: 1,
      }),
      team_id: teamId,
    });
    const path = `/reports/${report.id}`;
    const asOwner = await owner.get(path);
    expect(asOwner.statusCode).toBe(200);
    expect(asOwner.body).toContain(`href="${path}/manage"`);
    const asViewer = await viewer.get(path);
    expect(asViewer.statusCode).toBe(200);
    expect(asViewer.body).toContain("https://client.example/pricing");
    expect(asViewer.body).not.toContain(`href="${path}/manage"`);
    expect((await stranger.get(path)).statusCode).toBe(404);

    // The viewer removed: the 404 page at once, though they made it.
    const teamPage = (await owner.get(teamPath)).body;
    const viewerId = /pages-viewer@example\.com[\s\S]*?\/members\/(\d+)\/remove/.exec(teamPage)?.[1];
    expect((await owner.post(`${teamPath}/members/${viewerId}/remove`)).statusCode).toBe(303);
    expect((await viewer.get(path)).statusCode).toBe(404);
  });

  it("switches the workspace in the header: the team's lists, a viewer without write controls, stale forms refused", async () => {
    const owner = new WebClient(api.app);
    await owner.signUp("switch-owner@example.com");
    const viewer = new WebClient(api.app);
    await viewer.signUp("switch-viewer@example.com");
    // No team yet: no switcher.
    expect((await owner.get("/reports")).body).not.toContain('id="workspace-team"');
    const teamPath = (await owner.post("/teams", { name: "Switchers" })).headers.location as string;
    const teamId = teamPath.split("/").at(-1) as string;
    const invited = await owner.post(`${teamPath}/invitations`, {
      email: "switch-viewer@example.com",
      role: "viewer",
    });
    const token = /token=([A-Za-z0-9_-]{43})/.exec(invited.body)?.[1] as string;
    expect((await viewer.post("/invitations/accept", { token })).statusCode).toBe(303);

    // The owner switches to the team (back to the list the switcher was on) and makes a project there.
    const switched = await owner.post("/workspace", { team: teamId, next: "/account/webhooks/3" });
    expect([switched.statusCode, switched.headers.location]).toEqual([303, "/account/webhooks"]);
    expect((await owner.get("/reports")).body).toMatch(new RegExp(`<option value="${teamId}" selected>`));
    const staleToken = owner.cookies.get("pg_csrf") as string; // a form drawn in the owner's own workspace
    const refused = await api.app.inject({
      method: "POST",
      url: "/account/webhooks",
      headers: {
        cookie: [...owner.cookies].map(([name, value]) => `${name}=${value}`).join("; "),
        "content-type": "application/x-www-form-urlencoded",
      },
      payload: new URLSearchParams({
        _csrf: staleToken,
        url: "http://127.0.0.1:9/hook",
        events: "report.failed",
      }).toString(),
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.body).toContain("This form has expired");
    const made = await owner.post("/account/webhooks", {
      url: "http://127.0.0.1:9/hook",
      events: "report.failed",
    });
    expect(made.statusCode).toBe(200);
    expect((await owner.get("/account/webhooks")).body).toContain("http://127.0.0.1:9/hook");
    // Back in the owner's own workspace, the team's webhook is not listed.
    expect((await owner.post("/workspace", { team: "", next: "/account/webhooks" })).statusCode).toBe(303);
    expect((await owner.get("/account/webhooks")).body).not.toContain("http://127.0.0.1:9/hook");

    // A team one is not in: the 404 page, and a forged cookie is dropped (one's own workspace).
    const stranger = new WebClient(api.app);
    await stranger.signUp("switch-stranger@example.com");
    expect((await stranger.post("/workspace", { team: teamId })).statusCode).toBe(404);
    stranger.cookies.set("pg_workspace", teamId);
    const forged = await stranger.get("/account/webhooks");
    expect(forged.statusCode).toBe(200);
    expect(forged.body).not.toContain("http://127.0.0.1:9/hook");
    expect(stranger.cookies.has("pg_workspace")).toBe(false);

    // The viewer reads the team's webhooks without the form to add one; a write is a 403 page.
    await viewer.post("/workspace", { team: teamId });
    const list = await viewer.get("/account/webhooks");
    expect(list.body).toContain("http://127.0.0.1:9/hook");
    expect(list.body).not.toContain('action="/account/webhooks" novalidate');
    expect(list.body).toContain("You are a viewer in this team");
    expect((await viewer.get("/reports")).body).not.toContain('action="/reports" novalidate');
    expect((await viewer.get("/crawls")).body).not.toContain('action="/crawls" enctype');
    expect((await viewer.post("/account/webhooks", { url: "https://example.com/x" })).statusCode).toBe(403);

    // Removed, the viewer is back in their own workspace on the next request.
    const viewerId = /switch-viewer@example\.com[\s\S]*?\/members\/(\d+)\/remove/.exec(
      (await owner.get(teamPath)).body,
    )?.[1];
    expect((await owner.post(`${teamPath}/members/${viewerId}/remove`)).statusCode).toBe(303);
    const after = await viewer.get("/account/webhooks");
    expect(after.statusCode).toBe(200);
    expect(after.body).not.toContain("http://127.0.0.1:9/hook");
    expect(after.body).not.toContain('id="workspace-team"');
    expect(viewer.cookies.has("pg_workspace")).toBe(false);
  });

  it("brings a visitor back to the invitation page after signing up or logging in, and nowhere else", async () => {
    const owner = new WebClient(api.app);
    await owner.signUp("lead@example.com");
    const existing = new WebClient(api.app);
    await existing.signUp("returning@example.com");
    await existing.post("/logout");
    const teamPath = (await owner.post("/teams", { name: "Studio" })).headers.location as string;
    const invite = async (email: string) => {
      const invited = await owner.post(`${teamPath}/invitations`, { email, role: "editor" });
      const link = new URL(/id="invitation-link">([^<]+)</.exec(invited.body)?.[1] as string);
      return link.pathname + link.search;
    };

    // Signing up from the link's page.
    const newcomerPath = await invite("newcomer@example.com");
    const newcomer = new WebClient(api.app);
    const page = await newcomer.get(newcomerPath);
    const signUpHref = /<a href="(\/register\?next=[^"]+)">sign up<\/a>/.exec(page.body)?.[1] as string;
    expect(signUpHref).toBe(`/register?next=${encodeURIComponent(newcomerPath)}`);
    const form = await newcomer.get(signUpHref.replace(/&amp;/g, "&"));
    expect(form.body).toContain(`<input type="hidden" name="next" value="${newcomerPath}">`);
    const signedUp = await newcomer.post("/register", {
      email: "newcomer@example.com",
      password: "correct horse battery",
      next: newcomerPath,
    });
    expect([signedUp.statusCode, signedUp.headers.location]).toEqual([303, newcomerPath]);
    const back = await newcomer.get(newcomerPath);
    expect(back.body).toContain("Join the team");
    const joined = await newcomer.post("/invitations/accept", {
      token: new URL(newcomerPath, "http://x").searchParams.get("token") as string,
    });
    expect([joined.statusCode, joined.headers.location]).toEqual([303, teamPath]);

    // Logging in from the link's page.
    const returningPath = await invite("returning@example.com");
    const loginHref = /<a href="(\/login\?next=[^"]+)">Log in<\/a>/.exec(
      (await existing.get(returningPath)).body,
    )?.[1];
    expect(loginHref).toBe(`/login?next=${encodeURIComponent(returningPath)}`);
    const loggedIn = await existing.post("/login", {
      email: "returning@example.com",
      password: "correct horse battery",
      next: returningPath,
    });
    expect([loggedIn.statusCode, loggedIn.headers.location]).toEqual([303, returningPath]);
    expect((await existing.get(returningPath)).body).toContain("Join the team");

    // Anything but a path on this site is ignored: no open redirect.
    for (const next of [
      "https://evil.test/",
      "//evil.test/x",
      "/\\evil.test",
      "http:/evil.test",
      "javascript:alert(1)",
      " /x",
      // Dot segments that resolve to a scheme-relative path.
      "/..//evil.test",
      "/.//evil.test/x",
      "/a/..//evil.test",
      "/%2e%2e//evil.test",
    ]) {
      const visitor = new WebClient(api.app);
      expect((await visitor.get(`/login?next=${encodeURIComponent(next)}`)).body).not.toContain(
        'name="next"',
      );
      await existing.post("/logout");
      const answer = await existing.post("/login", {
        email: "returning@example.com",
        password: "correct horse battery",
        next,
      });
      expect([answer.statusCode, answer.headers.location], next).toEqual([303, "/reports"]);
    }
    const stranger = new WebClient(api.app);
    const foreignSignUp = await stranger.post("/register", {
      email: "elsewhere@example.com",
      password: "correct horse battery",
      next: "https://evil.test/welcome",
    });
    expect([foreignSignUp.statusCode, foreignSignUp.headers.location]).toEqual([303, "/account"]);
    // Signed in already, the log-in page sends the user on to a safe `next` at once.
    const onward = await stranger.get(`/login?next=${encodeURIComponent(returningPath)}`);
    expect([onward.statusCode, onward.headers.location]).toEqual([303, returningPath]);
  });
});
