/**
 * Queries on browser sessions, each found by the digest of its token: insert, find a live one with its account,
 * read, set and clear its one-time message, delete, and sweep expired ones. Times are seconds since the epoch.
 */
import type { Insertable, Kysely } from "kysely";
import type { Database, SessionsTable } from "../store/schema.js";
import type { Store } from "../store/store.js";
import type { Account } from "./account.js";

export class SessionStore {
  private readonly db: Kysely<Database>;

  constructor(store: Store) {
    this.db = store.db;
  }

  async insert(session: Insertable<SessionsTable>): Promise<void> {
    await this.db.insertInto("sessions").values(session).execute();
  }

  /** The account of the session with this digest, unless it has expired by `now`. */
  account(digest: string, now: number): Promise<Account | undefined> {
    return this.db
      .selectFrom("sessions")
      .innerJoin("users", "users.id", "sessions.user_id")
      .select(["users.id", "users.email", "users.created_at", "users.updated_at"])
      .where("sessions.digest", "=", digest)
      .where("sessions.expires_at", ">", now)
      .where("users.disabled_at", "is", null)
      .executeTakeFirst();
  }

  async flash(digest: string): Promise<string | null> {
    const row = await this.db
      .selectFrom("sessions")
      .select("flash")
      .where("digest", "=", digest)
      .executeTakeFirst();
    return row?.flash ?? null;
  }

  /** Sets the session's one-time message; null clears it. */
  async setFlash(digest: string, flash: string | null): Promise<void> {
    await this.db.updateTable("sessions").set({ flash }).where("digest", "=", digest).execute();
  }

  async delete(digest: string): Promise<void> {
    await this.db.deleteFrom("sessions").where("digest", "=", digest).execute();
  }

  /** Deletes every session of the user but the one with this digest. */
  async deleteOthers(userId: number, keepDigest: string): Promise<void> {
    await this.db
      .deleteFrom("sessions")
      .where("user_id", "=", userId)
      .where("digest", "!=", keepDigest)
      .execute();
  }

  /** Deletes every session of the user. */
  async deleteAll(userId: number): Promise<void> {
    await this.db.deleteFrom("sessions").where("user_id", "=", userId).execute();
  }

  /** Deletes the sessions expired by `now`, and clears one-time messages of the shapes earlier versions left. */
  async sweep(now: number): Promise<void> {
    await this.db.deleteFrom("sessions").where("expires_at", "<=", now).execute();
    // Earlier versions carried a new API key or webhook secret to the next page in the flash; clear any left.
    await this.db
      .updateTable("sessions")
      .set({ flash: null })
      .where((eb) => eb.or([eb("flash", "like", "new-key:%"), eb("flash", "like", "webhook-secret:%")]))
      .execute();
  }
}
