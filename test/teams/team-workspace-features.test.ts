/**
 * What a team workspace holds beyond reports, crawls and webhooks, on SQLite and PostgreSQL: its own branding
 * (`PUT /api/v1/branding?team={id}` sets the team's, never the member's own, and a viewer may not change it), and
 * its projects' crawl notification settings: the team's own, changed by its owners and editors (a viewer: 403),
 * recipients among its members (test/notifications/crawl-notifications.test.ts mails them).
 */
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, databaseKinds, startApi, type TestApi } from "../helpers/api.js";
import { html, type LocalServer, startServer } from "../helpers/local-server.js";
import { multipartBody } from "../helpers/multipart.js";

describe.each(databaseKinds)("a team workspace's branding and notifications on %s", (kind) => {
  let api: TestApi;
  let owner: string;
  let viewer: string;
  let teamId: number;
  let site: LocalServer;

  beforeAll(async () => {
    site = await startServer({ "/": html("<!doctype html><title>Home</title><h1>Home</h1>") });
    api = await startApi(kind);
    owner = await api.newUser("owner@example.com");
    viewer = await api.newUser("viewer@example.com");
    teamId = (await call(api, "POST", "/api/v1/teams", { key: owner, json: { name: "Agency" } })).json().data
      .id;
    const invitation = await call(api, "POST", `/api/v1/teams/${teamId}/invitations`, {
      key: owner,
      json: { email: "viewer@example.com", role: "viewer" },
    });
    const token = new URL(invitation.json().data.accept_url).searchParams.get("token");
    const accepted = await call(api, "POST", "/api/v1/invitations/accept", { key: viewer, json: { token } });
    expect(accepted.statusCode, accepted.body).toBe(200);
  });
  afterAll(async () => {
    await api?.close();
    await site?.close();
  });

  const putBrand = (key: string, query: string, name: string): Promise<LightMyRequestResponse> => {
    const { payload, contentType } = multipartBody({ brand_name: name }, {});
    return api.app.inject({
      method: "PUT",
      url: `/api/v1/branding${query}`,
      headers: { authorization: `Bearer ${key}`, "content-type": contentType, accept: "application/json" },
      payload,
    });
  };
  const brandName = async (key: string, query: string) =>
    (await call(api, "GET", `/api/v1/branding${query}`, { key })).json().data.brand_name;

  it("keeps a team's branding apart from its members' own", async () => {
    expect((await putBrand(owner, "", "Owner's own")).statusCode).toBe(200);
    const team = await putBrand(owner, `?team=${teamId}`, "Agency & Co");
    expect(team.statusCode, team.body).toBe(200);
    expect(await brandName(owner, "")).toBe("Owner's own");
    expect(await brandName(owner, `?team=${teamId}`)).toBe("Agency & Co");
    expect(await brandName(viewer, `?team=${teamId}`)).toBe("Agency & Co");
    expect(await brandName(viewer, "")).toBeNull();
  });

  it("refuses a viewer's change to the team's branding", async () => {
    const refused = await putBrand(viewer, `?team=${teamId}`, "Viewer's try");
    expect(refused.statusCode).toBe(403);
    expect(refused.json().role_needed).toBe("editor");
    expect(await brandName(owner, `?team=${teamId}`)).toBe("Agency & Co");
  });

  it("keeps a team project's crawl notifications its own, changed by its owners and editors, recipients among its members", async () => {
    const report = await call(api, "POST", `/api/v1/reports?team=${teamId}`, {
      key: owner,
      json: { url: `${site.url}/` },
    });
    expect([201, 202], report.body).toContain(report.statusCode);
    const project = report.json().data.project as string;
    const path = `/api/v1/projects/${encodeURIComponent(project)}/notifications`;
    const put = (key: string, query: string, json: unknown) =>
      call(api, "PUT", `${path}${query}`, { key, json });
    const saved = await put(owner, `?team=${teamId}`, {
      email_on: "completed",
      recipients: ["viewer@example.com", "OWNER@example.com"],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().data).toMatchObject({
      email_on: "completed",
      recipients: ["viewer@example.com", "owner@example.com"],
    });
    expect((await put(viewer, `?team=${teamId}`, { email_on: "never" })).statusCode).toBe(403);
    const shown = await call(api, "GET", `${path}?team=${teamId}`, { key: viewer });
    expect(shown.json().data.email_on).toBe("completed");
    // The team's project is not in the owner's own workspace: there, a 404.
    expect((await call(api, "GET", path, { key: owner })).statusCode).toBe(404);
  });
});
