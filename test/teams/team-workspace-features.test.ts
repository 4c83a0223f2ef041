/**
 * What a team workspace holds beyond reports, crawls and webhooks, on SQLite and PostgreSQL: its own branding
 * (`PUT /api/v1/branding?team={id}` sets the team's, never the member's own, and a viewer may not change it), and
 * crawl notifications, which are refused in a team's workspace with a plain message until teams have them
 * (contract part 4; documented in docs/api.md).
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

  it("says plainly that a team's projects have no crawl notifications yet", async () => {
    const report = await call(api, "POST", `/api/v1/reports?team=${teamId}`, {
      key: owner,
      json: { url: `${site.url}/` },
    });
    expect([201, 202], report.body).toContain(report.statusCode);
    const project = report.json().data.project as string;
    const refused = await call(
      api,
      "PUT",
      `/api/v1/projects/${encodeURIComponent(project)}/notifications?team=${teamId}`,
      {
        key: owner,
        json: { email_on: "completed" },
      },
    );
    expect(refused.statusCode, refused.body).toBe(422);
    expect(refused.body).toContain("only in your own workspace");
  });
});
