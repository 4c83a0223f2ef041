/**
 * Team workspaces kept apart (api-contract part 4, issue 42), on SQLite and PostgreSQL: every workspace endpoint
 * with `team={id}` × every role (owner, editor, viewer, non-member, removed member, another team's owner).
 * Members read; viewers get a 403 naming the editor role on every write and nothing changes; everyone else gets
 * exactly the 404 of a missing resource. Lists hold only the selected workspace's rows; a resource is found only
 * through its own workspace (a team's report without `team`, another workspace's id with a valid `team`: 404);
 * a removed member's next request is refused, even one the response cache has answered before.
 */
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openCrawlStores } from "../../src/crawls/crawl-stores.js";
import { ReportStore } from "../../src/store/report-store.js";
import { timestamp } from "../../src/timestamps.js";
import { WebhookStore } from "../../src/webhooks/webhook-store.js";
import { call, databaseKinds, startApi, type TestApi } from "../helpers/api.js";
import { runningCrawl } from "../helpers/crawl-rows.js";
import { seedRow } from "../helpers/seed.js";

type Method = "GET" | "PATCH" | "DELETE";

/** A problem body without what differs between any two requests. */
const problemOf = (response: LightMyRequestResponse) => {
  const { request_id: _id, instance: _instance, ...rest } = response.json();
  return rest;
};

