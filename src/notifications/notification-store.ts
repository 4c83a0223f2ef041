/**
 * Queries on crawl notification settings and unsubscriptions (migration 034), scoped by the workspace owner id
 * the access seam gives (accounts/access.ts): a project's settings row (absent: the defaults), saving it, the
 * schedule of its latest crawl, the addresses unsubscribed from a project, and recording one more.
 */
import type { Kysely, Selectable } from "kysely";
import type { Database, NotificationSettingsTable, NotificationTrigger } from "../store/schema.js";
import type { Store } from "../store/store.js";
import { timestamp } from "../timestamps.js";

export type StoredNotificationSettings = Selectable<NotificationSettingsTable>;

export class NotificationStore {
  private readonly db: Kysely<Database>;

  constructor(store: Store) {
    this.db = store.db;
  }

  find(ownerId: number, project: string): Promise<StoredNotificationSettings | undefined> {
    return this.db
      .selectFrom("notification_settings")
      .selectAll()
      .where("user_id", "=", ownerId)
      .where("team_id", "is", null)
      .where("project", "=", project)
      .executeTakeFirst();
  }

  /** Creates or replaces the project's settings; `recipients` null is the owner's address. */
  async save(
    ownerId: number,
    project: string,
    settings: { email_on: NotificationTrigger; recipients: string[] | null },
  ): Promise<void> {
    const now = timestamp();
    const values = {
      email_on: settings.email_on,
      recipients: settings.recipients === null ? null : JSON.stringify(settings.recipients),
      updated_at: now,
    };
    await this.db
      .insertInto("notification_settings")
      .values({ user_id: ownerId, project, created_at: now, ...values })
      .onConflict((conflict) =>
        conflict.columns(["user_id", "project"]).where("team_id", "is", null).doUpdateSet(values),
      )
      .execute();
  }

  /** The schedule of the project's latest crawl (undefined without a crawl): it decides the default trigger. */
  async latestCrawlSchedule(ownerId: number, project: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom("crawls")
      .select("schedule")
      .where("user_id", "=", ownerId)
      .where("team_id", "is", null)
      .where("project", "=", project)
      .orderBy("id", "desc")
      .limit(1)
      .executeTakeFirst();
    return row?.schedule;
  }

  /** The ids of the project's latest crawls, newest first. */
  async latestCrawlIds(ownerId: number, project: string, limit: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom("crawls")
      .select("id")
      .where("user_id", "=", ownerId)
      .where("team_id", "is", null)
      .where("project", "=", project)
      .orderBy("id", "desc")
      .limit(limit)
      .execute();
    return rows.map((row) => row.id);
  }

  async unsubscribed(ownerId: number, project: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom("notification_unsubscribes")
      .select("recipient")
      .where("user_id", "=", ownerId)
      .where("team_id", "is", null)
      .where("project", "=", project)
      .orderBy("recipient")
      .execute();
    return rows.map((row) => row.recipient);
  }

  /** Records the unsubscription (once; a second one changes nothing). */
  async unsubscribe(ownerId: number, project: string, recipient: string): Promise<void> {
    await this.db
      .insertInto("notification_unsubscribes")
      .values({ user_id: ownerId, project, recipient, created_at: timestamp() })
      .onConflict((conflict) =>
        conflict.columns(["user_id", "project", "recipient"]).where("team_id", "is", null).doNothing(),
      )
      .execute();
  }
}
