/**
 * Accounts and their API keys: create a user, issue (and revoke) keys, and find the user a key belongs to.
 * Shared by the `pagegrade user|key` commands, the API's authentication and, later, the web pages.
 */
import { randomBytes } from "node:crypto";
import { CompiledQuery, sql, type Transaction } from "kysely";
import type { Database } from "../store/schema.js";
import type { Store } from "../store/store.js";
import { timestamp } from "../timestamps.js";
import type { Account, KeyOwner } from "./account.js";
import { digestOf, generateApiKey, looksLikeApiKey, maskedKey } from "./api-keys.js";
import { type KeyOwnerMemory, keyOwnerMemoryFor } from "./key-owner-memory.js";

export type { Account, KeyOwner };

import { hashPassword, verifyPassword } from "./passwords.js";

export class AccountError extends Error {
  override readonly name = "AccountError";
}

const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const minimumPasswordLength = 8;

let decoy: Promise<string> | null = null;
/** A real hash to verify against when the e-mail is unknown, so the answer takes the same time. */
function timingDecoy(): Promise<string> {
  decoy ??= hashPassword(randomBytes(16).toString("hex"));
  return decoy;
}

interface KeyOwnerRow extends Account {
  reports_version: number;
  key_id: number;
}

export class AccountService {
  /**
   * The key lookup runs on every API request; its SQL is built once (Kysely's builder costs several times
   * what the indexed lookup itself does) and run with each request's digest.
   */
  private readonly keyOwnerSql: string;
  private readonly keyOwners: KeyOwnerMemory | null;

  constructor(private readonly store: Store) {
    this.keyOwners = keyOwnerMemoryFor(store);
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
      .compile().sql;
  }

  /** Creates a user and its first API key; returns the key in full (the only time it is shown). */
  async createUser(email: string, password: string | null): Promise<{ account: Account; key: string }> {
    const normalised = normaliseEmail(email);
    if (password !== null && password.length < minimumPasswordLength) {
      throw new AccountError(`the password must have at least ${minimumPasswordLength} characters`);
    }
    if (password !== null && password.length > 256)
      throw new AccountError("the password may not be longer than 256 characters");
    const passwordHash = password === null ? null : await hashPassword(password);
    const now = timestamp();
    return this.store.db.transaction().execute(async (trx) => {
      const existing = await trx
        .selectFrom("users")
        .select("id")
        .where("email", "=", normalised)
        .executeTakeFirst();
      if (existing) throw new AccountError(`a user with the e-mail ${normalised} already exists`);
      const user = await trx
        .insertInto("users")
        .values({ email: normalised, password_hash: passwordHash, created_at: now, updated_at: now })
        .returning(["id", "email", "created_at", "updated_at"])
        .executeTakeFirstOrThrow();
      return { account: user, key: await insertKey(trx, user.id, now) };
    });
  }

  /** Issues a new key for an existing user, revoking the others unless keepOld. */
  async issueKey(email: string, keepOld = false): Promise<{ account: Account; key: string }> {
    const normalised = normaliseEmail(email);
    const now = timestamp();
    return this.store.db.transaction().execute(async (trx) => {
      const user = await trx
        .selectFrom("users")
        .select(["id", "email", "created_at", "updated_at"])
        .where("email", "=", normalised)
        .executeTakeFirst();
      if (!user) throw new AccountError(`no user has the e-mail ${normalised}`);
      if (!keepOld) {
        await trx
          .updateTable("api_keys")
          .set({ revoked_at: now })
          .where("user_id", "=", user.id)
          .where("revoked_at", "is", null)
          .execute();
      }
      return { account: user, key: await insertKey(trx, user.id, now) };
    });
  }

