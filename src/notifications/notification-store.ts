/**
 * Queries on crawl notification settings and unsubscriptions (migration 034), scoped by the workspace the access
 * seam gives (accounts/access.ts; a bare user id is that user's own): a project's settings row (absent: the
 * defaults), saving it, the schedule of its latest crawl, the addresses unsubscribed from a project, recording
 * one more, and the workspace's members' addresses (who may receive its mails).
 */
import type { Kysely, Selectable } from "kysely";
import { inWorkspace, type Owner, scopeOf } from "../store/owned-rows.js";
import type { Database, NotificationSettingsTable, NotificationTrigger } from "../store/schema.js";
import type { Store } from "../store/store.js";
import { timestamp } from "../timestamps.js";

export type StoredNotificationSettings = Selectable<NotificationSettingsTable>;

/** A member of a workspace who may receive its mails: a personal workspace's user, a team's members. */
export interface WorkspaceMember {
  user_id: number;
  email: string;
  /** `owner` for a personal workspace's user. */
  role: string;
}

export class NotificationStore {
  private readonly db: Kysely<Database>;

  constructor(store: Store) {
    this.db = store.db;
  }

  find(owner: Owner, project: string): Promise<StoredNotificationSettings | undefined> {
    return this.db
      .selectFrom("notification_settings")
      .selectAll()
      .where(inWorkspace(owner))
      .where("project", "=", project)
      .executeTakeFirst();
  }

  /**
   * Creates or replaces the project's settings; `recipients` null is the default (the owner's address). In a
   * team's workspace the row keeps `user_id` = who saved it first (the unique key is the team and project).
   */
  async save(
    owner: Owner,
    project: string,
    settings: { email_on: NotificationTrigger; recipients: string[] | null },
  ): Promise<void> {
    const { userId, teamId } = scopeOf(owner);
    const now = timestamp();
    const values = {
      email_on: settings.email_on,
      recipients: settings.recipients === null ? null : JSON.stringify(settings.recipients),
      updated_at: now,
    };
    await this.db
      .insertInto("notification_settings")
      .values({ user_id: userId, team_id: teamId, project, created_at: now, ...values })
      .onConflict((conflict) =>
        teamId === null
          ? conflict.columns(["user_id", "project"]).where("team_id", "is", null).doUpdateSet(values)
          : conflict.columns(["team_id", "project"]).where("team_id", "is not", null).doUpdateSet(values),
      )
      .execute();
  }

  /** The schedule of the project's latest crawl (undefined without a crawl): it decides the default trigger. */
  async latestCrawlSchedule(owner: Owner, project: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom("crawls")
      .select("schedule")
      .where(inWorkspace(owner))
      .where("project", "=", project)
      .orderBy("id", "desc")
      .limit(1)
      .executeTakeFirst();
    return row?.schedule;
  }

  /** The project's latest crawls (their ids and creators), newest first. */
  latestCrawls(
    owner: Owner,
    project: string,
    limit: number,
  ): Promise<Array<{ id: number; user_id: number }>> {
    return this.db
      .selectFrom("crawls")
      .select(["id", "user_id"])
      .where(inWorkspace(owner))
      .where("project", "=", project)
      .orderBy("id", "desc")
      .limit(limit)
      .execute();
  }

  async unsubscribed(owner: Owner, project: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom("notification_unsubscribes")
      .select("recipient")
      .where(inWorkspace(owner))
      .where("project", "=", project)
      .orderBy("recipient")
      .execute();
    return rows.map((row) => row.recipient);
  }

  /** Records the unsubscription (once; a second one changes nothing). */
  async unsubscribe(owner: Owner, project: string, recipient: string): Promise<void> {
    const { userId, teamId } = scopeOf(owner);
    await this.db
      .insertInto("notification_unsubscribes")
      .values({ user_id: userId, team_id: teamId, project, recipient, created_at: timestamp() })
      .onConflict((conflict) =>
        teamId === null
          ? conflict.columns(["user_id", "project", "recipient"]).where("team_id", "is", null).doNothing()
          : conflict
              .columns(["team_id", "project", "recipient"])
              .where("team_id", "is not", null)
              .doNothing(),
      )
      .execute();
  }

  /**
   * Who may receive the workspace's mails, read fresh: a personal workspace's user, a team's members (in the
   * order they joined); a disabled account is nobody's recipient.
   */
  async members(owner: Owner): Promise<WorkspaceMember[]> {
    const { userId, teamId } = scopeOf(owner);
    if (teamId === null) {
      const user = await this.db
        .selectFrom("users")
        .select(["id", "email"])
        .where("id", "=", userId)
        .where("disabled_at", "is", null)
        .executeTakeFirst();
      return user ? [{ user_id: user.id, email: user.email.toLowerCase(), role: "owner" }] : [];
    }
    const rows = await this.db
      .selectFrom("team_members")
      .innerJoin("users", "users.id", "team_members.user_id")
      .select(["team_members.user_id", "users.email", "team_members.role"])
      .where("team_members.team_id", "=", teamId)
      .where("users.disabled_at", "is", null)
      .orderBy("team_members.joined_at")
      .orderBy("team_members.user_id")
      .execute();
    return rows.map((row) => ({ user_id: row.user_id, email: row.email.toLowerCase(), role: row.role }));
  }
}
