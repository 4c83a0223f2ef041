/**
 * Webhooks end to end on both databases: the API (validation, isolation, the secret shown once), deliveries to
 * real receivers on 127.0.0.1 with Standard Webhooks signatures checked by an independent verifier, the retry
 * schedule, 410 disabling, redirects not followed, a receiver that streams forever, `report.regressed`, ping,
 * secrets sealed at rest, and one delivery however often an analysis is announced.
 */
import { createHmac } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DatabaseJobQueue } from "../../src/jobs/database-job-queue.js";
import { HistoryService } from "../../src/reports/history-service.js";
import { reportJson } from "../../src/reports/present.js";
import { AnalysisStore } from "../../src/store/analysis-store.js";
import { ReportStore } from "../../src/store/report-store.js";
import { WebhookEvents } from "../../src/webhooks/webhook-events.js";
import { WebhookStore } from "../../src/webhooks/webhook-store.js";
import { call, databaseKinds, startApi, type TestApi } from "../helpers/api.js";
import { eventually } from "../helpers/job-queues.js";
import { type LocalServer, startServer } from "../helpers/local-server.js";

const pages = {
  good: `<!doctype html><html lang="en"><head><title>Bicycle repair at home, step by step</title></head><body><h1>Repair</h1><img src="/wheel.png" alt="A wheel" width="10" height="10"></body></html>`,
  worse: `<!doctype html><html lang="en"><head><title>Bicycle repair at home, step by step</title></head><body><h1>Repair</h1><img src="/wheel.png" width="10" height="10"></body></html>`,
};

interface Received {
  path: string;
  headers: IncomingMessage["headers"];
  body: string;
}

/** Checks a Standard Webhooks signature the way a receiver would, from the spec alone. */
function verify(secret: string, received: Received): boolean {
  const id = received.headers["webhook-id"] as string;
  const stamp = received.headers["webhook-timestamp"] as string;
  const key = Buffer.from(secret.slice("whsec_".length), "base64");
  const expected = createHmac("sha256", key).update(`${id}.${stamp}.${received.body}`).digest("base64");
  return (received.headers["webhook-signature"] as string).split(" ").includes(`v1,${expected}`);
}