  /**
   * The account a live API key belongs to (and the key's id), or null for a malformed, unknown or revoked key.
   * `reportsVersion` changes whenever any of the account's reports does (migrations 010 and 017), which is what
   * the API's response cache keys on. A found key is remembered and answered from memory while it is certainly
   * current (key-owner-memory.ts).
   */
  async authenticate(key: string): Promise<KeyOwner | null> {
    if (!looksLikeApiKey(key)) return null;
    const digest = digestOf(key);
    const recalled = this.keyOwners?.recall(digest);
    const remembered = recalled instanceof Promise ? await recalled : recalled;
    if (remembered) return remembered;
    const lookup = this.keyOwners?.lookup();
    try {
      const { rows } = await this.store.db.executeQuery<KeyOwnerRow>(
        CompiledQuery.raw(this.keyOwnerSql, [digest]),
      );
      const row = rows[0];
      if (!row) return null;
      const { key_id, reports_version, ...account } = row;
      const owner = { account, keyId: key_id, reportsVersion: Number(reports_version) };
      lookup?.remember(digest, owner);
      return owner;
    } finally {
      lookup?.end();
    }
  }

  /** The account for an e-mail and password, or null. Unknown e-mails cost as much time as wrong passwords. */
  async verifyLogin(email: string, password: string): Promise<Account | null> {
    const row = await this.store.db
      .selectFrom("users")
      .select(["id", "email", "created_at", "updated_at", "password_hash"])
      .where("email", "=", email.trim().toLowerCase())
      .executeTakeFirst();
    const valid = await verifyPassword(password, row?.password_hash ?? (await timingDecoy()));
    if (!row?.password_hash || !valid) return null;
    const { password_hash: _hash, ...account } = row;
    return account;
  }

  /** Changes the password after checking the current one; throws AccountError with a message for the form. */
  async changePassword(userId: number, current: string, next: string): Promise<void> {
    const row = await this.store.db
      .selectFrom("users")
      .select("password_hash")
      .where("id", "=", userId)
      .executeTakeFirstOrThrow();
    if (!row.password_hash || !(await verifyPassword(current, row.password_hash))) {
      throw new AccountError("The current password is not correct.");
    }
    if (next.length < minimumPasswordLength)
      throw new AccountError(`The new password must have at least ${minimumPasswordLength} characters.`);
    if (next.length > 256) throw new AccountError("The new password may not be longer than 256 characters.");
    await this.store.db
      .updateTable("users")
      .set({ password_hash: await hashPassword(next), updated_at: timestamp() })
      .where("id", "=", userId)
      .execute();
  }

  /** Revokes the user's keys and issues a new one; returns it in full (shown once). */
  async regenerateKey(userId: number): Promise<string> {
    const now = timestamp();
    return this.store.db.transaction().execute(async (trx) => {
      await trx
        .updateTable("api_keys")
        .set({ revoked_at: now })
        .where("user_id", "=", userId)
        .where("revoked_at", "is", null)
        .execute();
      return insertKey(trx, userId, now);
    });
  }

  /** The user's live keys as they may be shown: masked. */
  async listKeys(userId: number): Promise<Array<{ id: number; key: string; created_at: string }>> {
    const rows = await this.store.db
      .selectFrom("api_keys")
      .select(["id", "prefix", "last_four", "created_at"])
      .where("user_id", "=", userId)
      .where("revoked_at", "is", null)
      .orderBy("id")
      .execute();
    return rows.map((row) => ({
      id: row.id,
      key: maskedKey(row.prefix, row.last_four),
      created_at: row.created_at,
    }));
  }
}

/** Stores a new key's digest for the user; returns the key itself, which is not kept anywhere. */
async function insertKey(trx: Transaction<Database>, userId: number, now: string): Promise<string> {
  const issued = generateApiKey();
  await trx
    .insertInto("api_keys")
    .values({
      user_id: userId,
      digest: issued.digest,
      prefix: issued.prefix,
      last_four: issued.lastFour,
      created_at: now,
      revoked_at: null,
    })
    .execute();
  return issued.key;
}

/**
 * Whether the text has an e-mail address's shape; the length is checked first, as the pattern's retries grow
 * with the square of a long input (a 16 KiB form field of dots took 200 ms).
 */
export function isEmailAddress(text: string): boolean {
  return text.length <= 254 && emailPattern.test(text);
}

function normaliseEmail(email: string): string {
  const normalised = email.trim().toLowerCase();
  if (!isEmailAddress(normalised)) throw new AccountError(`"${email}" is not an e-mail address`);
  return normalised;
}
