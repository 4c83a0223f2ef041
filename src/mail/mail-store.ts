/**
 * Queries on the mail outbox (`mail_messages`, migration 030): add a composed mail, read one, record that an
 * attempt starts (status `sending`, before the SMTP exchange) and how it ended (after it).
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

  async insert(mail: Insertable<MailMessagesTable>): Promise<number> {
    const row = await this.db
      .insertInto("mail_messages")
      .values(mail)
      .returning("id")
      .executeTakeFirstOrThrow();
    return row.id;
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
