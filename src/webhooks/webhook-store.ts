/**
 * Queries on webhooks and their deliveries. Every read and change of a webhook names its owner; deliveries are
 * reached through their webhook. A delivery is made once per webhook and announced thing (`event_key` is unique
 * per webhook), whatever the number of announcements.
 */
import type { Kysely, Selectable } from "kysely";
import { deleteOwned, inWorkspace, type Owner } from "../store/owned-rows.js";
import type { Database, WebhookDeliveriesTable, WebhooksTable } from "../store/schema.js";
import type { Store } from "../store/store.js";

export type WebhookRow = Selectable<WebhooksTable>;
export type DeliveryRow = Selectable<WebhookDeliveriesTable>;

/** A delivery with what sending it needs from its webhook. */
export type PendingDelivery = DeliveryRow & { url: string; secret: string; enabled: number };

export interface NewWebhook {
  user_id: number;
  /** The team whose workspace holds it; absent or null for the creator's own. */
  team_id?: number | null;
  url: string;
  events: string;
  secret: string;
  secret_hint: string;
  created_at: string;
}

export interface NewDelivery {
  webhook_id: number;
  user_id: number;
  event: string;
  event_key: string;
  body: string;
  created_at: string;
}

export class WebhookStore {
  private readonly db: Kysely<Database>;

  constructor(store: Store) {
    this.db = store.db;
  }

  async insert(webhook: NewWebhook): Promise<WebhookRow> {
    return this.db
      .insertInto("webhooks")
      .values({ ...webhook, enabled: 1, updated_at: webhook.created_at })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async count(userId: number): Promise<number> {
    const row = await this.db
      .selectFrom("webhooks")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("user_id", "=", userId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async list(
    owner: Owner,
    page: { limit: number; offset: number },
  ): Promise<{ rows: WebhookRow[]; total: number }> {
    const mine = this.db.selectFrom("webhooks").where(inWorkspace(owner));
    const [rows, counted] = await Promise.all([
      mine.selectAll().orderBy("id", "desc").limit(page.limit).offset(page.offset).execute(),
      mine.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(counted.n) };
  }

  /** The workspace's enabled webhooks (for an event of that workspace to fan out to). */
  enabled(owner: Owner): Promise<WebhookRow[]> {
    return this.db
      .selectFrom("webhooks")
      .selectAll()
      .where(inWorkspace(owner))
      .where("enabled", "=", 1)
      .orderBy("id")
      .execute();
  }

  find(owner: Owner, id: number): Promise<WebhookRow | undefined> {
    return this.db
      .selectFrom("webhooks")
      .selectAll()
      .where(inWorkspace(owner))
      .where("id", "=", id)
      .executeTakeFirst();
  }

  update(
    owner: Owner,
    id: number,
    changes: Partial<Pick<WebhookRow, "url" | "events" | "enabled" | "updated_at">>,
  ): Promise<WebhookRow | undefined> {
    return this.db
      .updateTable("webhooks")
      .set(changes)
      .where(inWorkspace(owner))
      .where("id", "=", id)
      .returningAll()
      .executeTakeFirst();
  }

  delete(owner: Owner, id: number): Promise<boolean> {
    return deleteOwned(this.db, "webhooks", owner, id);
  }

  /**
   * Makes the delivery unless this webhook already has one for the same event key; returns the delivery either
   * way (the existing one when it was announced before).
   */
  async ensureDelivery(delivery: NewDelivery): Promise<DeliveryRow> {
    await this.db
      .insertInto("webhook_deliveries")
      .values({ ...delivery, status: "pending" })
      .onConflict((conflict) => conflict.columns(["webhook_id", "event_key"]).doNothing())
      .execute();
    return this.db
      .selectFrom("webhook_deliveries")
      .selectAll()
      .where("webhook_id", "=", delivery.webhook_id)
      .where("event_key", "=", delivery.event_key)
      .executeTakeFirstOrThrow();
  }

  async deliveries(
    userId: number,
    webhookId: number,
    page: { limit: number; offset: number },
  ): Promise<{ rows: DeliveryRow[]; total: number }> {
    const mine = this.db
      .selectFrom("webhook_deliveries")
      .where("user_id", "=", userId)
      .where("webhook_id", "=", webhookId);
    const [rows, counted] = await Promise.all([
      mine.selectAll().orderBy("id", "desc").limit(page.limit).offset(page.offset).execute(),
      mine.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(counted.n) };
  }

  /** A delivery with its webhook's URL, secret and state, for sending. */
  pending(id: number): Promise<PendingDelivery | undefined> {
    return this.db
      .selectFrom("webhook_deliveries")
      .innerJoin("webhooks", "webhooks.id", "webhook_deliveries.webhook_id")
      .selectAll("webhook_deliveries")
      .select(["webhooks.url", "webhooks.secret", "webhooks.enabled"])
      .where("webhook_deliveries.id", "=", id)
      .executeTakeFirst();
  }

  /** Records an attempt's outcome (only while the delivery is pending: a finished one is never changed). */
  async recordAttempt(
    id: number,
    outcome: Pick<
      DeliveryRow,
      "status" | "attempts" | "last_status_code" | "last_error" | "next_attempt_at" | "delivered_at"
    >,
  ): Promise<void> {
    await this.db
      .updateTable("webhook_deliveries")
      .set(outcome)
      .where("id", "=", id)
      .where("status", "=", "pending")
      .execute();
  }

  async disable(webhookId: number, at: string): Promise<void> {
    await this.db
      .updateTable("webhooks")
      .set({ enabled: 0, updated_at: at })
      .where("id", "=", webhookId)
      .execute();
  }
}
