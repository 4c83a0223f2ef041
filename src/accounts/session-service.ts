/**
 * Browser sessions, kept in the database so every instance knows them. The cookie holds 256 random bits; the
 * table holds only their digest. A session lasts 14 days; a flash message is read once.
 */
import { createHash, randomBytes } from "node:crypto";
import type { Store } from "../store/store.js";
import { timestamp } from "../timestamps.js";
import type { Account } from "./account-service.js";

export const sessionLifetimeSeconds = 14 * 24 * 3600;

export interface Session {
  account: Account;
  token: string;
}

export class SessionService {
  constructor(private readonly store: Store) {}

  async create(userId: number, flash: string | null = null): Promise<string> {
    const token = randomBytes(32).toString("base64url");
    await this.store.db
      .insertInto("sessions")
      .values({
        digest: digest(token),
        user_id: userId,
        flash,
        created_at: timestamp(),
        expires_at: nowSeconds() + sessionLifetimeSeconds,
      })
      .execute();
    return token;
  }

  async find(token: string | undefined): Promise<Session | null> {
    if (!token || token.length > 100) return null;
    const row = await this.store.db
      .selectFrom("sessions")
      .innerJoin("users", "users.id", "sessions.user_id")
      .select(["users.id", "users.email", "users.created_at", "users.updated_at"])
      .where("sessions.digest", "=", digest(token))
      .where("sessions.expires_at", ">", nowSeconds())
      .executeTakeFirst();
    return row ? { account: row, token } : null;
  }

  /** Returns and clears the session's one-time message. */
  async takeFlash(token: string): Promise<string | null> {
    const row = await this.store.db
      .selectFrom("sessions")
      .select("flash")
      .where("digest", "=", digest(token))
      .executeTakeFirst();
    if (!row?.flash) return null;
    await this.store.db
      .updateTable("sessions")
      .set({ flash: null })
      .where("digest", "=", digest(token))
      .execute();
    return row.flash;
  }

  async setFlash(token: string, flash: string): Promise<void> {
    await this.store.db.updateTable("sessions").set({ flash }).where("digest", "=", digest(token)).execute();
  }

  async destroy(token: string): Promise<void> {
    await this.store.db.deleteFrom("sessions").where("digest", "=", digest(token)).execute();
  }

  /** Ends every other session of the user (after a password change). */
  async destroyOthers(userId: number, keepToken: string): Promise<void> {
    await this.store.db
      .deleteFrom("sessions")
      .where("user_id", "=", userId)
      .where("digest", "!=", digest(keepToken))
      .execute();
  }

  async sweep(): Promise<void> {
    await this.store.db.deleteFrom("sessions").where("expires_at", "<=", nowSeconds()).execute();
    // Earlier versions carried a new API key or webhook secret to the next page in the flash; clear any left.
    await this.store.db
      .updateTable("sessions")
      .set({ flash: null })
      .where((eb) => eb.or([eb("flash", "like", "new-key:%"), eb("flash", "like", "webhook-secret:%")]))
      .execute();
  }
}

function digest(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
