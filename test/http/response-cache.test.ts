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

describe.each(databaseKinds)("the API's response cache in a team's workspace (%s)", (kind) => {
  let api: TestApi;
  let aliceKey: string;
  let bobKey: string;
  let aliceId: number;
  let bobId: number;
  let teamId: number;
  let reportIds: number[];

  const db = () => api.database.store.db;
  const teamVersion = async () =>
    Number(
      (
        await sql<{ version: number }>`select reports_version ${
          kind === "postgres"
            ? sql`+ (select count(*) from team_report_changes where team_id = teams.id)`
            : sql``
        } as version from teams where id = ${teamId}`.execute(db())
      ).rows[0]?.version,
    );
  /** Puts the team's version back where it was: a change it missed, so a cached answer would show. */
  const forgetChanges = async (version: number) => {
    if (kind === "postgres")
      await sql`delete from team_report_changes where team_id = ${teamId}`.execute(db());
    await sql`update teams set reports_version = ${version} where id = ${teamId}`.execute(db());
  };
  const get = (path: string, key = bobKey) =>
    call(api, "GET", `${path}${path.includes("?") ? "&" : "?"}team=${teamId}`, { key });

  beforeAll(async () => {
    api = await startApi(kind, { PAGEGRADE_RATE_LIMIT: "1000" });
    aliceKey = await api.newUser();
    bobKey = await api.newUser();
    aliceId = (await api.accounts.authenticate(aliceKey))?.account.id as number;
    bobId = (await api.accounts.authenticate(bobKey))?.account.id as number;
    teamId = JSON.parse(
      (await call(api, "POST", "/api/v1/teams", { key: aliceKey, json: { name: "Agency" } })).body,
    ).data.id;
    await db()
      .insertInto("team_members")
      .values({ team_id: teamId, user_id: bobId, role: "viewer", joined_at: timestamp() })
      .execute();
    const store = new ReportStore(api.database.store);
    reportIds = [];
    for (let index = 0; index < 3; index++)
      reportIds.push(
        (
          await store.insert({
            ...seedRow(aliceId, { url: `https://team.example/${index}`, score: 70 }),
            team_id: teamId,
          })
        ).id,
      );
    // One of Alice's own, which the team's version does not follow.
    await store.insert(seedRow(aliceId, { url: "https://own.example/", score: 90 }));
  });
  afterAll(async () => api.close());

  it("keeps a team's answers under the team's version, raised by every change to its reports and analyses", async () => {
    const id = reportIds[0] as number;
    const before = await teamVersion();
    const shown = await get(`/api/v1/reports/${id}`);
    expect(shown.statusCode).toBe(200);
    const listed = await get("/api/v1/reports?per_page=10");
    // Kept: a change the version missed is not seen (only this test does that), and the members share the entry.
    await sql`update reports set score = 12 where id = ${id}`.execute(db());
    expect(await teamVersion()).toBeGreaterThan(before);
    await forgetChanges(before);
    expect((await get(`/api/v1/reports/${id}`)).body).toBe(shown.body);
    expect((await get(`/api/v1/reports/${id}`, aliceKey)).body).toBe(shown.body);
    expect((await get("/api/v1/reports?per_page=10")).body).toBe(listed.body);
    // Alice's own reports do not move the team's version.
    await new ReportStore(api.database.store).insert(
      seedRow(aliceId, { url: "https://own.example/2", score: 50 }),
    );
    expect(await teamVersion()).toBe(before);
    await sql`update reports set score = 70 where id = ${id}`.execute(db());

    const changed = async (change: () => Promise<unknown>) => {
      const version = await teamVersion();
      await change();
      expect(await teamVersion()).toBeGreaterThan(version);
    };
    // Every kind of change raises it: a report inserted, updated, deleted; an analysis added.
    await changed(() =>
      new ReportStore(api.database.store).insert({
        ...seedRow(aliceId, { url: "https://team.example/new", score: 60 }),
        team_id: teamId,
      }),
    );
    await changed(() => sql`update reports set privacy = 0 where id = ${reportIds[1]}`.execute(db()));
    await changed(() => sql`update analyses set score = 1 where report_id = ${reportIds[1]}`.execute(db()));
    await changed(() =>
      new ReportStore(api.database.store).recordFailure(
        aliceId,
        reportIds[1] as number,
        {
          url: "https://team.example/1",
          reason: "timeout",
          message: "No answer.",
          generated_at: timestamp(),
        },
        "rerun",
      ),
    );
  });

  it("never serves a team's report, list or history stale, and refuses a removed member at once", async () => {
    const id = reportIds[2] as number;
    const show = async (key = bobKey) => get(`/api/v1/reports/${id}`, key);
    const history = async () =>
      JSON.parse((await get(`/api/v1/reports/${id}/analyses`)).body).meta.total as number;
    expect(JSON.parse((await show()).body).data.privacy).toBe(1);
    expect(JSON.parse((await show()).body).data.privacy).toBe(1);
    const analyses = await history();
    expect(await history()).toBe(analyses);

    // A change made behind the service's back, from another connection (another instance, a job).
    const elsewhere = await openStore(
      api.database.url,
      api.database.schema ? { schema: api.database.schema, migrate: false } : { migrate: false },
    );
    try {
      await sql`update reports set privacy = 0 where id = ${id}`.execute(elsewhere.db);
      expect(JSON.parse((await show()).body).data.privacy).toBe(0);
      expect(
        JSON.parse((await get("/api/v1/reports?per_page=10")).body).data.find(
          (report: { id: number }) => report.id === id,
        )?.privacy,
      ).toBe(0);
      await new ReportStore(elsewhere).recordFailure(
        aliceId,
        id,
        {
          url: "https://team.example/2",
          reason: "timeout",
          message: "No answer.",
          generated_at: timestamp(),
        },
        "rerun",
      );
      expect(await history()).toBe(analyses + 1);

      // Through the API: deleted by an editor of the team (Alice, its owner).
      const listedBefore = JSON.parse((await get("/api/v1/reports?per_page=10")).body).meta.total as number;
      expect(
        (await call(api, "DELETE", `/api/v1/reports/${id}?team=${teamId}`, { key: aliceKey })).statusCode,
      ).toBe(200);
      expect((await show()).statusCode).toBe(404);
      expect(JSON.parse((await get("/api/v1/reports?per_page=10")).body).meta.total).toBe(listedBefore - 1);

      // Bob removed by another process: his very next request is refused, the cached answers notwithstanding.
      const other = reportIds[0] as number;
      expect((await get(`/api/v1/reports/${other}`)).statusCode).toBe(200);
      expect((await get("/api/v1/reports?per_page=10")).statusCode).toBe(200);
      await sql`delete from team_members where team_id = ${teamId} and user_id = ${bobId}`.execute(
        elsewhere.db,
      );
      expect((await get(`/api/v1/reports/${other}`)).statusCode).toBe(404);
      expect((await get("/api/v1/reports?per_page=10")).statusCode).toBe(404);
      expect((await get(`/api/v1/reports/${other}`, aliceKey)).statusCode).toBe(200);
    } finally {
      await elsewhere.close();
    }
  });
});
