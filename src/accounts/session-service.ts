/**
 * Browser sessions, kept in the database so every instance knows them. The cookie holds 256 random bits; the
 * table holds only their digest. A session lasts 14 days; a flash message is read once.
 */
import { createHash, randomBytes } from "node:crypto";
import type { Store } from "../store/store.js";
import { timestamp } from "../timestamps.js";
import type { Account } from "./account-service.js";
import { SessionStore } from "./session-store.js";

export const sessionLifetimeSeconds = 14 * 24 * 3600;

export interface Session {
  account: Account;
  token: string;
}

export class SessionService {
  private readonly sessions: SessionStore;

  constructor(store: Store) {
    this.sessions = new SessionStore(store);
  }

  async create(userId: number, flash: string | null = null): Promise<string> {
    const token = randomBytes(32).toString("base64url");
    await this.sessions.insert({
      digest: digest(token),
      user_id: userId,
      flash,
      created_at: timestamp(),
      expires_at: nowSeconds() + sessionLifetimeSeconds,
    });
    return token;
  }

  async find(token: string | undefined): Promise<Session | null> {
    if (!token || token.length > 100) return null;
    const account = await this.sessions.account(digest(token), nowSeconds());
    return account ? { account, token } : null;
  }

  /** Returns and clears the session's one-time message. */
  async takeFlash(token: string): Promise<string | null> {
    const flash = await this.sessions.flash(digest(token));
    if (!flash) return null;
    await this.sessions.setFlash(digest(token), null);
    return flash;
  }

  async setFlash(token: string, flash: string): Promise<void> {
    await this.sessions.setFlash(digest(token), flash);
  }

  async destroy(token: string): Promise<void> {
    await this.sessions.delete(digest(token));
  }

  /** Ends every other session of the user (after a password change). */
  async destroyOthers(userId: number, keepToken: string): Promise<void> {
    await this.sessions.deleteOthers(userId, digest(keepToken));
  }

  /** Ends every session of the user (a password reset). */
  async destroyAll(userId: number): Promise<void> {
    await this.sessions.deleteAll(userId);
  }

  async sweep(): Promise<void> {
    await this.sessions.sweep(nowSeconds());
  }
}

function digest(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
