/**
 * The reports version on PostgreSQL without a per-user hot spot (migration 017): transactions changing one
 * user's reports no longer wait on each other (each is a raw connection of its own, left open while the others
 * work, with a lock timeout that turns any wait into a failure), and the version an API request reads still
 * rises with every committed change, once per transaction and owner (migration 033: a crawled page's one statement
 * inserts a report and its analysis, which bumped twice before).
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AccountService } from "../../src/accounts/account-service.js";
import { freshDatabase, postgresUrl, type TestDatabase } from "../helpers/api.js";
import { seedColumns } from "../helpers/seed.js";

describe("the reports version on PostgreSQL", () => {
  let database: TestDatabase;
  const clients: pg.Client[] = [];

  beforeAll(async () => {
    database = await freshDatabase("postgres");
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.end().catch(() => {})));
    await database.drop();
  });

  /** A connection of its own, as another process would have; any lock wait past a second fails its statement. */
  async function connection(): Promise<pg.Client> {
    const client = new pg.Client({
      connectionString: postgresUrl,
      options: `-c search_path=${database.schema},public -c lock_timeout=1000`,
    });
    await client.connect();
    clients.push(client);
    return client;
  }

  async function newUser(email: string): Promise<{ id: number; key: string }> {
    const { account, key } = await new AccountService(database.store).createUser(email, null);
    return { id: account.id, key };
  }

  async function insertReport(client: pg.Client, userId: number, url: string): Promise<void> {
    const query = database.store.db
      .insertInto("reports")
      .values(seedColumns(userId, { url, score: 70 }))
      .compile();
    await client.query(query.sql, [...query.parameters]);
  }

  /** The version as the API reads it with the key (a fresh service each time: nothing remembered). */
  async function versionOf(key: string): Promise<number> {
    const owner = await new AccountService(database.store).authenticate(key);
    if (!owner) throw new Error("unknown key");
    return owner.reportsVersion;
  }

  it("commits a second transaction for the same user while the first is still open, and both raise the version", async () => {
    const user = await newUser("pair@example.com");
    const first = await connection();
    const second = await connection();
    const before = await versionOf(user.key);

    await first.query("begin");
    await insertReport(first, user.id, "https://a.example/first");
    await second.query("begin");
    await insertReport(second, user.id, "https://a.example/second");
    await second.query("commit");
    const afterSecond = await versionOf(user.key);
    expect(afterSecond).toBeGreaterThan(before);

    await first.query("commit");
    expect(await versionOf(user.key)).toBeGreaterThan(afterSecond);
  });

  it("lets twenty open transactions insert for one user at once; the version rises by one per change and the log is folded later", async () => {
    const user = await newUser("crawl@example.com");
    const connections = await Promise.all(Array.from({ length: 20 }, () => connection()));
    const before = await versionOf(user.key);

    for (const [index, client] of connections.entries()) {
      await client.query("begin");
      await insertReport(client, user.id, `https://b.example/${index}`);
    }
    // Nothing committed yet: the version is what it was.
    expect(await versionOf(user.key)).toBe(before);
    await Promise.all(connections.map((client) => client.query("commit")));
    expect(await versionOf(user.key)).toBe(before + 20);

    const logged = async () =>
      Number(
        (
          await database.store.db
            .selectFrom("report_changes" as never)
            .select((eb) => eb.fn.countAll<number>().as("rows"))
            .where("user_id" as never, "=", user.id as never)
            .executeTakeFirstOrThrow()
        ).rows,
      );
    // The first transaction held the counter; the other nineteen appended instead of waiting.
    expect(await logged()).toBe(19);
    await insertReport(connections[0] as pg.Client, user.id, "https://b.example/alone");
    expect(await logged()).toBe(0);
    expect(await versionOf(user.key)).toBe(before + 21);
  });

  it("does not wait or deadlock when two transactions change two users' reports in opposite orders", async () => {
    const one = await newUser("one@example.com");
    const two = await newUser("two@example.com");
    const [first, second] = [await connection(), await connection()];
    const before = [await versionOf(one.key), await versionOf(two.key)];

    await first.query("begin");
    await second.query("begin");
    await insertReport(first, one.id, "https://c.example/1a");
    await insertReport(second, two.id, "https://c.example/2a");
    await insertReport(first, two.id, "https://c.example/2b");
    await insertReport(second, one.id, "https://c.example/1b");
    await Promise.all([first.query("commit"), second.query("commit")]);

    expect(await versionOf(one.key)).toBe((before[0] as number) + 2);
    expect(await versionOf(two.key)).toBe((before[1] as number) + 2);
  });

  it("raises the version once for a transaction whatever number of statements change the owner's reports", async () => {
    const user = await newUser("once@example.com");
    const client = await connection();
    const before = await versionOf(user.key);
    await client.query("begin");
    await insertReport(client, user.id, "https://e.example/1");
    await insertReport(client, user.id, "https://e.example/2");
    await client.query("update reports set score = 20 where user_id = $1", [user.id]);
    await client.query("commit");
    expect(await versionOf(user.key)).toBe(before + 1);
    // The next transaction bumps again: the memory of the bump ended with its transaction.
    await insertReport(client, user.id, "https://e.example/3");
    expect(await versionOf(user.key)).toBe(before + 2);
  });

  it("bumps again after a savepoint that had bumped is rolled back", async () => {
    const user = await newUser("savepoint@example.com");
    const client = await connection();
    const before = await versionOf(user.key);
    await client.query("begin");
    await client.query("savepoint page");
    await insertReport(client, user.id, "https://f.example/undone");
    await client.query("rollback to savepoint page");
    await insertReport(client, user.id, "https://f.example/kept");
    await client.query("commit");
    expect(await versionOf(user.key)).toBe(before + 1);
  });

  it("raises the version for updates and deletes too", async () => {
    const user = await newUser("edit@example.com");
    const client = await connection();
    await insertReport(client, user.id, "https://d.example/");
    const inserted = await versionOf(user.key);
    await client.query("update reports set score = 10 where user_id = $1", [user.id]);
    const updated = await versionOf(user.key);
    expect(updated).toBeGreaterThan(inserted);
    await client.query("delete from reports where user_id = $1", [user.id]);
    expect(await versionOf(user.key)).toBeGreaterThan(updated);
  });
});
