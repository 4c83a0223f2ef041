/**
 * Queries on users and their API keys: insert a user with its first key, issue and revoke keys, find the owner
 * of a key digest, read and change a password hash, list live keys. Keys arrive already generated (only their
 * digest, prefix and last four are stored); checks and messages belong to the account service.
 */
import { CompiledQuery, type Kysely, sql, type Transaction } from "kysely";
import type { Database } from "../store/schema.js";
import type { Store } from "../store/store.js";
import type { Account, KeyOwner } from "./account.js";
import type { NewApiKey } from "./api-keys.js";

interface KeyOwnerRow extends Account {
  reports_version: number;
  key_id: number;
}

const accountColumns = ["id", "email", "created_at", "updated_at"] as const;

export class AccountStore {
  private readonly db: Kysely<Database>;
  /**
   * The key lookup runs on every API request; its SQL is built once (Kysely's builder costs several times
   * what the indexed lookup itself does) and run with each request's digest.
   */
  private readonly keyOwnerSql: string;

  constructor(store: Store) {
    this.db = store.db;
    // On PostgreSQL a version is the counter plus the user's rows in report_changes (migration 017), read in
    // one statement so both come from one snapshot.
    const reportsVersion =
      store.dialect === "postgres"
        ? sql<number>`users.reports_version + (select count(*) from report_changes where report_changes.user_id = users.id)`.as(
            "reports_version",
          )
        : sql<number>`users.reports_version`.as("reports_version");
    this.keyOwnerSql = store.db
      .selectFrom("api_keys")
      .innerJoin("users", "users.id", "api_keys.user_id")
      .select([
        "users.id",
        "users.email",
        "users.created_at",
        "users.updated_at",
        reportsVersion,
        "api_keys.id as key_id",
      ])
      .where("api_keys.digest", "=", "")
      .where("api_keys.revoked_at", "is", null)
      .where("users.disabled_at", "is", null)
      .compile().sql;
  }

  /**
   * Inserts a user and its first key (none for a web sign-up) in one transaction; undefined, with nothing
   * written, when the e-mail is taken. The transaction writes first (an insert that does nothing on a taken
   * e-mail): on SQLite a transaction that reads and then writes fails at once with "database is locked" when
   * another connection (the service) committed in between, whatever the busy timeout, while one that writes
   * first waits its turn for the lock.
   */
  insertUser(
    email: string,
    passwordHash: string | null,
    key: NewApiKey | null,
    now: string,
  ): Promise<Account | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const user = await trx
        .insertInto("users")
        .values({ email, password_hash: passwordHash, created_at: now, updated_at: now })
        .onConflict((conflict) => conflict.column("email").doNothing())
        .returning(accountColumns)
        .executeTakeFirst();
      if (!user) return undefined;
      if (key) await insertKey(trx, user.id, key, now);
      return user;
    });
  }

  /** Adds a key to the user with this e-mail, revoking its others unless keepOld; undefined when there is no such user. */
  addKeyByEmail(email: string, key: NewApiKey, keepOld: boolean, now: string): Promise<Account | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const user = await trx
        .selectFrom("users")
        .select(accountColumns)
        .where("email", "=", email)
        .executeTakeFirst();
      if (!user) return undefined;
      if (!keepOld) await revokeKeys(trx, user.id, now);
      await insertKey(trx, user.id, key, now);
      return user;
    });
  }

  /** Revokes the user's live keys and adds this one, in one transaction. */
  async replaceKeys(userId: number, key: NewApiKey, now: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await revokeKeys(trx, userId, now);
      await insertKey(trx, userId, key, now);
    });
  }

  /** The owner of the live key with this digest, or null. */
  async keyOwner(digest: string): Promise<KeyOwner | null> {
    const { rows } = await this.db.executeQuery<KeyOwnerRow>(CompiledQuery.raw(this.keyOwnerSql, [digest]));
    const row = rows[0];
    if (!row) return null;
    const { key_id, reports_version, ...account } = row;
    return { account, keyId: key_id, reportsVersion: Number(reports_version) };
  }

  /** The account with this id. */
  byId(userId: number) {
    return this.db.selectFrom("users").select(accountColumns).where("id", "=", userId).executeTakeFirst();
  }

  /** The account with this (normalised) e-mail and its password hash; none for a disabled account. */
  withPassword(email: string) {
    return this.db
      .selectFrom("users")
      .select([...accountColumns, "password_hash"])
      .where("email", "=", email)
      .where("disabled_at", "is", null)
      .executeTakeFirst();
  }

  /** Every user, oldest first, with when an operator disabled them (null: enabled). */
  listUsers(page: { limit: number; offset: number }) {
    return this.db
      .selectFrom("users")
      .select([...accountColumns, "disabled_at"])
      .orderBy("id")
      .limit(page.limit)
      .offset(page.offset)
      .execute();
  }

  /**
   * Disables (a time) or enables (null) the user with this e-mail; undefined when there is none. Disabling ends
   * the user's sessions in the same transaction; their keys stop matching (the key lookup skips disabled users,
   * and `updated_at` changing makes every process forget a remembered owner).
   */
  setDisabled(email: string, disabledAt: string | null, now: string) {
    return this.db.transaction().execute(async (trx) => {
      const user = await trx
        .updateTable("users")
        .set({ disabled_at: disabledAt, updated_at: now })
        .where("email", "=", email)
        .returning([...accountColumns, "disabled_at"])
        .executeTakeFirst();
      if (user && disabledAt !== null)
        await trx.deleteFrom("sessions").where("user_id", "=", user.id).execute();
      return user;
    });
  }

  /** The user's password hash (null: none set); throws when there is no such user. */
  async passwordHash(userId: number): Promise<string | null> {
    const row = await this.db
      .selectFrom("users")
      .select("password_hash")
      .where("id", "=", userId)
      .executeTakeFirstOrThrow();
    return row.password_hash;
  }

  async setPasswordHash(userId: number, passwordHash: string, now: string): Promise<void> {
    await this.db
      .updateTable("users")
      .set({ password_hash: passwordHash, updated_at: now })
      .where("id", "=", userId)
      .execute();
  }

  /** The user's live keys, oldest first, as far as they are stored. */
  liveKeys(userId: number) {
    return this.db
      .selectFrom("api_keys")
      .select(["id", "prefix", "last_four", "created_at"])
      .where("user_id", "=", userId)
      .where("revoked_at", "is", null)
      .orderBy("id")
      .execute();
  }
}

async function revokeKeys(trx: Transaction<Database>, userId: number, now: string): Promise<void> {
  await trx
    .updateTable("api_keys")
    .set({ revoked_at: now })
    .where("user_id", "=", userId)
    .where("revoked_at", "is", null)
    .execute();
}

async function insertKey(
  trx: Transaction<Database>,
  userId: number,
  key: NewApiKey,
  now: string,
): Promise<void> {
  await trx
    .insertInto("api_keys")
    .values({
      user_id: userId,
      digest: key.digest,
      prefix: key.prefix,
      last_four: key.lastFour,
      created_at: now,
      revoked_at: null,
    })
    .execute();
}
