/**
 * Asynchronous analyses through the API (`Prefer: respond-async`), the report's status, mode and schedule, on
 * both databases, with the service's own embedded queue running the jobs.
 */
import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, databaseKinds, startApi, type TestApi } from "../helpers/api.js";
import { html, type LocalServer, startServer } from "../helpers/local-server.js";

const page = `<!doctype html><html lang="en"><head><title>Bicycle repair at home, step by step</title></head><body><h1>Bicycle repair</h1><p>Bicycles and their repair.</p></body></html>`;
const respondAsync = { prefer: "respond-async" };

/** A port on 127.0.0.1 where nothing listens. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Polls the report until its status is one of `statuses`. */
async function waitFor(api: TestApi, key: string, id: number, statuses: string[], timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const report = (await call(api, "GET", `/api/v1/reports/${id}`, { key })).json().data;
    if (statuses.includes(report.status)) return report;
    if (Date.now() > deadline) throw new Error(`report ${id} stayed ${report.status}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.each(databaseKinds)("asynchronous analyses on %s", (kind) => {
  let api: TestApi;
  let site: LocalServer;
  let key: string;
  let other: string;

  beforeAll(async () => {
    site = await startServer({ "/": html(page) });
    api = await startApi(kind, { PAGEGRADE_SCHEDULE_INTERVALS: "daily=2,weekly=3600" });
    key = await api.newUser();
    other = await api.newUser();
  });
  afterAll(async () => {
    await api.close();
    await site.close();
  });

  it("stores the report at once (202, queued) and analyses it in the background", async () => {
    const response = await call(api, "POST", "/api/v1/reports", {
      key,
      form: { url: `${site.url}/` },
      headers: respondAsync,
    });
    expect(response.statusCode).toBe(202);
    const body = response.json();
    expect(body.status).toBe(202);
    expect(response.headers["preference-applied"]).toBe("respond-async");
    expect(response.headers.location).toBe(`/api/v1/reports/${body.data.id}`);
    expect(["queued", "running"]).toContain(body.data.status);
    expect(body.data).toMatchObject({ result: null, score: null, results: null, analyses: 0, error: null });

    const done = await waitFor(api, key, body.data.id, ["complete", "failed"]);
    expect(done).toMatchObject({ status: "complete", error: null, analyses: 1, mode: "raw" });
    expect(done.score).toBeGreaterThan(0);
    expect(Object.keys(done.results).length).toBeGreaterThan(40);
    const history = (await call(api, "GET", `/api/v1/reports/${done.id}/analyses`, { key })).json().data;
    expect(history).toEqual([expect.objectContaining({ id: done.analysis_id, trigger: "create" })]);
    // Another user cannot see it, queued or not.
    expect((await call(api, "GET", `/api/v1/reports/${done.id}`, { key: other })).statusCode).toBe(404);
  });

  it("keeps a report whose URL cannot be analysed, failed, with the reason and a failed analysis", async () => {
    const url = `http://127.0.0.1:${await closedPort()}/`;
    const response = await call(api, "POST", "/api/v1/reports", {
      key,
      form: { url },
      headers: respondAsync,
    });
    expect(response.statusCode).toBe(202);
    const failed = await waitFor(api, key, response.json().data.id, ["complete", "failed"]);
    expect(failed).toMatchObject({
      status: "failed",
      result: null,
      score: null,
      analyses: 1,
      analysis_id: null,
    });
    expect(failed.error.reason).toBe("connection-failed");
    expect(failed.error.message).toEqual(expect.any(String));
    const history = (await call(api, "GET", `/api/v1/reports/${failed.id}/analyses`, { key })).json().data;
    expect(history).toEqual([
      expect.objectContaining({
        status: "failed",
        error: expect.objectContaining({ reason: "connection-failed" }),
      }),
    ]);
    // The synchronous store still refuses such a URL and stores nothing.
    const before = (await call(api, "GET", "/api/v1/reports", { key })).json().meta.total;
    expect(before).toBeGreaterThan(0);
    const sync = await call(api, "POST", "/api/v1/reports", { key, form: { url } });
    expect(sync.statusCode).toBe(422);
    expect((await call(api, "GET", "/api/v1/reports", { key })).json().meta.total).toBe(before);
  });

  it("re-runs in the background with results=1 and the header; without results=1 the header changes nothing", async () => {
    const created = (
      await call(api, "POST", "/api/v1/reports", { key, form: { url: `${site.url}/` } })
    ).json().data;
    expect(created.status).toBe("complete");
    const rerun = await call(api, "PATCH", `/api/v1/reports/${created.id}`, {
      key,
      form: { results: "1" },
      headers: respondAsync,
    });
    expect(rerun.statusCode).toBe(202);
    expect(rerun.headers["preference-applied"]).toBe("respond-async");
    // While queued, the report still shows its latest complete analysis.
    expect(rerun.json().data).toMatchObject({ analysis_id: created.analysis_id, score: created.score });
    const done = await waitFor(api, key, created.id, ["complete"]);
    expect(done.analyses).toBe(2);
    expect(done.analysis_id).toBeGreaterThan(created.analysis_id);
    expect(done.score_change).toBe(0);

    const privacyOnly = await call(api, "PATCH", `/api/v1/reports/${created.id}`, {
      key,
      form: { privacy: "0" },
      headers: respondAsync,
    });
    expect(privacyOnly.statusCode).toBe(200);
    expect(privacyOnly.headers["preference-applied"]).toBeUndefined();
  });

  it("refuses unknown modes and schedules, and rendered mode without Chromium, with a 422 naming the field", async () => {
    for (const [field, value] of [
      ["mode", "browser"],
      ["schedule", "hourly"],
    ]) {
      const response = await call(api, "POST", "/api/v1/reports", {
        key,
        form: { url: `${site.url}/`, [field as string]: value as string },
        headers: respondAsync,
      });
      expect(response.statusCode).toBe(422);
      expect(Object.keys(response.json().errors)).toEqual([field]);
    }
    const noChromium = await startApi(kind, { PAGEGRADE_CHROMIUM_PATH: "/nonexistent/chromium" });
    try {
      const user = await noChromium.newUser();
      const response = await call(noChromium, "POST", "/api/v1/reports", {
        key: user,
        form: { url: `${site.url}/`, mode: "rendered" },
        headers: respondAsync,
      });
      expect(response.statusCode).toBe(422);
      expect(response.json().errors.mode[0]).toContain("PAGEGRADE_CHROMIUM_PATH");
      expect((await call(noChromium, "GET", "/api/v1/reports", { key: user })).json().meta.total).toBe(0);
    } finally {
      await noChromium.close();
    }
  });

  it("re-analyses a scheduled report every interval, each run in its history with trigger schedule", async () => {
    const created = await call(api, "POST", "/api/v1/reports", {
      key,
      form: { url: `${site.url}/`, schedule: "daily" },
    });
    const report = created.json().data;
    expect(report.schedule).toBe("daily");
    expect(Date.parse(report.next_run_at) - Date.parse(report.generated_at)).toBeGreaterThanOrEqual(1_900);
    const deadline = Date.now() + 20_000;
    let history: Array<{ trigger: string }> = [];
    while (history.filter((analysis) => analysis.trigger === "schedule").length < 2) {
      if (Date.now() > deadline) throw new Error("the schedule did not run twice");
      await new Promise((resolve) => setTimeout(resolve, 200));
      history = (await call(api, "GET", `/api/v1/reports/${report.id}/analyses`, { key })).json().data;
    }
    // Turning the schedule off stops it.
    const off = await call(api, "PATCH", `/api/v1/reports/${report.id}`, { key, form: { schedule: "off" } });
    expect(off.json().data).toMatchObject({ schedule: "off", next_run_at: null });
    await waitFor(api, key, report.id, ["complete"]);
    const settled = (await call(api, "GET", `/api/v1/reports/${report.id}`, { key })).json().data.analyses;
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect((await call(api, "GET", `/api/v1/reports/${report.id}`, { key })).json().data.analyses).toBe(
      settled,
    );
  });
});