describe.each(databaseKinds)("team isolation on %s", (kind) => {
  let api: TestApi;
  const keys: Record<string, string> = {};
  const ids: Record<string, number> = {};
  let teamA = 0;
  let teamB = 0;
  /** Team A's resources, another team's and the owner's own, by kind. */
  const rows = { teamReport: 0, otherTeamReport: 0, personalReport: 0, crawl: 0, otherCrawl: 0, webhook: 0 };
  let requests = 0;

  const as = (who: string, method: Method, url: string, json?: unknown) => {
    requests++;
    return call(api, method, url, { key: keys[who] as string, ...(json !== undefined ? { json } : {}) });
  };
  const inTeam = (url: string, team = teamA) => `${url}${url.includes("?") ? "&" : "?"}team=${team}`;

  beforeAll(async () => {
    api = await startApi(kind);
    for (const who of ["owner", "editor", "viewer", "stranger", "removed", "otherOwner"]) {
      keys[who] = await api.newUser(`${who}@example.com`);
      ids[who] = (await call(api, "GET", "/api/v1/account", { key: keys[who] })).json().data.id;
    }
    teamA = (await as("owner", "POST" as Method, "/api/v1/teams", { name: "A" })).json().data.id;
    teamB = (await as("otherOwner", "POST" as Method, "/api/v1/teams", { name: "B" })).json().data.id;
    for (const [who, role] of [
      ["editor", "editor"],
      ["viewer", "viewer"],
      ["removed", "editor"],
    ] as const) {
      const invitation = (
        await call(api, "POST", `/api/v1/teams/${teamA}/invitations`, {
          key: keys.owner,
          json: { email: `${who}@example.com`, role },
        })
      ).json().data;
      const token = new URL(invitation.accept_url).searchParams.get("token");
      const accepted = await call(api, "POST", "/api/v1/invitations/accept", {
        key: keys[who],
        json: { token },
      });
      expect(accepted.statusCode, accepted.body).toBe(200);
    }
    expect(
      (await call(api, "DELETE", `/api/v1/teams/${teamA}/members/${ids.removed}`, { key: keys.owner }))
        .statusCode,
    ).toBe(200);

    const store = api.database.store;
    const reports = new ReportStore(store);
    const report = (userId: number, url: string, teamId: number | null) =>
      reports.insert({ ...seedRow(userId, { url, score: 70 }), team_id: teamId });
    rows.teamReport = (await report(ids.owner as number, "https://team.example/a", teamA)).id;
    rows.otherTeamReport = (await report(ids.otherOwner as number, "https://other.example/b", teamB)).id;
    rows.personalReport = (await report(ids.owner as number, "https://own.example/c", null)).id;
    const stores = openCrawlStores(store);
    const crawl = async (userId: number, teamId: number | null, project: string) =>
      runningCrawl(stores, userId, { team_id: teamId, url: `https://${project}/`, project });
    rows.crawl = (await crawl(ids.editor as number, teamA, "team.example")).id;
    rows.otherCrawl = (await crawl(ids.otherOwner as number, teamB, "other.example")).id;
    await crawl(ids.owner as number, null, "own.example");
    const webhook = (userId: number, teamId: number | null, url: string) =>
      new WebhookStore(store).insert({
        user_id: userId,
        team_id: teamId,
        url,
        events: "report.completed",
        secret: "sealed",
        secret_hint: "abcd",
        created_at: timestamp(),
      });
    rows.webhook = (await webhook(ids.owner as number, teamA, "https://hooks.example/team")).id;
    await webhook(ids.otherOwner as number, teamB, "https://hooks.example/other");
    await webhook(ids.owner as number, null, "https://hooks.example/own");
  });
  afterAll(async () => {
    console.log(`team isolation (${kind}): ${requests} requests`);
    await api?.close();
  });

  const reads = () => [
    "/api/v1/reports",
    `/api/v1/reports/${rows.teamReport}`,
    `/api/v1/reports/${rows.teamReport}/analyses`,
    "/api/v1/projects",
    "/api/v1/projects/team.example",
    "/api/v1/crawls",
    `/api/v1/crawls/${rows.crawl}`,
    "/api/v1/webhooks",
    `/api/v1/webhooks/${rows.webhook}`,
  ];
  const writes = (): Array<[Method, string, unknown?]> => [
    ["PATCH", `/api/v1/reports/${rows.teamReport}`, { privacy: 0 }],
    ["DELETE", `/api/v1/reports/${rows.teamReport}`],
    ["DELETE", "/api/v1/projects/team.example"],
    ["DELETE", `/api/v1/crawls/${rows.crawl}`],
    ["PATCH", `/api/v1/webhooks/${rows.webhook}`, { enabled: false }],
    ["DELETE", `/api/v1/webhooks/${rows.webhook}`],
  ];

  it("answers a non-member, a removed member and another team's owner exactly like a missing resource", async () => {
    const missing = problemOf(await as("owner", "GET", "/api/v1/reports/999999999"));
    for (const who of ["stranger", "removed", "otherOwner"]) {
      for (const url of reads()) {
        const response = await as(who, "GET", inTeam(url));
        expect(response.statusCode, `${who} GET ${url}`).toBe(404);
        expect(problemOf(response)).toEqual(missing);
      }
      for (const [method, url, body] of writes()) {
        const response = await as(who, method, inTeam(url), body);
        expect(response.statusCode, `${who} ${method} ${url}`).toBe(404);
        expect(problemOf(response)).toEqual(missing);
      }
    }
    // A selector that names no team at all is the same 404.
    for (const team of ["abc", "0", "999999999"]) {
      expect(problemOf(await as("owner", "GET", `/api/v1/reports?team=${team}`))).toEqual(missing);
    }
  });

  it("lets every member read the team's workspace and shows only its rows", async () => {
    for (const who of ["owner", "editor", "viewer"]) {
      for (const url of reads()) {
        const response = await as(who, "GET", inTeam(url));
        expect(response.statusCode, `${who} GET ${url}: ${response.body}`).toBe(200);
      }
      const listed = async (url: string) =>
        (await as(who, "GET", inTeam(url)))
          .json()
          .data.map((row: { id?: number; project?: string }) => row.id ?? row.project);
      expect(await listed("/api/v1/reports")).toEqual([rows.teamReport]);
      expect(await listed("/api/v1/projects")).toEqual(["team.example"]);
      expect(await listed("/api/v1/crawls")).toEqual([rows.crawl]);
      expect(await listed("/api/v1/webhooks")).toEqual([rows.webhook]);
    }
  });

  it("keeps the team's rows out of its members' own workspaces, and finds a resource only through its own", async () => {
    const own = await as("owner", "GET", "/api/v1/reports");
    expect(own.json().data.map((row: { id: number }) => row.id)).toEqual([rows.personalReport]);
    const ownCrawls = (await as("owner", "GET", "/api/v1/crawls")).json().data;
    expect(ownCrawls.map((row: { project: string }) => row.project)).toEqual(["own.example"]);
    const ownHooks = (await as("owner", "GET", "/api/v1/webhooks")).json().data;
    expect(ownHooks.map((row: { url: string }) => row.url)).toEqual(["https://hooks.example/own"]);
    expect((await as("editor", "GET", "/api/v1/crawls")).json().data).toEqual([]);
    for (const url of [
      `/api/v1/reports/${rows.teamReport}`,
      `/api/v1/crawls/${rows.crawl}`,
      `/api/v1/webhooks/${rows.webhook}`,
    ]) {
      expect((await as("owner", "GET", url)).statusCode, `${url} without team`).toBe(404);
    }
    // Another workspace's id with a valid team: the owner's own report, another team's report and crawl.
    for (const url of [
      `/api/v1/reports/${rows.personalReport}`,
      `/api/v1/reports/${rows.otherTeamReport}`,
      `/api/v1/crawls/${rows.otherCrawl}`,
    ]) {
      expect((await as("owner", "GET", inTeam(url))).statusCode, `${url} in team A`).toBe(404);
    }
  });

  it("refuses every write by a viewer with a 403 naming the editor role, and changes nothing", async () => {
    for (const [method, url, body] of writes()) {
      const response = await as("viewer", method, inTeam(url), body);
      expect(response.statusCode, `viewer ${method} ${url}`).toBe(403);
      expect(problemOf(response)).toMatchObject({ type: "/problems/forbidden", role_needed: "editor" });
    }
    for (const url of reads()) expect((await as("owner", "GET", inTeam(url))).statusCode).toBe(200);
  });

  it("lets an editor change the team's resources, and ends a removed member's access at their next request", async () => {
    const changed = await as("editor", "PATCH", inTeam(`/api/v1/reports/${rows.teamReport}`), { privacy: 0 });
    expect(changed.statusCode, changed.body).toBe(200);
    // Read twice (a second read may come from the response cache), then removed: refused at once.
    for (let round = 0; round < 2; round++) {
      expect((await as("editor", "GET", inTeam("/api/v1/reports"))).statusCode).toBe(200);
      expect((await as("editor", "GET", inTeam(`/api/v1/reports/${rows.teamReport}`))).statusCode).toBe(200);
    }
    const inFlight = as("editor", "GET", inTeam("/api/v1/reports"));
    const removal = await call(api, "DELETE", `/api/v1/teams/${teamA}/members/${ids.editor}`, {
      key: keys.owner,
    });
    expect(removal.statusCode).toBe(200);
    expect([200, 404]).toContain((await inFlight).statusCode);
    for (const url of [...reads(), `/api/v1/reports/${rows.teamReport}`]) {
      expect((await as("editor", "GET", inTeam(url))).statusCode, `removed editor GET ${url}`).toBe(404);
    }
    const deleted = await as("owner", "DELETE", inTeam(`/api/v1/reports/${rows.teamReport}`));
    expect(deleted.statusCode).toBe(200);
    expect((await as("owner", "GET", inTeam("/api/v1/reports"))).json().data).toEqual([]);

    // The activity: each change in the workspace once, by whom; none of the viewer's refused writes.
    const activity = (team: number, key: string) =>
      call(api, "GET", `/api/v1/teams/${team}/activity?per_page=100`, { key }).then((response) =>
        response.json().data.map((entry: { action: string; target: string; user_id: number }) => entry),
      );
    const changes = (await activity(teamA, keys.owner as string)).filter(
      (entry: { action: string }) => !entry.action.startsWith("team.") && !entry.action.startsWith("member."),
    );
    expect(changes.filter((entry: { action: string }) => !entry.action.startsWith("invitation."))).toEqual([
      {
        ...changes[0],
        action: "report.deleted",
        target: `/api/v1/reports/${rows.teamReport}`,
        user_id: ids.owner,
      },
      {
        ...changes[1],
        action: "report.updated",
        target: `/api/v1/reports/${rows.teamReport}`,
        user_id: ids.editor,
      },
    ]);
    const other = await activity(teamB, keys.otherOwner as string);
    expect(other.map((entry: { action: string }) => entry.action)).toEqual(["team.created"]);
  });
});
