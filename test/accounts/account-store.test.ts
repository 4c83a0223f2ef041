/**
 * `pagegrade user create` beside a running service on the same SQLite file (issue 37: "database is locked" in 2
 * of 3 runs against a service under load): the user's transaction must survive another connection committing
 * while it runs. A transaction that reads and then writes cannot (SQLite refuses to turn its stale snapshot into
 * a write, whatever the busy timeout); one that writes first holds the lock, and the other connection waits.
 * The other connection writes right after the transaction's first statement, through a Kysely plugin.
 */
import type { KyselyPlugin } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { AccountStore } from "../../src/accounts/account-store.js";
import { generateApiKey } from "../../src/accounts/api-keys.js";
import { sqliteDatabaseClass } from "../../src/store/sqlite-driver.js";
import { freshDatabase, type TestDatabase } from "../helpers/api.js";

describe("AccountStore.insertUser on SQLite", () => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.drop();
  });

  it("creates a user although another connection writes between its statements", async () => {
    database = await freshDatabase("sqlite");
    const other = new (sqliteDatabaseClass())(database.url.slice("sqlite:".length));
    other.pragma("busy_timeout = 0");
    const now = new Date().toISOString();
    let otherWrote: boolean | undefined;
    const writeBetween: KyselyPlugin = {
      transformQuery: (args) => args.node,
      async transformResult(args) {
        if (otherWrote === undefined) {
          try {
            other
              .prepare("insert into users (email, created_at, updated_at) values (?, ?, ?)")
              .run("service@example.com", now, now);
            otherWrote = true;
          } catch {
            otherWrote = false; // the transaction holds the write lock: the other connection waits its turn
          }
        }
        return args.result;
      },
    };
    const store = { ...database.store, db: database.store.db.withPlugin(writeBetween) };
    try {
      const account = await new AccountStore(store).insertUser(
        "cli@example.com",
        null,
        generateApiKey(),
        now,
      );
      expect(account?.email).toBe("cli@example.com");
      expect(otherWrote).toBe(false);
      // Taken e-mail: nothing written.
      expect(
        await new AccountStore(database.store).insertUser("cli@example.com", null, generateApiKey(), now),
      ).toBe(undefined);
    } finally {
      other.close();
    }
  });
});
