/**
 * Queries on password-reset links (`password_resets`, migration 030), each found by the SHA-256 digest of its
 * token: add one, find a live one's user, take one (single use: marked used in the same statement that checks
 * it, so two submissions of one link cannot both pass), delete a user's links, and sweep used and expired ones.
 */
import type { Kysely } from "kysely";
import type { Database } from "../store/schema.js";
import type { Store } from "../store/store.js";

export class PasswordResetStore {
  private readonly db: Kysely<Database>;

  constructor(store: Store) {
    this.db = store.db;
  }

  async insert(digest: string, userId: number, createdAt: string, expiresAt: number): Promise<void> {
    await this.db
      .insertInto("password_resets")
      .values({ digest, user_id: userId, created_at: createdAt, expires_at: expiresAt, used_at: null })
      .execute();
  }

  /** The user of the unused link with this digest, unless it has expired by `now` (seconds). */
  async liveUser(digest: string, now: number): Promise<number | null> {
    const row = await this.db
      .selectFrom("password_resets")
      .select("user_id")
      .where("digest", "=", digest)
      .where("used_at", "is", null)
      .where("expires_at", ">", now)
      .executeTakeFirst();
    return row?.user_id ?? null;
  }

  /** Marks the live link used and returns its user; null when it is unknown, used or expired. */
  async take(digest: string, now: number, usedAt: string): Promise<number | null> {
    const row = await this.db
      .updateTable("password_resets")
      .set({ used_at: usedAt })
      .where("digest", "=", digest)
      .where("used_at", "is", null)
      .where("expires_at", ">", now)
      .returning("user_id")
      .executeTakeFirst();
    return row?.user_id ?? null;
  }

  /** Deletes the user's links, and every link expired by `now`. */
  async deleteForUser(userId: number, now: number): Promise<void> {
    await this.db
      .deleteFrom("password_resets")
      .where((eb) => eb.or([eb("user_id", "=", userId), eb("expires_at", "<=", now)]))
      .execute();
  }

  /** Deletes the links used, or expired by `now`. */
  async sweep(now: number): Promise<void> {
    await this.db
      .deleteFrom("password_resets")
      .where((eb) => eb.or([eb("used_at", "is not", null), eb("expires_at", "<=", now)]))
      .execute();
  }
}
