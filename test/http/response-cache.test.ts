import { gunzipSync } from "node:zlib";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore } from "../../src/store/database.js";
import { ReportStore } from "../../src/store/report-store.js";
import { timestamp } from "../../src/timestamps.js";
import { call, databaseKinds, startApi, type TestApi } from "../helpers/api.js";
import { seedRow } from "../helpers/seed.js";

describe.each(databaseKinds)("the API's response cache (%s)", (kind) => {
  let api: TestApi;
  let key: string;
  let otherKey: string;
  let userId: number;
  let otherId: number;
  let reportIds: number[];

  const versionOf = async (id: number) =>
    Number(
      (
        await api.database.store.db
          .selectFrom("users")
          .select("reports_version")
          .where("id", "=", id)
          .executeTakeFirstOrThrow()
      ).reports_version,
    );
  const list = async (withKey = key) =>
    JSON.parse((await call(api, "GET", "/api/v1/reports?per_page=10", { key: withKey })).body) as {
      data: Array<{ id: number; privacy: number; score: number }>;
      meta: { total: number };
    };

  beforeAll(async () => {
    api = await startApi(kind, { PAGEGRADE_RATE_LIMIT: "1000" });
    key = await api.newUser();
    otherKey = await api.newUser();
    userId = (await api.accounts.authenticate(key))?.account.id as number;
    otherId = (await api.accounts.authenticate(otherKey))?.account.id as number;
    const store = new ReportStore(api.database.store);
    reportIds = [];
    for (let index = 0; index < 3; index++)
      reportIds.push(
        (await store.insert(seedRow(userId, { url: `https://a.example/${index}`, score: 70 }))).id,
      );
    await store.insert(seedRow(otherId, { url: "https://b.example/", score: 90 }));
  });
  afterAll(async () => api.close());

  it("bumps the owner's reports version on every insert, update and delete, whatever writes it", async () => {
    const before = await versionOf(userId);
    const otherBefore = await versionOf(otherId);
    await sql`update reports set score = 71 where id = ${reportIds[0]}`.execute(api.database.store.db);
    expect(await versionOf(userId)).toBeGreaterThan(before);
    const afterUpdate = await versionOf(userId);
    await new ReportStore(api.database.store).insert(
      seedRow(userId, { url: "https://a.example/new", score: 60 }),
    );
    expect(await versionOf(userId)).toBeGreaterThan(afterUpdate);
    expect(await versionOf(otherId)).toBe(otherBefore);
  });

  it("never serves a list or a report after a change to the owner's reports, however it was made", async () => {
    const first = await list();
    const id = reportIds[1] as number;
    const shown = await call(api, "GET", `/api/v1/reports/${id}`, { key });
    expect(JSON.parse(shown.body).data.privacy).toBe(1);
    // Again: now answered from the cache, byte for byte the same.
    expect((await call(api, "GET", `/api/v1/reports/${id}`, { key })).body).toBe(shown.body);
    expect(JSON.stringify(await list())).toBe(JSON.stringify(first));

    // A change made behind the service's back (another instance, a job, a migration).
    await sql`update reports set privacy = 0 where id = ${id}`.execute(api.database.store.db);
    expect(JSON.parse((await call(api, "GET", `/api/v1/reports/${id}`, { key })).body).data.privacy).toBe(0);
    expect((await list()).data.find((report) => report.id === id)?.privacy).toBe(0);

    // A change through the API.
    expect((await call(api, "DELETE", `/api/v1/reports/${id}`, { key })).statusCode).toBe(200);
    expect((await call(api, "GET", `/api/v1/reports/${id}`, { key })).statusCode).toBe(404);
    const after = await list();
    expect(after.meta.total).toBe(first.meta.total - 1);
    expect(after.data.some((report) => report.id === id)).toBe(false);
  });

  it("never serves a report's history after an analysis is added to it", async () => {
    const id = reportIds[2] as number;
    const analyses = async () =>
      JSON.parse((await call(api, "GET", `/api/v1/reports/${id}/analyses`, { key })).body).meta
        .total as number;
    const before = await analyses();
    expect(await analyses()).toBe(before);
    const columns = seedRow(userId, { url: `https://a.example/2`, score: 40 });
    await new ReportStore(api.database.store).recordFailure(
      userId,
      id,
      {
        url: columns.url,
        reason: "timeout",
        message: "The page did not respond in time.",
        generated_at: columns.generated_at,
      },
      "rerun",
    );
    expect(await analyses()).toBe(before + 1);
  });

  it("sees at once what another process changed: a report, and a key it revoked", async () => {
    // Another instance or a command on the same database: a connection of its own.
    const elsewhere = await openStore(
      api.database.url,
      api.database.schema ? { schema: api.database.schema, migrate: false } : { migrate: false },
    );
    try {
      const id = reportIds[0] as number;
      const show = async () => call(api, "GET", `/api/v1/reports/${id}`, { key });
      const before = JSON.parse((await show()).body).data.score as number;
      expect(JSON.parse((await show()).body).data.score).toBe(before);
      await sql`update reports set score = ${before + 5} where id = ${id}`.execute(elsewhere.db);
      expect(JSON.parse((await show()).body).data.score).toBe(before + 5);

      const doomed = await api.newUser();
      expect((await call(api, "GET", "/api/v1/reports", { key: doomed })).statusCode).toBe(200);
      expect((await call(api, "GET", "/api/v1/reports", { key: doomed })).statusCode).toBe(200);
      const owner = (await api.accounts.authenticate(doomed))?.account.id as number;
      await sql`update api_keys set revoked_at = ${timestamp()} where user_id = ${owner}`.execute(
        elsewhere.db,
      );
      expect((await call(api, "GET", "/api/v1/reports", { key: doomed })).statusCode).toBe(401);
    } finally {
      await elsewhere.close();
    }
  });

  it("keeps each user's responses to that user", async () => {
    const mine = await list(key);
    const theirs = await list(otherKey);
    expect(theirs.data.map((report) => report.id)).not.toEqual(mine.data.map((report) => report.id));
    expect((await call(api, "GET", `/api/v1/reports/${reportIds[0]}`, { key: otherKey })).statusCode).toBe(
      404,
    );
  });

  it("sends gzip to clients that accept it, the same document, and says it varies", async () => {
    const plain = await call(api, "GET", "/api/v1/reports?per_page=10", { key });
    const compressed = await api.app.inject({
      method: "GET",
      url: "/api/v1/reports?per_page=10",
      headers: { authorization: `Bearer ${key}`, "accept-encoding": "br;q=1, gzip;q=0.8" },
    });
    expect(compressed.headers["content-encoding"]).toBe("gzip");
    expect(compressed.headers.vary).toBe("accept-encoding");
    expect(gunzipSync(compressed.rawPayload).toString()).toBe(plain.body);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(compressed.headers.link).toBe(plain.headers.link);

    const refused = await api.app.inject({
      method: "GET",
      url: "/api/v1/reports?per_page=10",
      headers: { authorization: `Bearer ${key}`, "accept-encoding": "gzip;q=0" },
    });
    expect(refused.headers["content-encoding"]).toBeUndefined();
    expect(refused.body).toBe(plain.body);
  });
});