describe.each(databaseKinds)("webhooks on %s", (kind) => {
  let api: TestApi;
  let site: LocalServer;
  let receiver: LocalServer;
  let key: string;
  let other: string;
  let served: keyof typeof pages = "good";
  const received: Received[] = [];
  /** What each receiver path answers, in turn (the last one repeats). */
  const answers = new Map<string, number[]>();

  const record = (request: IncomingMessage, response: ServerResponse) => {
    let body = "";
    request.on("data", (chunk: Buffer) => {
      body += chunk.toString();
    });
    request.on("end", () => {
      const path = request.url ?? "/";
      received.push({ path, headers: request.headers, body });
      const queue = answers.get(path) ?? [204];
      const status = queue.length > 1 ? (queue.shift() as number) : (queue[0] as number);
      if (status === 0) return; // never answers: the delivery's deadline must end the attempt
      if (status === 302) response.setHeader("location", "/followed");
      if (status === 299) {
        // 200, then a body that never ends.
        response.writeHead(200, { "content-type": "text/plain" });
        const timer = setInterval(() => response.write("x".repeat(16_384)), 5);
        response.on("close", () => clearInterval(timer));
        return;
      }
      response.writeHead(status);
      response.end();
    });
  };

  beforeAll(async () => {
    site = await startServer({
      "/": (_request, response) => {
        response.setHeader("content-type", "text/html; charset=utf-8");
        response.end(pages[served]);
      },
    });
    receiver = await startServer({}, { fallback: record });
    api = await startApi(kind, {
      PAGEGRADE_WEBHOOK_RETRY_SCHEDULE: "1,1",
      PAGEGRADE_WEBHOOK_TIMEOUT_SECONDS: "2",
      PAGEGRADE_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString("base64"),
    });
    key = await api.newUser();
    other = await api.newUser();
  });
  afterAll(async () => {
    await api.close();
    await site.close();
    await receiver.close();
  });

  const createHook = async (path: string, events?: string[], as = key) => {
    const response = await call(api, "POST", "/api/v1/webhooks", {
      key: as,
      json: { url: `${receiver.url}${path}`, ...(events ? { events } : {}) },
    });
    expect(response.statusCode).toBe(201);
    return response.json().data as { id: number; secret: string; secret_hint: string };
  };
  const deliveries = async (id: number) =>
    (await call(api, "GET", `/api/v1/webhooks/${id}/deliveries`, { key })).json().data as Array<{
      id: number;
      event: string;
      status: string;
      attempts: number;
      last_status_code: number | null;
      last_error: string | null;
    }>;
  const at = (path: string) => received.filter((item) => item.path === path);

  it("creates a webhook, shows its secret once, and keeps it from other users", async () => {
    const hook = await createHook("/created");
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/);
    expect(hook.secret_hint).toBe(`whsec_…${hook.secret.slice(-4)}`);
    const shown = (await call(api, "GET", `/api/v1/webhooks/${hook.id}`, { key })).json().data;
    expect(shown).toMatchObject({
      id: hook.id,
      enabled: true,
      events: expect.arrayContaining(["report.completed"]),
    });
    expect(shown.secret).toBeUndefined();
    expect(shown.events).toHaveLength(6);
    expect((await call(api, "GET", `/api/v1/webhooks/${hook.id}`, { key: other })).statusCode).toBe(404);
    expect((await call(api, "DELETE", `/api/v1/webhooks/${hook.id}`, { key: other })).statusCode).toBe(404);
    // Sealed at rest: the stored column is not the secret.
    const stored = await api.database.store.db
      .selectFrom("webhooks")
      .select("secret")
      .where("id", "=", hook.id)
      .executeTakeFirstOrThrow();
    expect(stored.secret.startsWith("v1:")).toBe(true);
    expect(stored.secret).not.toContain(hook.secret.slice(6, 20));
    const patched = await call(api, "PATCH", `/api/v1/webhooks/${hook.id}`, {
      key,
      form: { events: "report.failed,crawl.failed", enabled: "0" },
    });
    expect(patched.json(), patched.body).toHaveProperty("data");
    expect(patched.json().data).toMatchObject({ events: ["report.failed", "crawl.failed"], enabled: false });
    expect((await call(api, "DELETE", `/api/v1/webhooks/${hook.id}`, { key })).json()).toMatchObject({
      deleted: true,
    });
  });

  it("refuses bad URLs, unknown events and an eleventh webhook with 422s naming the field", async () => {
    const refuse = async (body: Record<string, unknown>, field: string, text: string) => {
      const response = await call(api, "POST", "/api/v1/webhooks", { key: other, json: body });
      expect(response.statusCode).toBe(422);
      expect(response.json().errors[field][0]).toContain(text);
    };
    await refuse({ url: "ftp://example.com/hook" }, "url", "absolute http or https URL");
    await refuse({ url: "/relative" }, "url", "absolute http or https URL");
    await refuse(
      { url: `${receiver.url}/x`, events: ["report.deleted"] },
      "events",
      '"report.deleted" is not one',
    );
    await refuse({ url: `${receiver.url}/x`, events: [] }, "events", "at least one event");
    const strict = await startApi(kind, { PAGEGRADE_ALLOW_PRIVATE_NETWORKS: "0" });
    try {
      const user = await strict.newUser();
      const response = await call(strict, "POST", "/api/v1/webhooks", {
        key: user,
        json: { url: `${receiver.url}/private` },
      });
      expect(response.statusCode).toBe(422);
      expect(response.json().errors.url[0]).toContain("must point to a public address");
    } finally {
      await strict.close();
    }
    for (let index = 0; index < 10; index++) await createHook(`/many-${index}`, ["crawl.failed"], other);
    await refuse({ url: `${receiver.url}/eleventh` }, "url", "at most 10 webhooks");
  });

  it("gives a team's webhooks the team's events only, naming the team in the signed payload", async () => {
    const team = (await call(api, "POST", "/api/v1/teams", { key, json: { name: "Hooks" } })).json().data.id;
    const teamHook = (
      await call(api, "POST", `/api/v1/webhooks?team=${team}`, {
        key,
        json: { url: `${receiver.url}/team`, events: ["report.completed"] },
      })
    ).json().data;
    await createHook("/own", ["report.completed"]);
    served = "good";
    const inTeam = (
      await call(api, "POST", `/api/v1/reports?team=${team}`, { key, form: { url: `${site.url}/?team` } })
    ).json().data;
    const own = (
      await call(api, "POST", "/api/v1/reports", { key, form: { url: `${site.url}/?own` } })
    ).json().data;
    await eventually(async () => at("/team").length === 1 && at("/own").length === 1, "both events", 15_000);
    const teamEvent = at("/team")[0] as Received;
    expect(verify(teamHook.secret, teamEvent)).toBe(true);
    expect(JSON.parse(teamEvent.body)).toMatchObject({
      type: "report.completed",
      team,
      data: { id: inTeam.id },
    });
    const ownEvent = JSON.parse((at("/own")[0] as Received).body);
    expect(ownEvent).toMatchObject({ type: "report.completed", data: { id: own.id } });
    expect(ownEvent.team).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect([at("/team").length, at("/own").length]).toEqual([1, 1]);
    await call(api, "DELETE", `/api/v1/teams/${team}`, { key });
  });

  it("delivers report.completed, signed, without the results, and report.regressed when a re-run regresses", async () => {
    const hook = await createHook("/reports");
    served = "good";
    const created = (
      await call(api, "POST", "/api/v1/reports", { key, form: { url: `${site.url}/` } })
    ).json().data;
    await eventually(async () => at("/reports").length === 1, "report.completed", 15_000);
    const first = at("/reports")[0] as Received;
    expect(verify(hook.secret, first)).toBe(true);
    expect(first.headers["content-type"]).toBe("application/json");
    expect(Math.abs(Number(first.headers["webhook-timestamp"]) - Date.now() / 1000)).toBeLessThan(30);
    const body = JSON.parse(first.body);
    expect(body).toMatchObject({ type: "report.completed", data: { id: created.id, object: "report" } });
    expect(body.data.results).toBeUndefined();
    // Byte for byte the API's report object without its results, in the event envelope.
    const shown = (await call(api, "GET", `/api/v1/reports/${created.id}`, { key })).json().data;
    delete shown.results;
    expect(first.body).toBe(
      JSON.stringify({ type: "report.completed", timestamp: body.timestamp, data: shown }),
    );

    served = "worse";
    await call(api, "PATCH", `/api/v1/reports/${created.id}`, { key, form: { results: "1" } });
    await eventually(
      async () => at("/reports").length === 3,
      "report.completed and report.regressed",
      15_000,
    );
    const types = at("/reports").map((item) => JSON.parse(item.body).type);
    expect(types.sort()).toEqual(["report.completed", "report.completed", "report.regressed"]);
    const regressed = JSON.parse(
      at("/reports").find((item) => item.body.includes("report.regressed"))?.body ?? "{}",
    );
    expect(regressed.data.diff.checks).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: "image-alt", change: "regressed" })]),
    );
    // The API's report object and its diff (the re-run against the first analysis), byte for byte.
    const rerun = (await call(api, "GET", `/api/v1/reports/${created.id}`, { key })).json().data;
    delete rerun.results;
    const diff = (await call(api, "GET", `/api/v1/reports/${created.id}/diff`, { key })).json().data;
    expect(regressed.data.diff).toEqual(diff);
    expect(at("/reports").find((item) => item.body.includes("report.regressed"))?.body).toBe(
      JSON.stringify({
        type: "report.regressed",
        timestamp: regressed.timestamp,
        data: { ...rerun, diff: regressed.data.diff },
      }),
    );
    // The receiver has answered; the delivery is recorded as succeeded just after.
    await eventually(
      async () => (await deliveries(hook.id)).every((delivery) => delivery.status === "succeeded"),
      "the deliveries recorded as succeeded",
    );
    await call(api, "DELETE", `/api/v1/webhooks/${hook.id}`, { key });
  });

  it("retries on the schedule with the same webhook-id until the receiver answers, then succeeds", async () => {
    answers.set("/flaky", [503, 500, 200]);
    const hook = await createHook("/flaky");
    expect((await call(api, "POST", `/api/v1/webhooks/${hook.id}/ping`, { key })).statusCode).toBe(202);
    await eventually(
      async () => (await deliveries(hook.id))[0]?.status === "succeeded",
      "the third attempt",
      20_000,
    );
    const attempts = at("/flaky");
    expect(attempts).toHaveLength(3);
    expect(new Set(attempts.map((item) => item.headers["webhook-id"])).size).toBe(1);
    expect(attempts.every((item) => verify(hook.secret, item))).toBe(true);
    const delivery = (await deliveries(hook.id))[0];
    expect(delivery).toMatchObject({ event: "ping", attempts: 3, last_status_code: 200 });
    // The header is the delivery's id, as the delivery log shows it.
    expect(attempts[0]?.headers["webhook-id"]).toBe(String(delivery?.id));
    await call(api, "DELETE", `/api/v1/webhooks/${hook.id}`, { key });
  });

  it("fails a delivery answered with a redirect (not followed) once the schedule is spent", async () => {
    answers.set("/moved", [302]);
    const hook = await createHook("/moved");
    await call(api, "POST", `/api/v1/webhooks/${hook.id}/ping`, { key });
    await eventually(
      async () => (await deliveries(hook.id))[0]?.status === "failed",
      "the last attempt",
      20_000,
    );
    expect(at("/moved")).toHaveLength(3);
    expect(at("/followed")).toHaveLength(0);
    expect((await deliveries(hook.id))[0]?.last_error).toContain("redirects are not followed");
    await call(api, "DELETE", `/api/v1/webhooks/${hook.id}`, { key });
  });

  it("vets every delivery: a receiver whose address is now inside is never reached", async () => {
    // The webhook is saved while its receiver counts as public (127.0.0.2 is admitted), then its URL names an
    // inside address, as when a name's DNS answer changes after the check at creation.
    const outside = await startServer(
      {},
      { host: "127.0.0.2", fallback: (_request, response) => response.end() },
    );
    const canary = await startServer({}, { fallback: (_request, response) => response.end() });
    const strict = await startApi(kind, {
      PAGEGRADE_ALLOW_PRIVATE_NETWORKS: "0",
      PAGEGRADE_ALLOWED_ADDRESSES: "127.0.0.2",
      PAGEGRADE_WEBHOOK_RETRY_SCHEDULE: "1",
    });
    try {
      const user = await strict.newUser();
      const created = await call(strict, "POST", "/api/v1/webhooks", {
        key: user,
        json: { url: `${outside.url}/hook` },
      });
      expect(created.statusCode).toBe(201);
      const id = created.json().data.id;
      await strict.database.store.db
        .updateTable("webhooks")
        .set({ url: `${canary.url}/hook` })
        .where("id", "=", id)
        .execute();
      expect((await call(strict, "POST", `/api/v1/webhooks/${id}/ping`, { key: user })).statusCode).toBe(202);
      let delivery: { status: string; last_error: string | null } | undefined;
      await eventually(
        async () => {
          delivery = (await call(strict, "GET", `/api/v1/webhooks/${id}/deliveries`, { key: user })).json()
            .data[0];
          return delivery?.status === "failed";
        },
        "the delivery to fail",
        20_000,
      );
      expect(delivery?.last_error).toBe("The URL points to a private or reserved network address.");
      expect(canary.connections).toBe(0);
    } finally {
      await strict.close();
      await outside.close();
      await canary.close();
    }
  });

  it("disables a webhook whose receiver answers 410 Gone", async () => {
    answers.set("/gone", [410]);
    const hook = await createHook("/gone");
    await call(api, "POST", `/api/v1/webhooks/${hook.id}/ping`, { key });
    await eventually(async () => (await deliveries(hook.id))[0]?.status === "failed", "the 410", 15_000);
    expect(at("/gone")).toHaveLength(1);
    expect((await call(api, "GET", `/api/v1/webhooks/${hook.id}`, { key })).json().data.enabled).toBe(false);
    await call(api, "DELETE", `/api/v1/webhooks/${hook.id}`, { key });
  });

  it("is done with a receiver that answers 200 and then streams forever", async () => {
    answers.set("/endless", [299]);
    const hook = await createHook("/endless");
    const started = Date.now();
    await call(api, "POST", `/api/v1/webhooks/${hook.id}/ping`, { key });
    await eventually(
      async () => (await deliveries(hook.id))[0]?.status === "succeeded",
      "the delivery",
      15_000,
    );
    expect(Date.now() - started).toBeLessThan(10_000);
    await call(api, "DELETE", `/api/v1/webhooks/${hook.id}`, { key });
  });

  it("ends an attempt the receiver never answers at the timeout, and says so", async () => {
    answers.set("/silent", [0]);
    const hook = await createHook("/silent");
    await call(api, "POST", `/api/v1/webhooks/${hook.id}/ping`, { key });
    await eventually(
      async () => (await deliveries(hook.id))[0]?.last_error != null,
      "the first attempt to end",
      10_000,
    );
    expect((await deliveries(hook.id))[0]?.last_error).toBe("The receiver did not answer within 2 s.");
    await call(api, "DELETE", `/api/v1/webhooks/${hook.id}`, { key });
  });

  it("makes one delivery for an analysis however often it is announced", async () => {
    const hook = await createHook("/once", ["report.completed"]);
    served = "good";
    const created = (
      await call(api, "POST", "/api/v1/reports", { key, form: { url: `${site.url}/` } })
    ).json().data;
    await eventually(async () => at("/once").length === 1, "the delivery", 15_000);
    const { store } = api.database;
    const reports = new ReportStore(store);
    const idle = new DatabaseJobQueue(store, { workers: 0, leaseMs: 30_000 });
    const events = new WebhookEvents({
      webhooks: new WebhookStore(store),
      workspaceOf: {
        report: (userId, reportId) => reports.workspaceOfReport(userId, reportId),
        crawl: async () => undefined,
      },
      reportObject: async (workspace, reportId) => {
        const row = await reports.findForDisplay(workspace, reportId);
        return row ? reportJson(row, { results: false }) : null;
      },
      history: new HistoryService(reports, new AnalysisStore(store)),
      jobs: idle,
      regressionScoreDrop: 5,
    });
    const { user_id: userId } = await store.db
      .selectFrom("reports")
      .select("user_id")
      .where("id", "=", created.id)
      .executeTakeFirstOrThrow();
    for (let round = 0; round < 2; round++) {
      await events.analysisRecorded({
        userId,
        reportId: created.id,
        analysisId: created.analysis_id,
        status: "complete",
        trigger: "create",
      });
    }
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await deliveries(hook.id)).toHaveLength(1);
    expect(at("/once")).toHaveLength(1);
    await idle.close();
  });
});
