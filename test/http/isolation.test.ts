import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ReportStore } from "../../src/store/report-store.js";
import { call, databaseKinds, startApi, type TestApi } from "../helpers/api.js";
import { seedRow } from "../helpers/seed.js";

/** Two users with the same project: neither can see, list, change or delete anything of the other's. */
describe.each(databaseKinds)("isolation between users on %s", (kind) => {
  let api: TestApi;
  let alice: string;
  let bob: string;
  let aliceReport: number;
  let bobReport: number;

  beforeAll(async () => {
    api = await startApi(kind);
    alice = await api.newUser("alice@example.com");
    bob = await api.newUser("bob@example.com");
    const reports = new ReportStore(api.database.store);
    const idOf = async (key: string) => (await api.accounts.authenticate(key))?.account.id as number;
    aliceReport = (
      await reports.insert(seedRow(await idOf(alice), { url: "https://shared.example/alice", score: 90 }))
    ).id;
    bobReport = (
      await reports.insert(seedRow(await idOf(bob), { url: "https://shared.example/bob", score: 20 }))
    ).id;
  });
  afterAll(() => api.close());

  it("answers another user's report exactly like a missing one, on every verb", async () => {
    const missing = 987654;
    for (const [method, form] of [
      ["GET", undefined],
      ["PUT", { privacy: "0" }],
      ["PATCH", { privacy: "0" }],
      ["DELETE", undefined],
    ] as const) {
      const foreign = await call(api, method, `/api/v1/reports/${bobReport}`, {
        key: alice,
        ...(form ? { form } : {}),
      });
      const absent = await call(api, method, `/api/v1/reports/${missing}`, {
        key: alice,
        ...(form ? { form } : {}),
      });
      expect(foreign.statusCode).toBe(404);
      const strip = (body: Record<string, unknown>) => ({
        ...body,
        instance: undefined,
        request_id: undefined,
      });
      expect(strip(foreign.json())).toEqual(strip(absent.json()));
    }
    const stillThere = await call(api, "GET", `/api/v1/reports/${bobReport}`, { key: bob });
    expect(stillThere.json().data).toMatchObject({ privacy: 1, score: 20 });
  });

  it("never lists another user's reports or projects, whatever the filters", async () => {
    for (const query of [
      "",
      "?search=shared",
      "?project=shared.example",
      "?result=bad",
      "?search=bob&per_page=100",
    ]) {
      const ids = (await call(api, "GET", `/api/v1/reports${query}`, { key: alice }))
        .json()
        .data.map((report: { id: number }) => report.id);
      expect(ids).not.toContain(bobReport);
    }
    const projects = (await call(api, "GET", "/api/v1/projects", { key: alice })).json();
    expect(projects.data).toEqual([
      expect.objectContaining({ project: "shared.example", reports: 1, score: 90 }),
    ]);
  });

  it("deletes only the caller's reports of a shared project", async () => {
    const deleted = await call(api, "DELETE", "/api/v1/projects/shared.example", { key: alice });
    expect(deleted.json().deleted_reports).toBe(1);
    expect((await call(api, "GET", `/api/v1/reports/${aliceReport}`, { key: alice })).statusCode).toBe(404);
    expect((await call(api, "GET", `/api/v1/reports/${bobReport}`, { key: bob })).statusCode).toBe(200);
  });
});
