/**
 * A project's crawl notification settings as the API shows and changes them (contract part 4, "Crawl
 * notifications"): per project of a workspace (the user's own or a team's), `email_on` (regressed | completed |
 * never; by default regressed for a project whose latest crawl has a schedule, never otherwise), `recipients`
 * (the workspace's members' addresses: the user in their own workspace, a team's members in the team's; at most
 * 20, lower-cased and without repeats; by default the owner's: the user, or a team's owners), the addresses
 * unsubscribed, and whether mail is set up at all. A saved recipient who is no longer a member is left out of
 * what applies (and so of every mail). Settings are stored even without mail; the answer then says plainly that
 * nothing will be sent. Also the unsubscribe link's side (reading its token, recording the unsubscription) and
 * the latest notification mails' delivery states.
 */

import { ValidationFailed } from "../errors.js";
import { isPlainAddress } from "../mail/mail-message.js";
import { MailNotSetUp, type MailOutbox } from "../mail/mail-outbox.js";
import type { MailStore, StoredMail } from "../mail/mail-store.js";
import { type Owner, scopeOf } from "../store/owned-rows.js";
import type { NotificationTrigger } from "../store/schema.js";
import type { NotificationStore, WorkspaceMember } from "./notification-store.js";
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
    private readonly mail: MailOutbox,
    private readonly tokens: UnsubscribeTokens,
    private readonly mails: MailStore,
  ) {}

  /** The delivery states of the mails about the project's latest five crawls, newest first (at most 10). */
  async latestMails(owner: Owner, project: string): Promise<NotificationMailState[]> {
    const crawls = await this.store.latestCrawls(owner, project, 5);
    // A mail is stored under its crawl's creator (each of a team's members may start its crawls).
    const creators = [...new Set(crawls.map((crawl) => crawl.user_id))];
    return this.mails.latestByKeyPrefix(
      creators,
      crawls.map((crawl) => crawlNotificationKey(crawl.id)),
      10,
    );
  }

  /**
   * What applies to the project: its saved settings or the defaults, the recipients only those still members
   * of the workspace (read fresh: a member removed from a team receives nothing more).
   */
  async effective(
    owner: Owner,
    project: string,
  ): Promise<{ email_on: NotificationTrigger; recipients: string[]; saved: boolean }> {
    const saved = await this.store.find(owner, project);
    const members = await this.store.members(owner);
    const addresses = new Set(members.map((member) => member.email));
    const recipients = saved?.recipients
      ? (JSON.parse(saved.recipients) as string[]).filter((address) => addresses.has(address))
      : members.filter((member) => member.role === "owner").map((member) => member.email);
    if (saved) return { email_on: saved.email_on, recipients, saved: true };
    const schedule = await this.store.latestCrawlSchedule(owner, project);
    const scheduled = schedule !== undefined && schedule !== "off";
    return { email_on: scheduled ? "regressed" : "never", recipients, saved: false };
  }

  async show(owner: Owner, project: string): Promise<NotificationSettingsView> {
    const { email_on, recipients, saved } = await this.effective(owner, project);
    return {
      project,
      email_on,
      recipients,
      default: !saved,
      unsubscribed: await this.store.unsubscribed(owner, project),
      mail_set_up: this.mail.isSetUp,
      message: this.mail.isSetUp ? null : new MailNotSetUp().message,
    };
  }

  /**
   * Validates and saves the change (fields left out keep their value); ValidationFailed names each bad field,
   * a recipient who is not a member of the workspace by its place and address. Who may change them (an editor
   * or owner of a team) is the access seam's to check.
   */
  async update(
    owner: Owner,
    project: string,
    change: NotificationSettingsChange,
  ): Promise<NotificationSettingsView> {
    const errors: Record<string, string[]> = {};
    const trigger = change.email_on;
    if (trigger !== undefined && !notificationTriggers.includes(trigger as NotificationTrigger)) {
      errors.email_on = [`email_on must be one of ${notificationTriggers.join(", ")}.`];
    }
    let recipients = change.recipients === undefined ? undefined : validRecipients(change.recipients);
    if (Array.isArray(recipients)) recipients = nonMember(recipients, await this.store.members(owner), owner);
    if (typeof recipients === "string") errors.recipients = [recipients];
    if (Object.keys(errors).length > 0) throw new ValidationFailed(errors);
    const current = await this.effective(owner, project);
    const saved = await this.store.find(owner, project);
    await this.store.save(owner, project, {
      email_on: (trigger as NotificationTrigger | undefined) ?? current.email_on,
      recipients:
        recipients === undefined
          ? saved?.recipients
            ? (JSON.parse(saved.recipients) as string[])
            : null
          : (recipients as string[]),
    });
    return this.show(owner, project);
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
    if (subject) {
      const owner = { userId: subject.ownerId, teamId: subject.teamId };
      await this.store.unsubscribe(owner, subject.project, subject.recipient);
    }
    return subject;
  }

  unsubscribed(owner: Owner, project: string): Promise<string[]> {
    return this.store.unsubscribed(owner, project);
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
 * The addresses when each is a member's of the workspace, else the message naming the first that is not (its
 * place in the list and the address, which the asking member typed).
 */
function nonMember(addresses: string[], members: WorkspaceMember[], owner: Owner): string[] | string {
  const known = new Set(members.map((member) => member.email));
  const index = addresses.findIndex((address) => !known.has(address));
  if (index === -1) return addresses;
  const whose =
    scopeOf(owner).teamId === null
      ? "your own address (in your own workspace only you receive its mails)"
      : "the address of a member of this team";
  return `recipients[${index}] (${addresses[index]}) is not ${whose}.`;
}
