/**
 * /unsubscribe?token=…: a notification mail's unsubscribe link, for anyone who holds it, signed in or not. GET
 * shows a confirmation (so a link scanner that follows links unsubscribes nobody); POST unsubscribes at once,
 * which is also what a mail client's one-click unsubscription sends (RFC 8058, `List-Unsubscribe=One-Click`).
 * The token is the proof (an HMAC, src/notifications/unsubscribe-token.ts), so this POST needs no CSRF token.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { NotificationSettings } from "../notifications/notification-settings.js";
import { sendHtml } from "./render.js";
import { confirmUnsubscribeBody, invalidUnsubscribeLinkBody, unsubscribedBody } from "./views/unsubscribe.js";

type Request = FastifyRequest<{ Querystring: { token?: string } }>;

const title = "Unsubscribe";

export async function unsubscribeRoutes(
  app: FastifyInstance,
  { notifications }: { notifications: NotificationSettings },
): Promise<void> {
  const invalid = (request: Request, reply: FastifyReply) =>
    sendHtml(request, reply, title, invalidUnsubscribeLinkBody(), 404);

  app.get<{ Querystring: { token?: string } }>("/unsubscribe", async (request, reply) => {
    const token = request.query.token ?? "";
    const subject = await notifications.readToken(token);
    if (!subject) return invalid(request, reply);
    reply.header("x-robots-tag", "noindex");
    return sendHtml(request, reply, title, confirmUnsubscribeBody(token, subject.project, subject.recipient));
  });

  app.post<{ Querystring: { token?: string } }>(
    "/unsubscribe",
    { config: { signedLink: true } },
    async (request, reply) => {
      const subject = await notifications.unsubscribe(request.query.token ?? "");
      if (!subject) return invalid(request, reply);
      return sendHtml(request, reply, title, unsubscribedBody(subject.project, subject.recipient));
    },
  );
}
