/**
 * Accounts and their API keys: create a user, issue (and revoke) keys, and find the user a key belongs to.
 * Shared by the `pagegrade user|key` commands, the API's authentication and, later, the web pages.
 */
import { randomBytes } from "node:crypto";
import { DomainError } from "../errors.js";
import type { Store } from "../store/store.js";
import { timestamp } from "../timestamps.js";
import type { Account, KeyOwner } from "./account.js";
import { AccountStore } from "./account-store.js";
import { digestOf, generateApiKey, looksLikeApiKey, maskedKey, type NewApiKey } from "./api-keys.js";
import { type KeyOwnerMemory, keyOwnerMemoryFor } from "./key-owner-memory.js";

export type { Account, KeyOwner };

import { hashPassword, verifyPassword } from "./passwords.js";

/** A sign-up, sign-in or password change refused, with a message for the form that asked. */
export class AccountError extends DomainError {
  override readonly name = "AccountError";
  readonly code = "account_refused";
  readonly status = 422;
}

const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const minimumPasswordLength = 8;

let decoy: Promise<string> | null = null;
/** A real hash to verify against when the e-mail is unknown, so the answer takes the same time. */
function timingDecoy(): Promise<string> {
  decoy ??= hashPassword(randomBytes(16).toString("hex"));
  return decoy;
}

export class AccountService {
  private readonly accounts: AccountStore;
  private readonly keyOwners: KeyOwnerMemory | null;

  constructor(store: Store) {
    this.accounts = new AccountStore(store);
    this.keyOwners = keyOwnerMemoryFor(store);
  }

  /** Creates a user and its first API key; returns the key in full (the only time it is shown). */
  async createUser(email: string, password: string | null): Promise<{ account: Account; key: string }> {
    const issued = generateApiKey();
    const account = await this.insertUser(email, password, issued);
    return { account, key: issued.key };
  }

  /**
   * Creates a user without an API key, as the web sign-up does: its answer is a redirect, which must not carry a
   * key, so the user makes one on the account page, whose answer shows it once (POST /account/key).
   */
  async createUserWithoutKey(email: string, password: string): Promise<Account> {
    return this.insertUser(email, password, null);
  }

  private async insertUser(email: string, password: string | null, key: NewApiKey | null): Promise<Account> {
    const normalised = normaliseEmail(email);
    if (password !== null && password.length < minimumPasswordLength) {
      throw new AccountError(`the password must have at least ${minimumPasswordLength} characters`);
    }
    if (password !== null && password.length > 256)
      throw new AccountError("the password may not be longer than 256 characters");
    const passwordHash = password === null ? null : await hashPassword(password);
    const account = await this.accounts.insertUser(normalised, passwordHash, key, timestamp());
    if (!account) throw new AccountError(`a user with the e-mail ${normalised} already exists`);
    return account;
  }

  /** Issues a new key for an existing user, revoking the others unless keepOld. */
  async issueKey(email: string, keepOld = false): Promise<{ account: Account; key: string }> {
    const normalised = normaliseEmail(email);
    const issued = generateApiKey();
    const account = await this.accounts.addKeyByEmail(normalised, issued, keepOld, timestamp());
    if (!account) throw new AccountError(`no user has the e-mail ${normalised}`);
    return { account, key: issued.key };
  }

  /** Every user, oldest first, with when they were disabled (null: enabled). */
  listUsers(page: { limit: number; offset: number }) {
    return this.accounts.listUsers(page);
  }

  /**
   * Disables or enables the user with this e-mail (an operator's `pagegrade user disable|enable`): a disabled
   * user's keys and sessions stop working at once, and they cannot sign in. Their data is kept.
   */
  async setDisabled(email: string, disabled: boolean) {
    const normalised = normaliseEmail(email);
    const now = timestamp();
    const account = await this.accounts.setDisabled(normalised, disabled ? now : null, now);
    if (!account) throw new AccountError(`no user has the e-mail ${normalised}`);
    return account;
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
      const found = this.accounts.keyOwner(digest);
      lookup?.share?.(digest, found);
      const owner = await found;
      if (owner) lookup?.remember(digest, owner);
      return owner;
    } finally {
      lookup?.end();
    }
  }

  /** The account for an e-mail and password, or null. Unknown e-mails cost as much time as wrong passwords. */
  async verifyLogin(email: string, password: string): Promise<Account | null> {
    const row = await this.accounts.withPassword(email.trim().toLowerCase());
    const valid = await verifyPassword(password, row?.password_hash ?? (await timingDecoy()));
    if (!row?.password_hash || !valid) return null;
    const { password_hash: _hash, ...account } = row;
    return account;
  }

  /** Changes the password after checking the current one; throws AccountError with a message for the form. */
  async changePassword(userId: number, current: string, next: string): Promise<void> {
    const passwordHash = await this.accounts.passwordHash(userId);
    if (!passwordHash || !(await verifyPassword(current, passwordHash))) {
      throw new AccountError("The current password is not correct.");
    }
    if (next.length < minimumPasswordLength)
      throw new AccountError(`The new password must have at least ${minimumPasswordLength} characters.`);
    if (next.length > 256) throw new AccountError("The new password may not be longer than 256 characters.");
    await this.accounts.setPasswordHash(userId, await hashPassword(next), timestamp());
  }

  /** The account with this id, or null. */
  async findById(userId: number): Promise<Account | null> {
    return (await this.accounts.byId(userId)) ?? null;
  }

  /** The account with this e-mail, or null. */
  async findByEmail(email: string): Promise<Account | null> {
    const row = await this.accounts.withPassword(email.trim().toLowerCase());
    if (!row) return null;
    const { password_hash: _hash, ...account } = row;
    return account;
  }

  /**
   * Sets a new password without the current one (a reset link, an operator's `pagegrade user reset-password`);
   * the same rules as a change. The caller ends the user's sessions.
   */
  async setPassword(userId: number, next: string): Promise<void> {
    const problem = passwordProblem(next);
    if (problem) throw new AccountError(problem);
    await this.accounts.setPasswordHash(userId, await hashPassword(next), timestamp());
  }

  /** Revokes the user's keys and issues a new one; returns it in full (shown once). */
  async regenerateKey(userId: number): Promise<string> {
    const issued = generateApiKey();
    await this.accounts.replaceKeys(userId, issued, timestamp());
    return issued.key;
  }

  /** The user's live keys as they may be shown: masked. */
  async listKeys(userId: number): Promise<Array<{ id: number; key: string; created_at: string }>> {
    const rows = await this.accounts.liveKeys(userId);
    return rows.map((row) => ({
      id: row.id,
      key: maskedKey(row.prefix, row.last_four),
      created_at: row.created_at,
    }));
  }
}

/** Why a new password is not acceptable, or null: the rules of every door that sets one. */
export function passwordProblem(password: string): string | null {
  if (password.length < minimumPasswordLength)
    return `The new password must have at least ${minimumPasswordLength} characters.`;
  if (password.length > 256) return "The new password may not be longer than 256 characters.";
  return null;
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
