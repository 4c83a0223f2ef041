/**
 * The key owners remembered on SQLite (and the cached responses keyed on their reports version) while the
 * service's connection holds a transaction open: another process's change committed meanwhile is invisible to
 * that transaction's snapshot, so nothing remembered may be trusted until it ends. A real SQLite file, the
 * change made through a second connection of its own.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore } from "../../src/store/database.js";
import { ReportStore } from "../../src/store/report-store.js";
import type { Store } from "../../src/store/store.js";
import { timestamp } from "../../src/timestamps.js";
import { call, startApi, type TestApi } from "../helpers/api.js";
import { seedRow } from "../helpers/seed.js";

describe("remembered key owners while a transaction is open on SQLite", () => {
  let api: TestApi;
  let elsewhere: Store;

  beforeAll(async () => {
    api = await startApi("sqlite", { PAGEGRADE_RATE_LIMIT: "1000" });
    // Another instance or a command on the same database file.
    elsewhere = await openStore(api.database.url, { migrate: false });
  });
  afterAll(async () => {
    await elsewhere.close();
    await api.close();
  });

  /**
   * Holds a read transaction open on the service's connection (its snapshot taken), runs `change` through the
   * other connection, then sends `request` and lets the transaction end once the request has read the store's
   * change token (the moment a remembered owner would be answered).
   */
  async function duringTransaction<T>(change: () => Promise<void>, request: () => Promise<T>): Promise<T> {
    const store = api.database.store;
    const readToken = store.changeToken as () => string | undefined;
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let snapshotTaken = () => {};
    const taken = new Promise<void>((resolve) => {
      snapshotTaken = resolve;
    });
    const transaction = store.db.transaction().execute(async (trx) => {
      await trx.selectFrom("api_keys").select("id").limit(1).execute();
      snapshotTaken();
      await held;
    });
    await taken;
    await change();
    let tokenRead = () => {};
    const read = new Promise<void>((resolve) => {
      tokenRead = resolve;
    });
    store.changeToken = () => {
      const token = readToken();
      tokenRead();
      return token;
    };
    try {
      const response = request();
      await read;
      release();
      await transaction;
      return await response;
    } finally {
      store.changeToken = readToken;
      release();
    }
  }

  it("answers 401 for a key revoked by another process while the service's connection holds a transaction", async () => {
    const key = await api.newUser();
    const owner = (await api.accounts.authenticate(key))?.account.id as number;
    expect((await call(api, "GET", "/api/v1/reports", { key })).statusCode).toBe(200);
    expect((await call(api, "GET", "/api/v1/reports", { key })).statusCode).toBe(200);

    const response = await duringTransaction(
      async () => {
        await sql`update api_keys set revoked_at = ${timestamp()} where user_id = ${owner}`.execute(
          elsewhere.db,
        );
      },
      () => call(api, "GET", "/api/v1/reports", { key }),
    );
    expect(response.statusCode).toBe(401);
  });

  it("serves no cached response older than a report changed by another process during a transaction", async () => {
    const key = await api.newUser();
    const owner = (await api.accounts.authenticate(key))?.account.id as number;
    const { id } = await new ReportStore(api.database.store).insert(
      seedRow(owner, { url: "https://a.example/", score: 70 }),
    );
    const score = async (response: { body: string }) =>
      (JSON.parse(response.body) as { data: { score: number } }).data.score;
    const show = () => call(api, "GET", `/api/v1/reports/${id}`, { key });
    expect(await score(await show())).toBe(70);
    expect(await score(await show())).toBe(70);

    const response = await duringTransaction(async () => {
      await sql`update reports set score = 75 where id = ${id}`.execute(elsewhere.db);
    }, show);
    expect(await score(response)).toBe(75);
  });
});
