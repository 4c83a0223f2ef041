/** A webhook and a delivery as the API shows them; the secret itself only in the create response. */
import type { DeliveryRow, WebhookRow } from "../../../../webhooks/webhook-store.js";

export function webhookObject(row: WebhookRow) {
  return {
    id: row.id,
    object: "webhook" as const,
    url: row.url,
    events: row.events.split(","),
    enabled: row.enabled === 1,
    secret_hint: row.secret_hint,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function deliveryObject(row: DeliveryRow) {
  return {
    id: row.id,
    object: "delivery" as const,
    event: row.event,
    status: row.status,
    attempts: row.attempts,
    last_status_code: row.last_status_code,
    last_error: row.last_error,
    next_attempt_at: row.next_attempt_at,
    created_at: row.created_at,
    delivered_at: row.delivered_at,
  };
}
