import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ReportStore } from "../../src/store/report-store.js";
import { call, countReports, databaseKinds, startApi, type TestApi } from "../helpers/api.js";
import { html, type LocalServer, startServer } from "../helpers/local-server.js";
import { seedRow } from "../helpers/seed.js";

/** With the guard on (the default), private targets surface as the contract's 422s and nothing is stored. */
describe.each(databaseKinds)("the address guard through the API on %s", (kind) => {
  let api: TestApi;
  let canary: LocalServer;
  let key: string;

  beforeAll(async () => {
    canary = await startServer({ "/": html("<title>canary</title>") });
    api = await startApi(kind, { PAGEGRADE_ALLOW_PRIVATE_NETWORKS: "0" });
    key = await api.newUser();
  });
  afterAll(async () => {
    await api.close();
    await canary.close();
  });

  it.each([
    "127.0.0.1",
    "127.1",
    "2130706433",
    "[::1]",
    "[::ffff:127.0.0.1]",
    "0.0.0.0",
    "169.254.169.254",
    "10.0.0.1",
    "100.64.0.1",
  ])("refuses http://%s with 422 private-address and stores nothing", async (host) => {
    const response = await call(api, "POST", "/api/v1/reports", {
      key,
      form: { url: `http://${host}:${canary.port}/` },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({
      reason: "private-address",
      errors: { url: ["The URL points to a private or reserved network address."] },
    });
    expect(await countReports(api)).toBe(0);
    expect(canary.connections).toBe(0);
  });

  it("refuses a re-run of a report whose URL points inside, leaving it unchanged", async () => {
    const userId = (await api.accounts.authenticate(key))?.account.id as number;
    const row = await new ReportStore(api.database.store).insert(
      seedRow(userId, { url: `http://127.0.0.1:${canary.port}/`, score: 70 }),
    );
    const response = await call(api, "PATCH", `/api/v1/reports/${row.id}`, { key, form: { results: "1" } });
    expect(response.statusCode).toBe(422);
    expect(response.json().reason).toBe("private-address");
    const after = (await call(api, "GET", `/api/v1/reports/${row.id}`, { key })).json().data;
    expect(after).toMatchObject({ score: 70, generated_at: row.generated_at });
    expect(canary.connections).toBe(0);
  });
});
