/**
 * A project's crawl notification settings as the API shows and changes them (contract part 4, "Crawl
 * notifications"): `email_on` (regressed | completed | never; by default regressed for a project whose latest
 * crawl has a schedule, never otherwise), `recipients` (plain addresses, at most 20, lower-cased and without
 * repeats; by default the owner's), the addresses unsubscribed, and whether mail is set up at all. Settings are
 * stored even without mail; the answer then says plainly that nothing will be sent. Also the unsubscribe link's
 * side (reading its token, recording the unsubscription) and the latest notification mails' delivery states.
 */

import type { AccountService } from "../accounts/account-service.js";
import { ValidationFailed } from "../errors.js";
import { isPlainAddress } from "../mail/mail-message.js";
import { MailNotSetUp, type MailOutbox } from "../mail/mail-outbox.js";
import type { MailStore, StoredMail } from "../mail/mail-store.js";
import type { WorkspaceScope } from "../store/owned-rows.js";
import type { NotificationTrigger } from "../store/schema.js";
import type { NotificationStore } from "./notification-store.js";
import type { UnsubscribeSubject, UnsubscribeTokens } from "./unsubscribe-token.js";

export const crawlNotificationPurpose = "crawl-notification";

/** The outbox's dedupe key of a crawl's notification mails, before the recipient. */
export const crawlNotificationKey = (crawlId: number) => `${crawlNotificationPurpose}:${crawlId}:`;

/** A notification mail's delivery state, for the project page. */
export type NotificationMailState = Pick<
  StoredMail,
  "recipient" | "status" | "last_error" | "created_at" | "sent_at"
>;

export const notificationTriggers: readonly NotificationTrigger[] = ["regressed", "completed", "never"];

/** The most recipients a project's notifications have. */
export const maxRecipients = 20;

export interface NotificationSettingsView {
  project: string;
  email_on: NotificationTrigger;
  recipients: string[];
  /** Whether the settings are the defaults (never saved). */
  default: boolean;
  unsubscribed: string[];
  mail_set_up: boolean;
  /** Why nothing will be sent, when mail is not set up. */
  message: string | null;
}

export interface NotificationSettingsChange {
  email_on?: string;
  recipients?: unknown;
}

export class NotificationSettings {
  constructor(
    private readonly store: NotificationStore,
    private readonly accounts: AccountService,
    private readonly mail: MailOutbox,
    private readonly tokens: UnsubscribeTokens,
    private readonly mails: MailStore,
  ) {}

  /** The delivery states of the mails about the project's latest five crawls, newest first (at most 10). */
  async latestMails(ownerId: number, project: string): Promise<NotificationMailState[]> {
    const crawlIds = await this.store.latestCrawlIds(ownerId, project, 5);
    return this.mails.latestByKeyPrefix(ownerId, crawlIds.map(crawlNotificationKey), 10);
  }

  /** What applies to the project: its saved settings or the defaults. */
  async effective(
    ownerId: number,
    project: string,
  ): Promise<{ email_on: NotificationTrigger; recipients: string[]; saved: boolean }> {
    const saved = await this.store.find(ownerId, project);
    const recipients = saved?.recipients
      ? (JSON.parse(saved.recipients) as string[])
      : [(await this.accounts.findById(ownerId))?.email].filter((email) => email !== undefined);
    if (saved) return { email_on: saved.email_on, recipients, saved: true };
    const schedule = await this.store.latestCrawlSchedule(ownerId, project);
    const scheduled = schedule !== undefined && schedule !== "off";
    return { email_on: scheduled ? "regressed" : "never", recipients, saved: false };
  }

  async show(ownerId: number, project: string): Promise<NotificationSettingsView> {
    const { email_on, recipients, saved } = await this.effective(ownerId, project);
    return {
      project,
      email_on,
      recipients,
      default: !saved,
      unsubscribed: await this.store.unsubscribed(ownerId, project),
      mail_set_up: this.mail.isSetUp,
      message: this.mail.isSetUp ? null : new MailNotSetUp().message,
    };
  }

  /** Validates and saves the change (fields left out keep their value); ValidationFailed names each bad field. */
  async update(
    ownerId: number,
    project: string,
    change: NotificationSettingsChange,
  ): Promise<NotificationSettingsView> {
    const errors: Record<string, string[]> = {};
    const trigger = change.email_on;
    if (trigger !== undefined && !notificationTriggers.includes(trigger as NotificationTrigger)) {
      errors.email_on = [`email_on must be one of ${notificationTriggers.join(", ")}.`];
    }
    const recipients = change.recipients === undefined ? undefined : validRecipients(change.recipients);
    if (typeof recipients === "string") errors.recipients = [recipients];
    if (Object.keys(errors).length > 0) throw new ValidationFailed(errors);
    const current = await this.effective(ownerId, project);
    const saved = await this.store.find(ownerId, project);
    await this.store.save(ownerId, project, {
      email_on: (trigger as NotificationTrigger | undefined) ?? current.email_on,
      recipients:
        recipients === undefined
          ? saved?.recipients
            ? (JSON.parse(saved.recipients) as string[])
            : null
          : (recipients as string[]),
    });
    return this.show(ownerId, project);
  }

  /** The unsubscribe link's token for a recipient of the project's mails. */
  unsubscribeToken(subject: UnsubscribeSubject): Promise<string> {
    return this.tokens.sign(subject);
  }

  /** Who a token unsubscribes, or null for a token not made here. */
  readToken(token: string): Promise<UnsubscribeSubject | null> {
    return this.tokens.read(token);
  }

  /** Unsubscribes the token's recipient from its project and says who; null for a token not made here. */
  async unsubscribe(token: string): Promise<UnsubscribeSubject | null> {
    const subject = await this.tokens.read(token);
    if (subject) await this.store.unsubscribe(subject.ownerId, subject.project, subject.recipient);
    return subject;
  }

  unsubscribed(ownerId: number, project: string): Promise<string[]> {
    return this.store.unsubscribed(ownerId, project);
  }
}

/** The recipients lower-cased without repeats, or the message saying what is wrong with them. */
function validRecipients(given: unknown): string[] | string {
  const value = typeof given === "string" ? given.split(/[\s,;]+/).filter(Boolean) : given;
  if (!Array.isArray(value)) return "recipients must be a list of e-mail addresses.";
  if (value.length === 0) return "recipients must name at least one e-mail address.";
  if (value.length > maxRecipients) return `recipients may name at most ${maxRecipients} addresses.`;
  const addresses: string[] = [];
  for (const [index, entry] of value.entries()) {
    const address = typeof entry === "string" ? entry.trim().toLowerCase() : "";
    if (!isPlainAddress(address)) {
      return `recipients[${index}] is not one plain e-mail address such as name@example.com.`;
    }
    if (!addresses.includes(address)) addresses.push(address);
  }
  return addresses;
}

/**
 * The owner whose settings a request reads and writes: the user's own workspace. A team's projects have no
 * notification settings yet (their crawls are not mailed), said plainly rather than stored for the wrong owner.
 */
export function notificationOwner(workspace: WorkspaceScope): number {
  if (workspace.teamId !== null) {
    throw ValidationFailed.of(
      "team",
      "Crawl notifications can be set only in your own workspace for now, not in a team's.",
    );
  }
  return workspace.userId;
}
