/** Request and response schemas of /api/v1/webhooks and a webhook's deliveries. */
import { Type } from "typebox";
import { webhookEvents } from "../../../../webhooks/webhook-service.js";
import {
  errorResponses,
  integerEnum,
  paginated,
  perPageValues,
  refTo,
  stringEnum,
  Timestamp,
} from "../common-schema.js";

const eventName = stringEnum(webhookEvents);

const webhookFields = {
  id: Type.Integer(),
  object: Type.Literal("webhook"),
  url: Type.String(),
  events: Type.Array(eventName),
  enabled: Type.Boolean({
    description: "false once disabled (by its owner, or by a 410 Gone from the receiver)",
  }),
  secret_hint: Type.String({ description: "The secret's last characters: whsec_…abcd" }),
  created_at: Timestamp,
  updated_at: Timestamp,
};

export const Webhook = Type.Object(webhookFields, { $id: "Webhook", title: "Webhook" });
const CreatedWebhook = Type.Object(
  {
    ...webhookFields,
    secret: Type.String({ description: "The signing secret (whsec_…): shown in this response only" }),
  },
  { title: "CreatedWebhook" },
);

export const Delivery = Type.Object(
  {
    id: Type.Integer({
      description: "Also the webhook-id header of every attempt of this delivery",
    }),
    object: Type.Literal("delivery"),
    event: Type.String(),
    status: stringEnum(["pending", "succeeded", "failed"]),
    attempts: Type.Integer({ minimum: 0 }),
    last_status_code: Type.Union([Type.Integer(), Type.Null()]),
    last_error: Type.Union([Type.String(), Type.Null()]),
    next_attempt_at: Type.Union([Timestamp, Type.Null()]),
    created_at: Timestamp,
    delivered_at: Type.Union([Timestamp, Type.Null()]),
  },
  { $id: "Delivery", title: "Delivery" },
);

export const webhookSchemas = [Webhook, Delivery];

const IdParams = Type.Object({ id: Type.Integer({ minimum: 1 }) });
const eventsField = Type.Optional(
  Type.Union([Type.Array(Type.String(), { maxItems: 20 }), Type.String({ maxLength: 200 })], {
    description: `Any of ${webhookEvents.join(", ")}: a repeated field, a JSON array or comma-separated (default all)`,
  }),
);
const ListQuery = Type.Object({
  per_page: Type.Optional(integerEnum(perPageValues, "Results per page (default 10)")),
  page: Type.Optional(Type.Integer({ minimum: 1 })),
});

export const listWebhooks = {
  summary: "List webhooks",
  tags: ["webhooks"],
  querystring: ListQuery,
  response: { 200: paginated(refTo(Webhook), "WebhookPage"), ...errorResponses(422) },
};

export const createWebhook = {
  summary: "Create a webhook",
  tags: ["webhooks"],
  body: Type.Object({
    url: Type.String({ maxLength: 2048, description: "Absolute http(s) URL resolving to a public address" }),
    events: eventsField,
  }),
  response: {
    201: Type.Object({ data: CreatedWebhook, status: Type.Literal(201) }),
    ...errorResponses(400, 413, 415, 422),
  },
};

export const showWebhook = {
  summary: "Show a webhook",
  tags: ["webhooks"],
  params: IdParams,
  response: { 200: Type.Object({ data: refTo(Webhook), status: Type.Literal(200) }), ...errorResponses(404) },
};

export const updateWebhook = {
  summary: "Change a webhook's URL, events or whether it is enabled",
  tags: ["webhooks"],
  params: IdParams,
  body: Type.Object({
    url: Type.Optional(Type.String({ maxLength: 2048 })),
    events: eventsField,
    enabled: Type.Optional(Type.Union([Type.Boolean(), integerEnum([0, 1])])),
  }),
  response: {
    200: Type.Object({ data: refTo(Webhook), status: Type.Literal(200) }),
    ...errorResponses(400, 404, 413, 415, 422),
  },
};

export const deleteWebhook = {
  summary: "Delete a webhook and its deliveries",
  tags: ["webhooks"],
  params: IdParams,
  response: {
    200: Type.Object({
      id: Type.Integer(),
      object: Type.Literal("webhook"),
      deleted: Type.Literal(true),
      status: Type.Literal(200),
    }),
    ...errorResponses(404),
  },
};

export const pingWebhook = {
  summary: "Send a ping event to a webhook",
  tags: ["webhooks"],
  params: IdParams,
  response: {
    202: Type.Object({ data: refTo(Delivery), status: Type.Literal(202) }),
    // A POST takes no body here, but one sent is still read: too large (413) or of a type not accepted (415).
    ...errorResponses(404, 413, 415),
  },
};

export const listDeliveries = {
  summary: "List a webhook's deliveries, newest first",
  tags: ["webhooks"],
  params: IdParams,
  querystring: ListQuery,
  response: { 200: paginated(refTo(Delivery), "DeliveryPage"), ...errorResponses(404, 422) },
};
