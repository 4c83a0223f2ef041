/**
 * What the rest of pagegrade uses to send a mail: `send` composes it, stores it in the outbox and enqueues its
 * first attempt (send-mail-job.ts); nothing talks to the SMTP server from a request. Without the mail settings
 * the outbox is not set up: `send` throws MailNotSetUp, and callers say plainly that mail is not set up.
 */
import { randomBytes } from "node:crypto";
import type { MailSettings } from "../config.js";
import type { JobQueue } from "../jobs/job-queue.js";
import { timestamp } from "../timestamps.js";
import { composeMail, type MailContent } from "./mail-message.js";
import type { MailStore } from "./mail-store.js";
import { enqueueMail } from "./send-mail-job.js";

export class MailNotSetUp extends Error {
  override readonly name = "MailNotSetUp";
  constructor() {
    super(
      "Mail is not set up on this server (PAGEGRADE_SMTP_URL, PAGEGRADE_MAIL_FROM, PAGEGRADE_PUBLIC_URL).",
    );
  }
}

export class MailOutbox {
  constructor(
    private readonly settings: MailSettings | null,
    private readonly mails: MailStore,
    private readonly jobs: JobQueue,
  ) {}

  get isSetUp(): boolean {
    return this.settings !== null;
  }

  /** An absolute link into this service for a mail: `path` ("/reset-password?token=…") on PAGEGRADE_PUBLIC_URL. */
  link(path: string): string {
    if (!this.settings) throw new MailNotSetUp();
    return `${this.settings.publicUrl}${path.startsWith("/") ? "" : "/"}${path}`;
  }

  /**
   * Stores the mail and enqueues its first attempt; resolves with its outbox id. With a `dedupeKey`, a mail
   * already stored under that key is not stored again: its first attempt is enqueued again while none ran (the
   * queue's key makes that a no-op while the job waits), so a caller run twice sends once.
   */
  async send(
    purpose: string,
    userId: number | null,
    content: MailContent,
    options: { dedupeKey?: string } = {},
  ): Promise<number> {
    if (!this.settings) throw new MailNotSetUp();
    const message = composeMail(content);
    const domain = this.settings.from.split("@")[1] ?? "pagegrade.invalid";
    const stored = await this.mails.insertOnce({
      purpose,
      user_id: userId,
      recipient: message.to,
      subject: message.subject,
      text_body: message.text,
      html_body: message.html,
      message_id: `<${randomBytes(16).toString("hex")}@${domain}>`,
      status: "pending",
      created_at: timestamp(),
      dedupe_key: options.dedupeKey ?? null,
      headers: Object.keys(message.headers).length > 0 ? JSON.stringify(message.headers) : null,
    });
    if (stored.status === "pending" && stored.attempts === 0) await enqueueMail(this.jobs, stored.id, 1);
    return stored.id;
  }
}
