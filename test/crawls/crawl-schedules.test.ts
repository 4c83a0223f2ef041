/**
 * Scheduled crawls: a crawl with `schedule=daily` starts again as a new crawl with the same settings one
 * interval after it ends (intervals in seconds here), the new one carrying the schedule on, each run once;
 * a crawl without a schedule never runs again.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, startApi, type TestApi } from "../helpers/api.js";
import { eventually } from "../helpers/job-queues.js";
import { html, type LocalServer, startServer } from "../helpers/local-server.js";

describe("scheduled crawls", () => {
  let api: TestApi;
  let site: LocalServer;
  let key: string;

  beforeAll(async () => {
    site = await startServer({
      "/": html('<!doctype html><html lang="en"><title>Home</title><a href="/a">A</a></html>'),
      "/a": html('<!doctype html><html lang="en"><title>A</title><a href="/">Home</a></html>'),
    });
    api = await startApi("sqlite", {
      PAGEGRADE_CRAWL_DELAY_MS: "0",
      PAGEGRADE_SCHEDULE_INTERVALS: "daily=1,weekly=3600",
    });
    key = await api.newUser();
  });
  afterAll(async () => {
    await api.close();
    await site.close();
  });

  it("starts a scheduled crawl again as a new crawl with the same settings, once per interval", async () => {
    const created = await call(api, "POST", "/api/v1/crawls", {
      key,
      json: { url: `${site.url}/`, schedule: "daily", max_pages: 7, exclude: ["/nothing$"], sitemaps: 0 },
    });
    expect(created.statusCode).toBe(202);
    const list = async () =>
      (await call(api, "GET", "/api/v1/crawls?sort=asc&per_page=100", { key })).json().data as Array<
        Record<string, unknown> & { id: number; status: string }
      >;
    await eventually(
      async () => (await list()).filter((crawl) => crawl.status === "complete").length >= 3,
      "three runs",
      20_000,
    );
    const runs = await list();
    for (const run of runs) {
      expect(run).toMatchObject({
        url: `${site.url}/`,
        schedule: "daily",
        max_pages: 7,
        exclude: ["/nothing$"],
        sitemaps: 0,
      });
    }
    // One new crawl per finished one: never two runs at once.
    expect(
      runs.filter((run) => run.status === "queued" || run.status === "running").length,
    ).toBeLessThanOrEqual(1);
    const started = runs.map((run) => Date.parse(String(run.created_at)));
    for (let i = 1; i < started.length; i++) {
      expect((started[i] as number) - (started[i - 1] as number)).toBeGreaterThanOrEqual(900);
    }
    // Every page analysed again: the reports gain analyses, not copies.
    expect((await call(api, "GET", "/api/v1/reports?project=127.0.0.1", { key })).json().meta.total).toBe(2);
  });

  it("keeps running a team's scheduled crawl for the team after the member who made it leaves", async () => {
    const owner = await api.newUser("schedule-owner@example.com");
    const editor = await api.newUser("schedule-editor@example.com");
    const team = (await call(api, "POST", "/api/v1/teams", { key: owner, json: { name: "Sites" } })).json()
      .data.id;
    const invitation = (
      await call(api, "POST", `/api/v1/teams/${team}/invitations`, {
        key: owner,
        json: { email: "schedule-editor@example.com", role: "editor" },
      })
    ).json().data;
    const token = new URL(invitation.accept_url).searchParams.get("token");
    await call(api, "POST", "/api/v1/invitations/accept", { key: editor, json: { token } });
    const created = await call(api, "POST", `/api/v1/crawls?team=${team}`, {
      key: editor,
      json: { url: `${site.url}/`, schedule: "daily", sitemaps: 0 },
    });
    expect(created.statusCode, created.body).toBe(202);
    const editorId = (await call(api, "GET", "/api/v1/account", { key: editor })).json().data.id;
    await call(api, "DELETE", `/api/v1/teams/${team}/members/${editorId}`, { key: owner });
    const teamCrawls = async () =>
      (await call(api, "GET", `/api/v1/crawls?team=${team}&per_page=100`, { key: owner })).json()
        .data as Array<{
        status: string;
      }>;
    await eventually(
      async () => (await teamCrawls()).filter((crawl) => crawl.status === "complete").length >= 2,
      "two runs in the team",
      20_000,
    );
    // The runs and their pages' reports are the team's, none in the former member's own workspace.
    expect((await call(api, "GET", "/api/v1/crawls", { key: editor })).json().meta.total).toBe(0);
    expect((await call(api, "GET", "/api/v1/reports", { key: editor })).json().meta.total).toBe(0);
    expect(
      (await call(api, "GET", `/api/v1/reports?team=${team}`, { key: owner })).json().meta.total,
    ).toBeGreaterThan(0);
  });

  it("never runs a crawl without a schedule again", async () => {
    const other = await api.newUser();
    await call(api, "POST", "/api/v1/crawls", { key: other, json: { url: `${site.url}/`, sitemaps: 0 } });
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect((await call(api, "GET", "/api/v1/crawls", { key: other })).json().meta.total).toBe(1);
  });
});
