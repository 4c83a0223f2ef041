/**
 * Key owners remembered on PostgreSQL (key-owner-memory.ts over change-feed.ts): a key revoked and a report
 * changed by another process (a raw `pg` connection of its own) are seen by the very next request, and losing
 * the listening connection (ended by the server with pg_terminate_backend) serves nothing stale: nothing is
 * answered from memory until it listens again, and then the memory works again. Whether a request was answered
 * from memory is seen by counting the key lookups the service sends to the database.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ReportStore } from "../../src/store/report-store.js";
import { call, postgresUrl, startApi, type TestApi } from "../helpers/api.js";
import { seedRow } from "../helpers/seed.js";

describe("remembered key owners on PostgreSQL", () => {
  let api: TestApi;
  let elsewhere: pg.Client;
  let lookups = 0;

  beforeAll(async () => {
    api = await startApi("postgres", { PAGEGRADE_RATE_LIMIT: "1000" });
    const db = api.database.store.db;
    const executeQuery = db.executeQuery.bind(db);
    db.executeQuery = ((query: Parameters<typeof executeQuery>[0]) => {
      if ("sql" in query && query.sql.includes('"api_keys"."digest"')) lookups++;
      return executeQuery(query);
    }) as typeof db.executeQuery;
    elsewhere = new pg.Client({
      connectionString: postgresUrl,
      options: `-c search_path=${api.database.schema},public`,
    });
    await elsewhere.connect();
  });
  afterAll(async () => {
    await elsewhere.end();
    await api.close();
  });

  /** The key lookups a request sent to the database. */
  async function lookupsOf<T>(request: () => Promise<T>): Promise<{ result: T; lookups: number }> {
    const before = lookups;
    const result = await request();
    return { result, lookups: lookups - before };
  }

  /** Requests until one is answered from memory (the feed listens again), for at most 10 s. */
  async function untilRemembered(key: string): Promise<void> {
    const deadline = performance.now() + 10_000;
    while (performance.now() < deadline) {
      const { lookups: sent } = await lookupsOf(() => call(api, "GET", "/api/v1/reports", { key }));
      if (sent === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error("the key owner was never answered from memory");
  }

  const listReports = (key: string) => call(api, "GET", "/api/v1/reports", { key });
  const scoreOf = (response: { body: string }) =>
    (JSON.parse(response.body) as { data: { score: number } }).data.score;

  it("answers a known key from memory, and 401 for it right after another process revokes it", async () => {
    const key = await api.newUser();
    await untilRemembered(key);
    expect((await lookupsOf(() => listReports(key))).lookups).toBe(0);

    const owner = (await api.accounts.authenticate(key))?.account.id as number;
    await elsewhere.query("update api_keys set revoked_at = now()::text where user_id = $1", [owner]);
    expect((await listReports(key)).statusCode).toBe(401);
  });

  it("shows a report changed by another process on the very next request", async () => {
    const key = await api.newUser();
    const owner = (await api.accounts.authenticate(key))?.account.id as number;
    const { id } = await new ReportStore(api.database.store).insert(
      seedRow(owner, { url: "https://a.example/", score: 70 }),
    );
    const show = () => call(api, "GET", `/api/v1/reports/${id}`, { key });
    await untilRemembered(key);
    expect(scoreOf(await show())).toBe(70);
    expect(await lookupsOf(show)).toMatchObject({ lookups: 0 });

    for (const score of [75, 80, 85]) {
      await elsewhere.query("update reports set score = $1 where id = $2", [score, id]);
      expect(scoreOf(await show())).toBe(score);
    }
  });

  it("serves nothing from memory once the listening connection is killed, and remembers again after it reconnects", async () => {
    const key = await api.newUser();
    const owner = (await api.accounts.authenticate(key))?.account.id as number;
    const { id } = await new ReportStore(api.database.store).insert(
      seedRow(owner, { url: "https://b.example/", score: 40 }),
    );
    const show = () => call(api, "GET", `/api/v1/reports/${id}`, { key });
    await untilRemembered(key);
    expect(scoreOf(await show())).toBe(40);

    const { rowCount } = await elsewhere.query(
      "select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1",
      [`pagegrade change feed ${api.database.schema}`],
    );
    expect(rowCount).toBe(1);
    // The change made while nobody listens is never announced to this process.
    await elsewhere.query("update reports set score = 45 where id = $1", [id]);
    const during = await lookupsOf(show);
    expect(scoreOf(during.result)).toBe(45);
    expect(during.lookups).toBe(1);

    await untilRemembered(key);
    expect(await lookupsOf(show)).toMatchObject({ lookups: 0 });
    await elsewhere.query("update reports set score = 50 where id = $1", [id]);
    expect(scoreOf(await show())).toBe(50);
    await elsewhere.query("update api_keys set revoked_at = now()::text where user_id = $1", [owner]);
    expect((await show()).statusCode).toBe(401);
  });
});
