/**
 * Queries on the mail outbox (`mail_messages`, migration 030): add a composed mail, read one, record that an
 * attempt starts (status `sending`, before the SMTP exchange) and how it ended (after it), and list a user's
 * latest mails whose dedupe key starts with one of some prefixes (a feature's status display).
 */
import type { Insertable, Kysely, Selectable } from "kysely";
import type { Database, MailMessagesTable, MailStatus } from "../store/schema.js";
import type { Store } from "../store/store.js";

export type StoredMail = Selectable<MailMessagesTable>;

export interface MailAttemptOutcome {
  status: MailStatus;
  attempts: number;
  last_error: string | null;
  next_attempt_at: string | null;
  sent_at: string | null;
}

export class MailStore {
  private readonly db: Kysely<Database>;

  constructor(store: Store) {
    this.db = store.db;
  }

  /**
   * Adds the mail, unless one with its `dedupe_key` is stored already; resolves with the stored row's id and
   * delivery state (the new row's, or the earlier one's).
   */
  async insertOnce(
    mail: Insertable<MailMessagesTable>,
  ): Promise<Pick<StoredMail, "id" | "status" | "attempts">> {
    const inserted = await this.db
      .insertInto("mail_messages")
      .values(mail)
      .onConflict((conflict) => conflict.column("dedupe_key").doNothing())
      .returning(["id", "status", "attempts"])
      .executeTakeFirst();
    if (inserted) return inserted;
    return this.db
      .selectFrom("mail_messages")
      .select(["id", "status", "attempts"])
      .where("dedupe_key", "=", String(mail.dedupe_key))
      .executeTakeFirstOrThrow();
  }

  /** The latest mails of these users (newest first) whose `dedupe_key` starts with one of `prefixes` (no wildcards). */
  async latestByKeyPrefix(
    userIds: number[],
    prefixes: string[],
    limit: number,
  ): Promise<Array<Pick<StoredMail, "recipient" | "status" | "last_error" | "created_at" | "sent_at">>> {
    if (prefixes.length === 0 || userIds.length === 0) return [];
    return this.db
      .selectFrom("mail_messages")
      .select(["recipient", "status", "last_error", "created_at", "sent_at"])
      .where("user_id", "in", userIds)
      .where((eb) => eb.or(prefixes.map((prefix) => eb("dedupe_key", "like", `${prefix}%`))))
      .orderBy("id", "desc")
      .limit(limit)
      .execute();
  }

  find(id: number): Promise<StoredMail | undefined> {
    return this.db.selectFrom("mail_messages").selectAll().where("id", "=", id).executeTakeFirst();
  }

  /** Marks an attempt as under way, unless the mail was sent or given up meanwhile; says whether it was. */
  async startAttempt(id: number, attempts: number): Promise<boolean> {
    const result = await this.db
      .updateTable("mail_messages")
      .set({ status: "sending", attempts })
      .where("id", "=", id)
      .where("status", "in", ["pending", "sending"])
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async recordOutcome(id: number, outcome: MailAttemptOutcome): Promise<void> {
    await this.db.updateTable("mail_messages").set(outcome).where("id", "=", id).execute();
  }
}
