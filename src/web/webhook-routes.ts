/**
 * The account's webhooks as pages: list and add (the secret shown once, in the answer to the POST that made it),
 * a webhook with its deliveries, ping, enable/disable, delete. The rules are the WebhookService's, as in the API.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Intent } from "../accounts/access.js";
import type { SessionService } from "../accounts/session-service.js";
import { ValidationFailed } from "../errors.js";
import type { Quotas } from "../limits/quotas.js";
import type { WebhookService } from "../webhooks/webhook-service.js";
import { seeOther, sendHtml } from "./render.js";
import { signedInSession } from "./signed-in.js";
import { confirmBody } from "./views/forms.js";
import { webhookBody, webhooksBody } from "./views/webhooks.js";
import type { WebAccess } from "./web-access.js";

export interface WebhookRouteOptions {
  sessions: SessionService;
  webhooks: WebhookService;
  quotas: Quotas;
  resources: WebAccess;
}

type Form = Record<string, string | string[] | undefined>;

export async function webhookRoutes(
  app: FastifyInstance,
  { sessions, webhooks, quotas, resources }: WebhookRouteOptions,
): Promise<void> {
  const showList = async (
    request: FastifyRequest,
    reply: FastifyReply,
    form = { url: "", events: [] as string[], error: null as string | null },
    status = 200,
    newSecret: string | null = null,
  ) => {
    const session = signedInSession(request);
    const flash = await sessions.takeFlash(session.token);
    const workspace = await resources.workspace(request);
    const { rows } = await webhooks.list(workspace, { limit: 100, offset: 0 });
    const view = {
      webhooks: rows,
      newSecret,
      flash: newSecret ? null : flash,
      form,
      readOnly: workspace.role === "viewer",
    };
    return sendHtml(request, reply, "Webhooks", webhooksBody(request.csrfToken, view), status);
  };

  /** The workspace's webhook named in the path, with the session (the access seam's 404 otherwise). */
  const owned = async (request: FastifyRequest, intent: Intent = "read") => ({
    webhook: await resources.webhook(request, intent),
    workspace: await resources.workspace(request, intent),
    session: signedInSession(request),
  });

  app.get("/account/webhooks", async (request, reply) => showList(request, reply));

  app.post<{ Body: Form }>("/account/webhooks", async (request, reply) => {
    const url = typeof request.body.url === "string" ? request.body.url : "";
    const raw = request.body.events;
    const events = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
    try {
      const workspace = await resources.workspace(request, "write");
      const { secret } = await webhooks.create(workspace, {
        url,
        ...(events.length > 0 ? { events } : {}),
      });
      // Shown in this answer only: the secret never passes through the session store.
      return showList(request, reply, undefined, 200, secret);
    } catch (error) {
      if (!(error instanceof ValidationFailed)) throw error;
      return showList(request, reply, { url, events, error: error.message }, 422);
    }
  });

  app.get<{ Params: { id: string } }>("/account/webhooks/:id", async (request, reply) => {
    const found = await owned(request);
    const flash = await sessions.takeFlash(found.session.token);
    const { rows } = await webhooks.deliveries(found.webhook, {
      limit: 50,
      offset: 0,
    });
    return sendHtml(
      request,
      reply,
      "Webhook",
      webhookBody(request.csrfToken, found.webhook, rows, flash, found.workspace.role === "viewer"),
    );
  });

  app.post<{ Params: { id: string } }>("/account/webhooks/:id/ping", async (request, reply) => {
    const found = await owned(request, "write");
    await quotas.charge("pings", { userId: found.session.account.id });
    await webhooks.ping(found.workspace, found.webhook.id);
    await sessions.setFlash(found.session.token, "A ping is on its way; reload to see its delivery.");
    return seeOther(reply, `/account/webhooks/${found.webhook.id}`);
  });

  app.post<{ Params: { id: string } }>("/account/webhooks/:id/enabled", async (request, reply) => {
    const found = await owned(request, "write");
    const enabled = found.webhook.enabled !== 1;
    await webhooks.update(found.workspace, found.webhook.id, { enabled });
    await sessions.setFlash(
      found.session.token,
      enabled ? "The webhook is enabled." : "The webhook is disabled.",
    );
    return seeOther(reply, `/account/webhooks/${found.webhook.id}`);
  });

  app.get<{ Params: { id: string } }>("/account/webhooks/:id/delete", async (request, reply) => {
    const found = await owned(request, "write");
    const path = `/account/webhooks/${found.webhook.id}`;
    return sendHtml(
      request,
      reply,
      "Delete webhook",
      confirmBody(request.csrfToken, `Delete the webhook to ${found.webhook.url}?`, `${path}/delete`, path, {
        consequence: "Its deliveries go with it, and no event is sent to it any more. This cannot be undone.",
      }),
    );
  });

  app.post<{ Params: { id: string } }>("/account/webhooks/:id/delete", async (request, reply) => {
    const found = await owned(request, "write");
    await webhooks.delete(found.workspace, found.webhook.id);
    await sessions.setFlash(found.session.token, "The webhook was deleted.");
    return seeOther(reply, "/account/webhooks");
  });
}
