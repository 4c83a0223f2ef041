/** /api/v1/webhooks: list, create, show, update, delete, ping, deliveries. Thin: schema, service call, present. */
import type { FastifyInstance } from "fastify";
import { found } from "../../../../accounts/access.js";
import type { WebhookInput } from "../../../../webhooks/webhook-service.js";
import { sendPage } from "../../../pagination.js";
import type { ApiContext } from "../context.js";
import { deliveryObject, webhookObject } from "./present.js";
import {
  createWebhook,
  deleteWebhook,
  listDeliveries,
  listWebhooks,
  pingWebhook,
  showWebhook,
  updateWebhook,
} from "./schema.js";

interface PageQuery {
  per_page?: number;
  page?: number;
}

export async function webhookRoutes(
  app: FastifyInstance,
  { webhooks, limits, access }: ApiContext,
): Promise<void> {
  const pageOf = (query: PageQuery) => {
    const page = query.page ?? 1;
    const perPage = query.per_page ?? 10;
    return { page, perPage, params: [["per_page", String(perPage)]] as Array<[string, string]> };
  };

  app.get<{ Querystring: PageQuery }>("/webhooks", { schema: listWebhooks }, async (request, reply) => {
    const page = pageOf(request.query);
    const workspace = await access.workspace(request);
    const { rows, total } = await webhooks.list(workspace, {
      limit: page.perPage,
      offset: (page.page - 1) * page.perPage,
    });
    const items = rows.map((row) => JSON.stringify(webhookObject(row)));
    return sendPage(request, reply, page, items, total);
  });

  app.post<{ Body: WebhookInput }>("/webhooks", { schema: createWebhook }, async (request, reply) => {
    const workspace = await access.workspace(request, "write");
    const { webhook, secret } = await webhooks.create(workspace, request.body);
    return reply
      .code(201)
      .header("location", `/api/v1/webhooks/${webhook.id}`)
      .send({ data: { ...webhookObject(webhook), secret }, status: 201 });
  });

  app.get<{ Params: { id: number } }>("/webhooks/:id", { schema: showWebhook }, async (request, reply) => {
    const webhook = await access.webhook(request);
    return reply.send({ data: webhookObject(webhook), status: 200 });
  });

  app.patch<{ Params: { id: number }; Body: WebhookInput }>(
    "/webhooks/:id",
    { schema: updateWebhook },
    async (request, reply) => {
      const workspace = await access.workspace(request, "write");
      const webhook = found(await webhooks.update(workspace, request.params.id, request.body ?? {}));
      return reply.send({ data: webhookObject(webhook), status: 200 });
    },
  );

  app.delete<{ Params: { id: number } }>(
    "/webhooks/:id",
    { schema: deleteWebhook },
    async (request, reply) => {
      const workspace = await access.workspace(request, "write");
      found(await webhooks.delete(workspace, request.params.id));
      return reply.send({ id: request.params.id, object: "webhook", deleted: true, status: 200 });
    },
  );

  app.post<{ Params: { id: number } }>(
    "/webhooks/:id/ping",
    { schema: pingWebhook, preHandler: limits.charge("pings") },
    async (request, reply) => {
      const workspace = await access.workspace(request, "write");
      const delivery = found(await webhooks.ping(workspace, request.params.id));
      return reply.code(202).send({ data: deliveryObject(delivery), status: 202 });
    },
  );

  app.get<{ Params: { id: number }; Querystring: PageQuery }>(
    "/webhooks/:id/deliveries",
    { schema: listDeliveries },
    async (request, reply) => {
      const webhook = await access.webhook(request);
      const page = pageOf(request.query);
      const { rows, total } = await webhooks.deliveries(webhook, {
        limit: page.perPage,
        offset: (page.page - 1) * page.perPage,
      });
      return sendPage(
        request,
        reply,
        page,
        rows.map((row) => JSON.stringify(deliveryObject(row))),
        total,
      );
    },
  );
}
