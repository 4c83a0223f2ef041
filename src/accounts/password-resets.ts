/**
 * Password reset by e-mail. `request` enqueues a `password-reset-mail` job for any well-formed address, known or
 * not, so the page's answer and its timing say nothing about which addresses have accounts; the job (for a
 * known address only) makes a link and sends it through the mail outbox. A link holds 256 random bits, stored
 * only as their SHA-256 digest, valid 1 hour and once. Using it sets the new password, ends every session of the
 * account and every other link of it.
 */
import { createHash, randomBytes } from "node:crypto";
import type { JobContext, JobQueue } from "../jobs/job-queue.js";
import { MailNotSetUp, type MailOutbox } from "../mail/mail-outbox.js";
import type { Store } from "../store/store.js";
import { timestamp } from "../timestamps.js";
import {
  type Account,
  AccountError,
  type AccountService,
  isEmailAddress,
  passwordProblem,
} from "./account-service.js";
import { PasswordResetStore } from "./password-reset-store.js";
import type { SessionService } from "./session-service.js";

export const passwordResetMailJob = "password-reset-mail";
export const resetLinkLifetimeSeconds = 3600;

export interface PasswordResetMailPayload {
  email: string;
}

export class PasswordResets {
  private readonly links: PasswordResetStore;

  constructor(
    store: Store,
    private readonly accounts: AccountService,
    private readonly sessions: SessionService,
    private readonly outbox: MailOutbox,
    private readonly jobs: JobQueue,
  ) {
    this.links = new PasswordResetStore(store);
  }

  get mailIsSetUp(): boolean {
    return this.outbox.isSetUp;
  }

  /** Asks for a link to be mailed to `email` if it has an account; the same for any address. */
  async request(email: string): Promise<void> {
    if (!this.outbox.isSetUp) throw new MailNotSetUp();
    const normalised = email.trim().toLowerCase();
    if (!isEmailAddress(normalised)) throw new AccountError("Enter a valid e-mail address.");
    await this.jobs.enqueue(passwordResetMailJob, { email: normalised } satisfies PasswordResetMailPayload);
  }

  /** The job: a link for the account with this address, mailed; nothing for an unknown address. */
  async mailLink(email: string): Promise<void> {
    const account = await this.accounts.findByEmail(email);
    if (!account) return;
    const token = randomBytes(32).toString("base64url");
    await this.links.insert(digest(token), account.id, timestamp(), nowSeconds() + resetLinkLifetimeSeconds);
    await this.outbox.send("password-reset", account.id, {
      to: account.email,
      subject: "Reset your pagegrade password",
      paragraphs: [
        `Someone, probably you, asked to reset the password of the pagegrade account ${account.email}.`,
        "The link below sets a new password. It works once, within one hour, and signs out every session of the account.",
      ],
      link: { label: "Choose a new password", url: this.outbox.link(`/reset-password?token=${token}`) },
      footer: "If you did not ask for this, ignore this mail: your password stays as it is.",
    });
  }

  /** Whether the link's token is live (unused, unexpired); it is not used up by looking. */
  async isLive(token: string): Promise<boolean> {
    if (!looksLikeToken(token)) return false;
    return (await this.links.liveUser(digest(token), nowSeconds())) !== null;
  }

  /**
   * Uses the link: sets the new password and ends every session and link of the account. Throws AccountError
   * for a password the rules refuse (the link stays live) or a link that is unknown, used or expired.
   */
  async reset(token: string, password: string): Promise<Account> {
    const problem = passwordProblem(password);
    if (problem) throw new AccountError(problem);
    const userId = looksLikeToken(token)
      ? await this.links.take(digest(token), nowSeconds(), timestamp())
      : null;
    if (userId === null) throw new AccountError(invalidLinkMessage);
    await this.accounts.setPassword(userId, password);
    await this.sessions.destroyAll(userId);
    await this.links.deleteForUser(userId, nowSeconds());
    const account = await this.accounts.findById(userId);
    if (!account) throw new AccountError(invalidLinkMessage);
    return account;
  }

  /** Deletes links used or expired (the maintenance job). */
  async sweep(): Promise<void> {
    await this.links.sweep(nowSeconds());
  }
}

export const invalidLinkMessage =
  "This reset link is not valid: it was used already, it is more than an hour old, or it was cut short. Ask for a new one.";

/** The `password-reset-mail` handler. */
export function passwordResetMailHandler(resets: PasswordResets) {
  return (job: JobContext<PasswordResetMailPayload>) => resets.mailLink(job.payload.email);
}

function looksLikeToken(token: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(token);
}

function digest(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
