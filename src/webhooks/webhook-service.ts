/**
 * The rules of webhooks, shared by the API and the account pages: a URL must be absolute http(s) and its host
 * must resolve to addresses the address guard permits (the same operator settings as page fetches); events are
 * any of the six the contract names (all by default); at most 10 webhooks per user; the secret is made here,
 * returned once and stored sealed. Ping makes a `ping` delivery and enqueues it like any other.
 */
import { randomUUID } from "node:crypto";
import type { ConnectionGuard } from "../analysis/fetch/connection-guard.js";
import { FetchFailure } from "../analysis/fetch/fetch-failure.js";
import { ValidationFailed } from "../errors.js";
import type { JobQueue } from "../jobs/job-queue.js";
import { type Owner, scopeOf } from "../store/owned-rows.js";
import type { SecretBox } from "../store/secret-box.js";
import { timestamp } from "../timestamps.js";
import { enqueueDelivery } from "./delivery-job.js";
import { newWebhookSecret, secretHint } from "./webhook-secret.js";
import type { DeliveryRow, WebhookRow, WebhookStore } from "./webhook-store.js";

export const webhookEvents = [
  "report.completed",
  "report.failed",
  "report.regressed",
  "crawl.completed",
  "crawl.failed",
  "crawl.regressed",
] as const;
export type WebhookEvent = (typeof webhookEvents)[number];

export const maxWebhooksPerUser = 10;
const maxUrlLength = 2048;

export interface WebhookInput {
  url?: string;
  /** A list, or one comma-separated string. */
  events?: string | string[];
  enabled?: boolean | number;
}

export class WebhookService {
  constructor(
    private readonly webhooks: WebhookStore,
    private readonly jobs: JobQueue,
    private readonly secrets: SecretBox,
    private readonly guard: ConnectionGuard,
  ) {}

  list(owner: Owner, page: { limit: number; offset: number }) {
    return this.webhooks.list(owner, page);
  }

  show(owner: Owner, id: number): Promise<WebhookRow | undefined> {
    return this.webhooks.find(owner, id);
  }

  /** Creates a webhook; the secret is in the result, and only here. */
  /** Creates a webhook in the workspace (counted against its creator's limit). */
  async create(owner: Owner, input: WebhookInput): Promise<{ webhook: WebhookRow; secret: string }> {
    const { userId, teamId } = scopeOf(owner);
    if (input.url === undefined) throw ValidationFailed.of("url", "The url field is required.");
    const url = await this.checkUrl(input.url);
    const events = checkEvents(input.events) ?? [...webhookEvents];
    if ((await this.webhooks.count(userId)) >= maxWebhooksPerUser) {
      throw ValidationFailed.of(
        "url",
        `You can have at most ${maxWebhooksPerUser} webhooks; delete one first.`,
      );
    }
    const secret = newWebhookSecret();
    const webhook = await this.webhooks.insert({
      user_id: userId,
      team_id: teamId,
      url,
      events: events.join(","),
      secret: this.secrets.seal(secret),
      secret_hint: secretHint(secret),
      created_at: timestamp(),
    });
    return { webhook, secret };
  }

  async update(owner: Owner, id: number, input: WebhookInput): Promise<WebhookRow | undefined> {
    const existing = await this.webhooks.find(owner, id);
    if (!existing) return undefined;
    const changes: Partial<Pick<WebhookRow, "url" | "events" | "enabled" | "updated_at">> = {};
    if (input.url !== undefined) changes.url = await this.checkUrl(input.url);
    const events = checkEvents(input.events);
    if (events) changes.events = events.join(",");
    if (input.enabled !== undefined) changes.enabled = input.enabled === true || input.enabled === 1 ? 1 : 0;
    if (Object.keys(changes).length === 0) return existing;
    changes.updated_at = timestamp();
    return this.webhooks.update(owner, id, changes);
  }

  delete(owner: Owner, id: number): Promise<boolean> {
    return this.webhooks.delete(owner, id);
  }

  /** Sends a `ping` event to the webhook (a delivery of its own); undefined when the user has no such webhook. */
  async ping(owner: Owner, id: number): Promise<DeliveryRow | undefined> {
    const webhook = await this.webhooks.find(owner, id);
    if (!webhook) return undefined;
    // The delivery is the webhook's creator's, as every delivery to the webhook is.
    const userId = webhook.user_id;
    const now = timestamp();
    const delivery = await this.webhooks.ensureDelivery({
      webhook_id: webhook.id,
      user_id: userId,
      event: "ping",
      event_key: `ping:${randomUUID()}`,
      body: JSON.stringify({ type: "ping", timestamp: now, data: { webhook_id: webhook.id } }),
      created_at: now,
    });
    await enqueueDelivery(this.jobs, { id: delivery.id, userId }, 1);
    return delivery;
  }

  /** The webhook's deliveries (the webhook found in the caller's workspace). */
  deliveries(webhook: WebhookRow, page: { limit: number; offset: number }) {
    return this.webhooks.deliveries(webhook.user_id, webhook.id, page);
  }

  /** An absolute http(s) URL whose host resolves to permitted addresses only. */
  private async checkUrl(raw: string): Promise<string> {
    const text = raw.trim();
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw ValidationFailed.of("url", "The url field must be an absolute http or https URL.");
    }
    if ((url.protocol !== "http:" && url.protocol !== "https:") || text.length > maxUrlLength) {
      throw ValidationFailed.of(
        "url",
        `The url field must be an absolute http or https URL of at most ${maxUrlLength} characters.`,
      );
    }
    if (url.username || url.password) {
      throw ValidationFailed.of("url", "The url field must not contain a user name or password.");
    }
    try {
      await this.guard.vet(url.hostname);
    } catch (error) {
      if (!(error instanceof FetchFailure)) throw error;
      throw ValidationFailed.of(
        "url",
        error.reason === "private-address"
          ? "The url field must point to a public address: this host resolves to a private or reserved one."
          : "The url field's host name cannot be resolved.",
      );
    }
    return url.href;
  }
}

/** The events asked for, or undefined when none were given; an unknown event or an empty list is refused. */
function checkEvents(raw: string | string[] | undefined): WebhookEvent[] | undefined {
  if (raw === undefined) return undefined;
  const names = (Array.isArray(raw) ? raw : [raw])
    .flatMap((value) => value.split(","))
    .map((value) => value.trim())
    .filter(Boolean);
  const unknown = names.find((name) => !(webhookEvents as readonly string[]).includes(name));
  if (unknown !== undefined) {
    throw ValidationFailed.of(
      "events",
      `The events field must name only ${webhookEvents.join(", ")}; "${unknown}" is not one.`,
    );
  }
  if (names.length === 0)
    throw ValidationFailed.of("events", "The events field must name at least one event.");
  return [...new Set(names)] as WebhookEvent[];
}
